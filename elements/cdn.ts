/**
 * The CDN file (`dist/cdn/ahp-elements.min.js`): defines `<ahp-session>`, `<ahp-mcp-server>` and
 * `<ahp-mcp-server-list>` at once; `<ahp-chat>`, `<ahp-tool-call>`, `<ahp-input-needed>` and `<ahp-mcp-app>` load as
 * chunks next to it the first time one is on the page (sign-in and worker mode were chunks already). Use
 * `loadElement(tag)` for the class of a tag that loads on first use, and for tags inside shadow roots of your own.
 */
import './session/define.js';
import './mcp-server/define.js';
import './mcp-server-list/define.js';
import { defineOnFirstUse } from './shared/lazy-define.js';

const conversation = () => import('./cdn-conversation.js');
defineOnFirstUse({
  'ahp-chat': conversation,
  'ahp-tool-call': conversation,
  'ahp-input-needed': conversation,
  'ahp-mcp-app': () => import('./mcp-app/define.js'),
});

export { loadElement } from './shared/lazy-define.js';
export { AhpSession } from './session/session.js';
export { AhpMcpServer } from './mcp-server/mcp-server.js';
export { AhpMcpServerList } from './mcp-server-list/mcp-server-list.js';
export { registerLanguage } from './shared/i18n.js';
export type { LanguageSource, Messages } from './shared/i18n.js';
export { VERSION } from './shared/version.js';

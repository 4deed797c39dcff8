/**
 * The CDN file (`dist/cdn/ahp-elements.min.js`): defines `<ahp-session>` at once; every other element loads from a
 * chunk next to it the first time its tag is on the page (`<ahp-chat>`, `<ahp-tool-call>`, `<ahp-input-needed>`
 * together; `<ahp-mcp-app>` with the Apps bridge; `<ahp-mcp-server>` and `<ahp-mcp-server-list>` with the chat
 * reducers, sign-in and what the element chunks share). Use `loadElement(tag)` for the class of such a tag, and for
 * tags inside shadow roots of your own.
 */
import './session/define.js';
import { defineOnFirstUse } from './shared/lazy-define.js';

const conversation = () => import('./cdn-conversation.js');
defineOnFirstUse({
  'ahp-chat': conversation,
  'ahp-tool-call': conversation,
  'ahp-input-needed': conversation,
  'ahp-mcp-app': () => import('./mcp-app/define.js'),
  'ahp-mcp-server': () => import('./mcp-server/define.js'),
  'ahp-mcp-server-list': () => import('./mcp-server-list/define.js'),
});

export { loadElement } from './shared/lazy-define.js';
export { AhpSession } from './session/session.js';
export { registerLanguage } from './shared/i18n.js';
export type { LanguageSource, Messages } from './shared/i18n.js';
export { VERSION } from './shared/version.js';

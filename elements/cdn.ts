/**
 * The CDN file (`dist/cdn/ahp-elements.min.js`): defines every element (sign-in, worker mode and languages load as
 * chunks next to it on first use). `loadElement(tag)` resolves with an element's class, e.g. to set
 * `AhpMcpApp.sandboxUrlFor`.
 */
import './session/define.js';
import './mcp-server/define.js';
import './mcp-server-list/define.js';
import './cdn-conversation.js';
import './mcp-app/define.js';

export { loadElement } from './shared/lazy-define.js';
export { AhpSession } from './session/session.js';
export { AhpMcpServer } from './mcp-server/mcp-server.js';
export { AhpMcpServerList } from './mcp-server-list/mcp-server-list.js';
export { registerLanguage } from './shared/i18n.js';
export type { LanguageSource, Messages } from './shared/i18n.js';
export { VERSION } from './shared/version.js';

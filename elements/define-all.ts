/**
 * Defines every ahp-elements tag and exports the seven element classes, and `loadElement` as in the CDN file (here every
 * tag is defined already); events, controllers and helpers are in `ahp-elements/elements`.
 */
import './session/define.js';
import './mcp-server/define.js';
import './mcp-server-list/define.js';
import './tool-call/define.js';
import './mcp-app/define.js';
import './chat/define.js';
import './input-needed/define.js';

export { AhpSession } from './session/session.js';
export { AhpMcpServer } from './mcp-server/mcp-server.js';
export { AhpMcpServerList } from './mcp-server-list/mcp-server-list.js';
export { AhpToolCall } from './tool-call/tool-call.js';
export { AhpMcpApp } from './mcp-app/mcp-app.js';
export { AhpChat } from './chat/chat.js';
export { AhpInputNeeded } from './input-needed/input-needed.js';
export { loadElement } from './shared/lazy-define.js';

/** Defines every ahp-elements tag and re-exports the classes. */
import './session/define.js';
import './mcp-server/define.js';
import './mcp-server-list/define.js';
import './tool-call/define.js';
import './mcp-app/define.js';
import './chat/define.js';
import './input-needed/define.js';

export * from './index.js';

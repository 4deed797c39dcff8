// The list sends no intents of its own; each `<ahp-mcp-server>` row sends these.
export { restartIntent, startIntent, stopIntent, toggleIntent } from '../mcp-server/intents.js';

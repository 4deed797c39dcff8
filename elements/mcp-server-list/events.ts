// The list fires no events of its own; its `<ahp-mcp-server>` rows fire these, and they bubble out of the list.
export {
  AhpMcpServerAuthRequestEvent,
  AhpMcpServerRestartEvent,
  AhpMcpServerStartEvent,
  AhpMcpServerStopEvent,
  AhpMcpServerToggleEvent,
} from '../mcp-server/events.js';
export type { McpServerAuthRequestDetail, McpServerEventDetail, McpServerToggleDetail } from '../mcp-server/events.js';

import { mcpServerRestartRequested, mcpServerStartRequested, mcpServerStopRequested, mcpServerToggled } from '../../src/intents/session.js';
import type { McpServerCustomization } from '../../src/protocol/customizations.js';
import type { Intent } from '../shared/intents.js';
import { AhpMcpServerRestartEvent, AhpMcpServerStartEvent, AhpMcpServerStopEvent, AhpMcpServerToggleEvent } from './events.js';

/** Enable or disable the server: `ahp-mcp-server-toggle`, then `session/customizationToggled`. */
export function toggleIntent(server: McpServerCustomization, enabled: boolean): Intent {
  const action = mcpServerToggled(server, enabled);
  return [new AhpMcpServerToggleEvent({ id: server.id, enabled, enablement: action.enablement ?? [] }), action];
}

/** Start the server: `ahp-mcp-server-start`, then `session/mcpServerStartRequested`. */
export function startIntent(id: string): Intent {
  return [new AhpMcpServerStartEvent({ id }), mcpServerStartRequested(id)];
}

/** Stop the server: `ahp-mcp-server-stop`, then `session/mcpServerStopRequested`. */
export function stopIntent(id: string): Intent {
  return [new AhpMcpServerStopEvent({ id }), mcpServerStopRequested(id)];
}

/** Restart the server: `ahp-mcp-server-restart`, then stop and start. */
export function restartIntent(id: string): Intent {
  return [new AhpMcpServerRestartEvent({ id }), mcpServerRestartRequested(id)];
}

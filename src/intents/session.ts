import type { SessionAction } from '../protocol/actions.js';
import type { McpServerCustomization } from '../protocol/customizations.js';
import { toggledEnablement } from './enablement.js';

// What a user (or a page on their behalf) sends on the session channel: `store.dispatch(action)`.

/** The session action of one type (e.g. `SessionActionOf<'session/mcpServerStartRequested'>`), as a creator returns it. */
export type SessionActionOf<T extends SessionAction['type']> = Extract<SessionAction, { type: T }>;

/** Enables or disables an MCP server: `session/customizationToggled` with the enablement list that makes it so. */
export function mcpServerToggled(server: McpServerCustomization, enabled: boolean): SessionActionOf<'session/customizationToggled'> {
  return { type: 'session/customizationToggled', id: server.id, enablement: toggledEnablement(server, enabled) };
}

/** Asks the host to start an MCP server. */
export function mcpServerStartRequested(id: string): SessionActionOf<'session/mcpServerStartRequested'> {
  return { type: 'session/mcpServerStartRequested', id };
}

/** Asks the host to stop an MCP server. */
export function mcpServerStopRequested(id: string): SessionActionOf<'session/mcpServerStopRequested'> {
  return { type: 'session/mcpServerStopRequested', id };
}

/** Restarts an MCP server: stop, then start, dispatched in this order. */
export function mcpServerRestartRequested(id: string): [SessionActionOf<'session/mcpServerStopRequested'>, SessionActionOf<'session/mcpServerStartRequested'>] {
  return [mcpServerStopRequested(id), mcpServerStartRequested(id)];
}

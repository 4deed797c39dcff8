import type { AnyAction, SessionState, StateAction } from '../protocol/index.js';
import { locateMcpServer } from '../reducers/index.js';
import { isRecord } from '../protocol/guards.js';

type Rec = Record<string, unknown>;

const SERVER_ACTIONS = new Set(['session/mcpServerStartRequested', 'session/mcpServerStopRequested', 'session/mcpServerBackgroundRequested']);

/** True when a customization with this id exists at the top level or inside a container. */
function hasCustomization(state: SessionState, id: string): boolean {
  const list: unknown = state.customizations;
  if (!Array.isArray(list)) return false;
  return list.some((c) => isRecord(c) && (c.id === id || (Array.isArray(c.children) && c.children.some((child) => isRecord(child) && child.id === id))));
}

/**
 * Why the host refuses a client action on a session channel before any embedder guard runs, or
 * undefined: every action that names a customization (toggle, start, stop, background) is refused the
 * same way when no such customization (for start/stop/background: no such MCP server) exists.
 */
export function sessionActionRejection(state: SessionState, action: StateAction | AnyAction): string | undefined {
  const a = action as Rec;
  if (a.type === 'session/customizationToggled') {
    if (typeof a.id !== 'string' || !hasCustomization(state, a.id)) return `No customization with id ${JSON.stringify(a.id)} in this session`;
  } else if (typeof a.type === 'string' && SERVER_ACTIONS.has(a.type)) {
    if (typeof a.id !== 'string' || !locateMcpServer(state, a.id)) return `No MCP server with id ${JSON.stringify(a.id)} in this session`;
  }
  return undefined;
}

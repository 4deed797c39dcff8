import type { Customization, McpServerCustomization } from '../protocol/customizations.js';
import type { SessionState } from '../protocol/session.js';
import { effectiveEnabled, forEachMcpServer, locateMcpServer } from '../reducers/customizations.js';

/** One MCP server of the session with where it sits and its effective enablement. */
export interface McpServerEntry {
  server: McpServerCustomization;
  /** The plugin/directory container; absent for a top-level server. */
  container?: Customization;
  /** Own enablement ANDed with the container's. */
  enabled: boolean;
}

const entry = (server: McpServerCustomization, container?: Customization): McpServerEntry =>
  container ? { server, container, enabled: effectiveEnabled(server, container) } : { server, enabled: effectiveEnabled(server) };

const listCache = new WeakMap<object, McpServerEntry[]>();

/** Every MCP server of the session (top level and inside containers), in order. Memoized per customizations list. */
export function listMcpServers(state: SessionState | undefined): McpServerEntry[] {
  const list = state?.customizations;
  if (!Array.isArray(list)) return [];
  const cached = listCache.get(list);
  if (cached) return cached;
  const out: McpServerEntry[] = [];
  forEachMcpServer(state, (server, container) => out.push(entry(server, container)));
  listCache.set(list, out);
  return out;
}

/** The MCP server with this id as an entry, or undefined. */
export function selectMcpServer(state: SessionState | undefined, id: string): McpServerEntry | undefined {
  const found = locateMcpServer(state, id);
  return found && entry(found.server, found.container);
}

/** Publishes an MCP server's runtime state to the session with its MCP Apps fields (`mcpApp`, `channel`). */
import type { HostCore } from '../../../src/host.js';
import type { Customization, McpServerCustomization, McpServerState } from '../../../src/protocol/index.js';
import { locateMcpServer } from '../../../src/reducers/index.js';
import type { McpServerRuntime } from '../mcp-runtime.js';
import { mcpAppOf } from './mcp-app-capabilities.js';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function withMcpApp(server: McpServerCustomization, mcpApp: McpServerCustomization['mcpApp']): McpServerCustomization {
  const { mcpApp: _old, ...rest } = server;
  return mcpApp ? { ...rest, mcpApp } : rest;
}

/** The top-level entry to re-send so the server carries `mcpApp` (a nested server means re-sending its container). */
function updatedEntry(server: McpServerCustomization, container: Customization | undefined, mcpApp: McpServerCustomization['mcpApp']): Customization {
  const next = withMcpApp(server, mcpApp);
  if (!container) return next;
  const children = ((container as { children?: unknown[] }).children ?? []).map((c) => (c === server ? next : c));
  return { ...container, children } as Customization;
}

/**
 * Brings the session in line with the runtime: `mcpApp` (derived from the server's MCP capabilities while
 * ready, cleared otherwise) through `session/customizationUpdated`, then `state` and `channel` through
 * `session/mcpServerStateChanged`. When becoming ready `mcpApp` goes first, so a client never sees a channel
 * without the capabilities that say what it serves. Sends nothing that would not change the state.
 */
export function publishMcpServer(host: HostCore, sessionUri: string, id: string, state: McpServerState, runtime: McpServerRuntime | undefined): void {
  const ready = state.kind === 'ready';
  const channel = ready ? runtime?.channel : undefined;
  const mcpApp = ready && channel ? mcpAppOf(runtime?.serverCapabilities) : undefined;
  const server = locateMcpServer(host.getSessionState(sessionUri), id)?.server;
  if (!server) return;
  const updateApp = () => {
    const current = locateMcpServer(host.getSessionState(sessionUri), id);
    if (!current || same(current.server.mcpApp, mcpApp)) return;
    host.dispatchServerAction(sessionUri, { type: 'session/customizationUpdated', customization: updatedEntry(current.server, current.container, mcpApp) });
  };
  if (mcpApp) updateApp();
  if (!same(server.state, state) || server.channel !== (mcpApp ? channel : undefined)) {
    host.dispatchServerAction(sessionUri, {
      type: 'session/mcpServerStateChanged',
      id,
      state,
      ...(mcpApp && channel ? { channel } : {}),
    });
  }
  if (!mcpApp) updateApp();
}

/** Connects MCP server runtimes to the host: runtime state → session actions, client intents → start/stop. */
import type { HostCore } from '../../src/host.js';
import type { McpServerState, SessionState } from '../../src/protocol/index.js';
import { effectiveEnabled, forEachMcpServer } from '../../src/reducers/index.js';
import { publishMcpServer } from './apps/publish-mcp-server.js';
import type { McpServerRuntime } from './mcp-runtime.js';

export interface ServerLifecycle {
  /** Starts every server that is effectively enabled in the session; resolves when each is ready or failed. */
  startEnabled(): Promise<void>;
  /** Resolves when the start/stop work triggered so far has finished. */
  idle(): Promise<void>;
  /** Unhooks from the host and the runtimes (does not stop servers). */
  dispose(): void;
}

function enabledById(state: SessionState | undefined): Map<string, boolean> {
  const out = new Map<string, boolean>();
  forEachMcpServer(state, (server, container) => out.set(server.id, container ? effectiveEnabled(server, container) : effectiveEnabled(server)));
  return out;
}

/** Drives `runtimes` (keyed by customization id) from the session `sessionUri` of `host`. */
export function driveServers(host: HostCore, sessionUri: string, runtimes: ReadonlyMap<string, McpServerRuntime>): ServerLifecycle {
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  let enabled = enabledById(host.getSessionState(sessionUri));

  // State, channel and mcpApp together; only what differs from the session is sent.
  const publish = (id: string, state: McpServerState) => publishMcpServer(host, sessionUri, id, state, runtimes.get(id));
  // An optimistic client action may have left the session showing something the runtime is not doing.
  const resync = (runtime: McpServerRuntime) => publish(runtime.id, runtime.state);

  const unsubscribers = [...runtimes.values()].map((runtime) => runtime.onStateChange((state) => publish(runtime.id, state)));

  unsubscribers.push(
    host.onClientAction(({ channel, action }) => {
      if (channel !== sessionUri) return;
      if (action.type !== 'session/mcpServerStartRequested' && action.type !== 'session/mcpServerStopRequested') return;
      const id = (action as { id?: unknown }).id;
      if (typeof id !== 'string' || !runtimes.has(id)) return `No MCP server with id ${JSON.stringify(id)} in this session`;
      if (action.type === 'session/mcpServerStartRequested' && enabled.get(id) === false) {
        return `MCP server "${id}" is disabled; enable it before starting it`;
      }
      return undefined;
    }),
    host.afterClientAction(({ channel, action, state }) => {
      if (channel !== sessionUri) return;
      const id = (action as { id?: unknown }).id;
      const runtime = typeof id === 'string' ? runtimes.get(id) : undefined;
      if (action.type === 'session/mcpServerStartRequested' && runtime) {
        track(runtime.start().then(() => resync(runtime)));
      } else if (action.type === 'session/mcpServerStopRequested' && runtime) {
        track(runtime.stop().then(() => resync(runtime)));
      } else if (action.type === 'session/customizationToggled') {
        const before = enabled;
        enabled = enabledById(state);
        for (const [id, now] of enabled) {
          const rt = runtimes.get(id);
          if (!rt || before.get(id) === now) continue;
          track((now ? rt.start() : rt.stop()).then(() => resync(rt)));
        }
      }
    }),
  );

  return {
    async startEnabled() {
      const starts = [...runtimes.values()].filter((rt) => enabled.get(rt.id) !== false).map((rt) => rt.start());
      starts.forEach(track);
      await Promise.all(starts);
    },
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    dispose() {
      for (const off of unsubscribers) off();
    },
  };
}

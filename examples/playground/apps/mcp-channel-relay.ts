/** Serves every MCP server's `mcp://` channel (AHP §8) by relaying to the real server through its SDK client. */
import { HostRpcError, type HostCore } from '../../../src/host.js';
import { ErrorCode, type AhpMcpUiHostCapabilities } from '../../../src/protocol/index.js';
import type { McpServerRuntime } from '../mcp-runtime.js';

/** How long a relayed request may run: longer than the element's own limit (300 s), so long-polls end on the View's side first. */
const RELAY_TIMEOUT_MS = 600_000;

const LIST_CHANGED: Readonly<Record<string, keyof AhpMcpUiHostCapabilities>> = {
  'notifications/tools/list_changed': 'serverTools',
  'notifications/resources/list_changed': 'serverResources',
};

/**
 * Registers the `mcp://` handler on `host` and forwards the servers' list_changed notifications to clients
 * when the advertised capability has `listChanged`. The host has already refused (-32601) every method the
 * server's `mcpApp.capabilities` do not cover, so the relay forwards what reaches it verbatim. Returns the
 * function that unhooks everything.
 */
export function serveMcpChannels(host: HostCore, runtimes: ReadonlyMap<string, McpServerRuntime>): () => void {
  const byChannel = (channel: string) => [...runtimes.values()].find((rt) => rt.channel === channel);

  const offHandler = host.handleChannel('mcp://', async (method, params, ctx) => {
    const runtime = byChannel(ctx.channel);
    if (!runtime) throw new HostRpcError(ErrorCode.NotFound, `No running MCP server behind ${ctx.channel}`);
    const { channel: _channel, ...mcpParams } = params;
    const forwarded = Object.keys(mcpParams).length ? mcpParams : undefined;
    if (ctx.notification) return runtime.notify(method, forwarded);
    return runtime.request(method, forwarded, { timeoutMs: RELAY_TIMEOUT_MS });
  });

  const offNotifications = [...runtimes.values()].map((runtime) =>
    runtime.onNotification((method, params) => {
      const channel = runtime.channel;
      const capability = LIST_CHANGED[method];
      if (!channel || !capability) return;
      const advertised = host.findMcpServerByChannel(channel)?.mcpApp?.capabilities?.[capability] as { listChanged?: boolean } | undefined;
      if (advertised?.listChanged) host.notifyChannel(channel, method, params);
    }),
  );

  return () => {
    offHandler();
    for (const off of offNotifications) off();
  };
}

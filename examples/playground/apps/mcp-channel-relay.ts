/** Serves every MCP server's `mcp://` channel (AHP §8) by relaying to the real server through its SDK client. */
import { HostRpcError, type HostCore } from '../../../src/host.js';
import { ErrorCode, type AhpMcpUiHostCapabilities } from '../../../src/protocol/index.js';
import type { McpServerRuntime } from '../mcp-runtime.js';
import { UiResourcePreread, type PrereadLimits } from './ui-resource-preread.js';

/** How long a relayed request may run: longer than the element's own limit (300 s), so long-polls end on the View's side first. */
const RELAY_TIMEOUT_MS = 600_000;

const LIST_CHANGED: Readonly<Record<string, keyof AhpMcpUiHostCapabilities>> = {
  'notifications/tools/list_changed': 'serverTools',
  'notifications/resources/list_changed': 'serverResources',
};

/**
 * Registers the `mcp://` handler on `host` and forwards the servers' list_changed notifications to clients
 * when the advertised capability has `listChanged`. The host has already refused (-32601) every method the
 * server's `mcpApp.capabilities` do not cover, so the relay forwards what reaches it verbatim, except the
 * resource listing and the reads of the Views the server's tools declare: those are asked once when the server
 * becomes ready and answered from that (see UiResourcePreread; `preread: false` turns it off). Returns the function
 * that unhooks everything.
 */
export function serveMcpChannels(
  host: HostCore,
  runtimes: ReadonlyMap<string, McpServerRuntime>,
  options: { preread?: PrereadLimits | false } = {},
): () => void {
  const byChannel = (channel: string) => [...runtimes.values()].find((rt) => rt.channel === channel);
  const preread = options.preread === false ? undefined : new UiResourcePreread({ timeoutMs: RELAY_TIMEOUT_MS, ...options.preread });

  const offHandler = host.handleChannel('mcp://', async (method, params, ctx) => {
    const runtime = byChannel(ctx.channel);
    if (!runtime) throw new HostRpcError(ErrorCode.NotFound, `No running MCP server behind ${ctx.channel}`);
    const { channel: _channel, ...mcpParams } = params;
    const forwarded = Object.keys(mcpParams).length ? mcpParams : undefined;
    if (ctx.notification) return runtime.notify(method, forwarded);
    return preread?.answer(ctx.channel, method, mcpParams) ?? runtime.request(method, forwarded, { timeoutMs: RELAY_TIMEOUT_MS });
  });

  // A channel is one start of one server: what was read on it goes when the server leaves `ready`.
  const readyChannels = new Map<McpServerRuntime, string>();
  const offStates = preread
    ? [...runtimes.values()].map((runtime) => {
        const follow = () => {
          const was = readyChannels.get(runtime);
          const now = runtime.state.kind === 'ready' ? runtime.channel : undefined;
          if (was === now) return;
          if (was) (preread.serverGone(was), readyChannels.delete(runtime));
          if (now) (readyChannels.set(runtime, now), void preread.serverReady(now, runtime));
        };
        follow();
        return runtime.onStateChange(follow);
      })
    : [];

  const offNotifications = [...runtimes.values()].map((runtime) =>
    runtime.onNotification((method, params) => {
      const channel = runtime.channel;
      if (channel && preread) {
        if (method === 'notifications/resources/updated' && typeof params.uri === 'string') preread.resourceUpdated(channel, params.uri);
        else if (method === 'notifications/resources/list_changed') preread.resourcesChanged(channel);
        else if (method === 'notifications/tools/list_changed') void preread.serverReady(channel, runtime);
      }
      const capability = LIST_CHANGED[method];
      if (!channel || !capability) return;
      const advertised = host.findMcpServerByChannel(channel)?.mcpApp?.capabilities?.[capability] as { listChanged?: boolean } | undefined;
      if (advertised?.listChanged) host.notifyChannel(channel, method, params);
    }),
  );

  return () => {
    offHandler();
    for (const off of [...offNotifications, ...offStates]) off();
    for (const channel of readyChannels.values()) preread?.serverGone(channel);
  };
}

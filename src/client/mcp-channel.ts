import { ErrorCode, type McpServerCustomization, type URI } from '../protocol/index.js';
import { allowedMcpMethods } from '../protocol/mcp-channel-methods.js';

export { allowedMcpMethods };
import type { AhpClient } from './ahp-client.js';
import { RpcError } from './errors.js';

/** The server has no `mcp://` channel right now (not ready, not advertised, or gone). */
export class McpChannelUnavailableError extends Error {
  readonly serverId: string | undefined;
  constructor(server: McpServerCustomization | undefined) {
    const what = server ? `MCP server '${server.name}' (${server.id})` : 'The MCP server';
    const why = server ? `has no mcp:// channel (state: ${String(server.state?.kind)})` : 'is not in the session';
    super(`${what} ${why}`);
    this.name = 'McpChannelUnavailableError';
    this.serverId = server?.id;
  }
}

/** What the channel needs from the AHP client: the shared connection (one JSON-RPC id counter). */
export type McpChannelClient = Pick<AhpClient, 'request' | 'notify' | 'onNotification'>;

export interface McpChannelOptions {
  client: McpChannelClient;
  /** The server's current customization; read on every call, so channel and capabilities stay current. */
  getServer: () => McpServerCustomization | undefined;
}

/** Per-request options of `McpChannel.request`. */
export interface McpChannelRequestOptions {
  /** Overrides the client's per-request timeout (ms; 0 or Infinity: none). */
  timeoutMs?: number;
  /** Stops waiting for the answer (rejects with the signal's reason); the host still finishes the request. */
  signal?: AbortSignal;
}

/** MCP traffic to one server over its `mcp://` side channel (AHP §8). */
export interface McpChannel {
  /** Sends an MCP request with `params.channel` set; rejects with RpcError -32601 (not advertised) or McpChannelUnavailableError. */
  request<R = unknown>(method: string, params?: Record<string, unknown>, options?: McpChannelRequestOptions): Promise<R>;
  /** Sends an MCP notification with `params.channel` set; throws like `request` rejects. */
  notify(method: string, params?: Record<string, unknown>): void;
  /** Listens for host→client MCP notifications on the server's current channel; `params` arrive without `channel`. */
  onNotification(method: string, listener: (params: Record<string, unknown>) => void): () => void;
  /** True while the server has a channel. */
  available(): boolean;
  /** Why there is no channel right now (a sentence for the user); undefined while there is one. */
  unavailableReason?(): string | undefined;
}

const channelOf = (server: McpServerCustomization | undefined): URI | undefined =>
  typeof server?.channel === 'string' && server.channel !== '' ? server.channel : undefined;

/** Creates the `mcp://` channel client for one MCP server customization. */
export function createMcpChannel({ client, getServer }: McpChannelOptions): McpChannel {
  const route = (method: string, params: Record<string, unknown> | undefined): Record<string, unknown> => {
    const server = getServer();
    const channel = channelOf(server);
    if (!server || !channel) throw new McpChannelUnavailableError(server);
    if (!allowedMcpMethods(server.mcpApp?.capabilities).has(method)) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: '${method}' is not among the capabilities MCP server '${server.id}' advertises`);
    }
    return { ...params, channel };
  };
  return {
    async request<R>(method: string, params?: Record<string, unknown>, options: McpChannelRequestOptions = {}): Promise<R> {
      const { signal, timeoutMs } = options;
      signal?.throwIfAborted();
      const answer = client.request<R>(method, route(method, params), timeoutMs === undefined ? undefined : { timeoutMs });
      if (!signal) return answer;
      return new Promise<R>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    notify(method, params) {
      client.notify(method, route(method, params));
    },
    onNotification(method, listener) {
      return client.onNotification(method, (params) => {
        if (typeof params !== 'object' || params === null) return;
        const { channel, ...rest } = params as Record<string, unknown>;
        const current = channelOf(getServer());
        if (current !== undefined && channel === current) listener(rest);
      });
    },
    available: () => channelOf(getServer()) !== undefined,
    unavailableReason: () => {
      const server = getServer();
      return channelOf(server) === undefined ? new McpChannelUnavailableError(server).message : undefined;
    },
  };
}

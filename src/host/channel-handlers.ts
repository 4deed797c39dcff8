import { ErrorCode, type McpServerCustomization } from '../protocol/index.js';
import type { ChannelRoute } from './host-connection.js';
import { RpcError } from '../rpc/errors.js';
import type { ChannelMatcher, ChannelRequestContext, HostChannelHandler } from './host-types.js';
import { mcpChannelMethods } from './mcp-channel-methods.js';

const MCP_SCHEME = 'mcp:';

/** The embedder's handlers for messages routed by `params.channel`, with the `mcp://` gating of AHP §8. */
export class ChannelHandlers {
  readonly #entries: { match: (channel: string) => boolean; handler: HostChannelHandler }[] = [];
  readonly #findServer: (channel: string) => McpServerCustomization | undefined;

  constructor(findServer: (channel: string) => McpServerCustomization | undefined) {
    this.#findServer = findServer;
  }

  add(match: ChannelMatcher, handler: HostChannelHandler): () => void {
    const entry = { match: typeof match === 'string' ? (channel: string) => channel.startsWith(match) : match, handler };
    this.#entries.push(entry);
    return () => {
      const at = this.#entries.indexOf(entry);
      if (at >= 0) this.#entries.splice(at, 1);
    };
  }

  /** How to serve a message on `channel`, or undefined when no handler matches. */
  route(channel: string): ChannelRoute | undefined {
    const entry = this.#entries.find((h) => h.match(channel));
    if (!entry) return undefined;
    return (method, params, { clientId, mcpApps, notification }) => {
      const ctx: ChannelRequestContext = { clientId, channel, notification };
      if (channel.startsWith(MCP_SCHEME)) {
        if (!mcpApps) throw new RpcError(ErrorCode.PermissionDenied, `${channel} needs capabilities.mcpApps in initialize`);
        const server = this.#findServer(channel);
        if (!server) throw new RpcError(ErrorCode.NotFound, `No MCP server has the channel ${channel}`);
        if (!mcpChannelMethods(server.mcpApp?.capabilities).has(method)) {
          throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method} is not served on ${channel}`);
        }
        ctx.server = server;
      }
      return entry.handler(method, params, ctx);
    };
  }
}

import { createMcpChannel, type McpChannel, type McpChannelClient } from '../client/mcp-channel.js';
import { findMcpServer } from '../reducers/customizations.js';
import type { SessionStoreLike } from '../store/types.js';

/**
 * Gives a store `mcpChannel(serverId)` over the connection's client (one cached channel per server,
 * reading the server's current `channel` and capabilities on every call). Kept out of connectSession so
 * the core entry stays small; `<ahp-session>` calls it for the connections it opens.
 */
export function attachMcpChannels<S extends SessionStoreLike>(store: S, client: McpChannelClient): S {
  const channels = new Map<string, McpChannel>();
  store.mcpChannel = (serverId: string) => {
    let channel = channels.get(serverId);
    if (!channel) {
      channel = createMcpChannel({ client, getServer: () => findMcpServer(store.getState(), serverId) });
      channels.set(serverId, channel);
    }
    return channel;
  };
  return store;
}

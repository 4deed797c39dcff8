export { HostCore } from './host-core.js';
export type {
  HostCoreOptions,
  ClientActionContext,
  ClientActionGuard,
  ClientActionReaction,
  ChannelMatcher,
  ChannelRequestContext,
  HostChannelHandler,
} from './host-core.js';
export type { HostPeer, HostConnection, HostLogger, HostRequestHandler, RequestContext } from './host-connection.js';
export { attachTransport, attachWebSocket } from './attach.js';
export type { TransportLike, ServerSocketLike } from './attach.js';
export { HostRpcError } from './host-error.js';
export { HOST_PROTOCOL_BASELINES, negotiateVersion, parseVersion } from './version-negotiation.js';
export type { Negotiation } from './version-negotiation.js';
export { mcpChannelMethods } from './mcp-channel-methods.js';
export { stripMcpAppsFromState, stripMcpAppsFromAction } from './strip-mcp-apps.js';

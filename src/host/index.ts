export { HostCore } from './host-core.js';
export type {
  HostCoreOptions,
  ClientActionContext,
  ClientActionGuard,
  ClientActionReaction,
  ChatCreatedContext,
  ChatCreatedListener,
  ChannelMatcher,
  ChannelRequestContext,
  HostChannelHandler,
} from './host-types.js';
export type { ChannelKind } from './channel-registry.js';
export type { CreateChatOptions } from './create-chat.js';
export { chatSummaryOf } from './chat-summary.js';
export type { HostPeer, HostConnection, HostLogger, HostRequestHandler, RequestContext } from './host-connection.js';
export { attachTransport, attachWebSocket, attachWebSocketServer, webSocketServerOptions, DEFAULT_MAX_FRAME_BYTES, CloseCode } from './attach.js';
export type { TransportLike, ServerSocketLike, ServerLike, AttachWebSocketOptions } from './attach.js';
export { DEFAULT_ACTION_LIMITS, actionLimitViolation } from '../protocol/action-limits.js';
export type { ActionLimits, LimitViolation } from '../protocol/action-limits.js';
export { HostRpcError } from './host-error.js';
export { HOST_PROTOCOL_BASELINES, negotiateVersion, parseVersion } from './version-negotiation.js';
export type { Negotiation } from './version-negotiation.js';
export { mcpChannelMethods } from './mcp-channel-methods.js';
export { stripMcpAppsFromState, stripMcpAppsFromAction } from './strip-mcp-apps.js';

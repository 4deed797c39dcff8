/**
 * A transport-agnostic AHP host (`ahp-elements/host`): sessions, chats, `serverSeq`, the replay log, version
 * negotiation, validation and `mcp://` routing, attached to WebSocket servers or any transport. Runs in Node.
 */
export { HostCore } from './host/host-core.js';
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
} from './host/host-types.js';
export type { ChannelKind } from './host/channel-registry.js';
export type { CreateChatOptions } from './host/create-chat.js';
export { chatSummaryOf } from './host/chat-summary.js';
export type { HostPeer, HostConnection, HostLogger, HostRequestHandler, RequestContext } from './host/host-connection.js';
export { attachTransport, attachWebSocket, attachWebSocketServer, webSocketServerOptions, DEFAULT_MAX_FRAME_BYTES, CloseCode } from './host/attach.js';
export type { Transport } from './rpc/transport.js';
export type { TransportLike, ServerSocketLike, ServerLike, AttachWebSocketOptions } from './host/attach.js';
export { DEFAULT_ACTION_LIMITS, actionLimitViolation } from './protocol/action-limits.js';
export type { ActionLimits, LimitViolation } from './protocol/action-limits.js';
export { RpcError, RpcError as HostRpcError } from './rpc/errors.js';
export { HOST_PROTOCOL_BASELINES, negotiateVersion, parseVersion } from './host/version-negotiation.js';
export type { Negotiation } from './host/version-negotiation.js';
export { mcpChannelMethods } from './host/mcp-channel-methods.js';
export { prepareJsonResult } from './host/prepared-json.js';
export { stripMcpAppsFromState, stripMcpAppsFromAction } from './host/strip-mcp-apps.js';

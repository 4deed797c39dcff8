/** Headless core: protocol types, reducers, SessionStore, AhpClient and connectSession. No DOM, no Lit. */
export * from './protocol/index.js';
export * from './reducers/index.js';
export * from './store/index.js';
// The client minus what has its own entry: `ahp-elements/testing` (in-memory transport) and
// `ahp-elements/mcp-channel` (the mcp:// side channel used by MCP Apps).
export {
  warnLogger,
  WebSocketTransport,
  deferTransport,
  JsonRpcPeer,
  RpcError,
  RpcTimeoutError,
  ConnectionClosedError,
  UnsupportedProtocolVersionError,
  ProtocolVersionMismatchError,
  AhpClient,
  normalizeReconnectResult,
  UnusableReconnectResultError,
  backoffDelay,
  connectionStateHub,
  CapabilityUnavailableError,
} from './client/index.js';
export type {
  Transport,
  Logger,
  WebSocketLike,
  WebSocketConstructorLike,
  WebSocketTransportOptions,
  JsonRpcPeerOptions,
  RequestHandler,
  NotificationHandler,
  AhpClientOptions,
  InitializeOptions,
  AuthenticateRequest,
  ReconnectOptions,
  ListSessionsResult,
  ReconnectOutcome,
  BackoffOptions,
  ConnectionState,
  ConnectionStateHub,
  SessionHandle,
  SessionCapability,
  CreateChatRequest,
  McpChannel,
  McpChannelRequestOptions,
} from './client/index.js';
export * from './connection/connect-session.js';
export * from './discovery/root-catalog.js';
// Action creators for user intents (what the elements dispatch), for headless use too.
export {
  turnStarted,
  turnCancelled,
  turnResume,
  pendingMessageRemoved,
  inputCompleted,
  toolCallApproved,
  toolCallDenied,
  toolCallResultConfirmed,
  toolCallCancelled,
  mcpServerToggled,
  mcpServerStartRequested,
  mcpServerStopRequested,
  mcpServerRestartRequested,
  toggledEnablement,
  newTurnId,
} from './intents/index.js';
export type { TurnStartedOptions, ToolCallTarget, ToolCallChoice } from './intents/index.js';

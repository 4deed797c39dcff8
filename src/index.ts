/**
 * Headless core (`ahp-elements`): `connectSession`, the `SessionStore` and its server selectors, the AHP client and
 * its errors, and the protocol's wire types. No DOM, no Lit. The store loads the chat reducers when the first chat is
 * watched, so a page that only shows servers never loads chat code. The pure reducers and the chat selectors
 * (`ahp-elements/reducers`), intent action creators, session discovery, the host, MCP Apps, OAuth, worker mode, the
 * `mcp://` channel and test helpers are their own entries.
 */

// Connecting: one call wires a client, a store and a session handle, with automatic reconnect.
export { connectSession } from './connection/connect-session.js';
export type { ConnectSessionOptions, ReconnectPolicy, SessionConnection } from './connection/connect-session.js';

// The store and its server selectors (the chat selectors are in `ahp-elements/reducers`).
export { SessionStore } from './store/session-store.js';
export type { SessionStoreOptions } from './store/session-store.js';
export type { ActionFailure, SessionStoreLike } from './store/types.js';
export { listMcpServers, selectMcpServer } from './store/selectors.js';
export type { McpServerEntry } from './store/selectors.js';

// State helpers (the pure reducers themselves are in `ahp-elements/reducers`).
export { effectiveEnabled, findMcpServer, forEachMcpServer, isMcpServer } from './reducers/customizations.js';
export type { EnablementCarrier } from './reducers/customizations.js';
export { hasStatus } from './reducers/status.js';

// The client, its transport and the errors callers can meet.
export { AhpClient } from './client/ahp-client.js';
export type { AhpClientOptions, AuthenticateRequest, InitializeOptions, ListSessionsResult, ReconnectOptions } from './client/ahp-client.js';
export { WebSocketTransport } from './client/websocket-transport.js';
export type { WebSocketConstructorLike, WebSocketLike, WebSocketTransportOptions } from './client/websocket-transport.js';
export type { Logger, Transport } from './client/transport.js';
export { ConnectionClosedError, ProtocolVersionMismatchError, RpcError, RpcTimeoutError, UnsupportedProtocolVersionError } from './client/errors.js';
export { UnusableReconnectResultError } from './client/reconnect-result.js';
export type { ReconnectOutcome } from './client/reconnect-result.js';
export type { BackoffOptions } from './client/backoff.js';
export type { ConnectionState } from './client/connection-state.js';
export { CapabilityUnavailableError } from './client/session-handle.js';
export type { CreateChatRequest, SessionCapability, SessionHandle } from './client/session-handle.js';
export type { McpChannel, McpChannelRequestOptions } from './client/mcp-channel.js';

// The protocol: constants and wire types (AHP 1.1).
export { ErrorCode } from './protocol/json-rpc.js';
export type {
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
} from './protocol/json-rpc.js';
export type {
  ContentRef,
  ErrorInfo,
  FileEdit,
  FileEditCollection,
  Icon,
  JsonPrimitive,
  Open,
  ProtectedResourceMetadata,
  StringOrMarkdown,
  TextPosition,
  TextRange,
  URI,
  UsageInfo,
} from './protocol/common.js';
export type {
  AgentCustomization,
  AhpMcpUiHostCapabilities,
  ChildCustomization,
  ChildCustomizationBase,
  ClientPluginCustomization,
  ContainerCustomizationBase,
  Customization,
  CustomizationBase,
  CustomizationEnablement,
  CustomizationLoadState,
  DirectoryCustomization,
  HookCustomization,
  McpAuthRequiredReason,
  McpAuthRequirement,
  McpOAuthClient,
  McpServerAuthRequiredState,
  McpServerCustomization,
  McpServerCustomizationApps,
  McpServerErrorState,
  McpServerReadyState,
  McpServerStartingState,
  McpServerState,
  McpServerStateKind,
  McpServerStoppedState,
  PluginCustomization,
  PromptCustomization,
  RuleCustomization,
  SkillCustomization,
  UnknownCustomization,
} from './protocol/customizations.js';
export type {
  ConfirmationOption,
  ToolCallAuthRequiredState,
  ToolCallBase,
  ToolCallCancellationReason,
  ToolCallCancelledState,
  ToolCallCompletedState,
  ToolCallConfirmationReason,
  ToolCallContributor,
  ToolCallParameterFields,
  ToolCallPendingConfirmationState,
  ToolCallPendingResultConfirmationState,
  ToolCallPostConfirmFields,
  ToolCallResult,
  ToolCallRiskAssessment,
  ToolCallRunningState,
  ToolCallState,
  ToolCallStatus,
  ToolCallStreamingState,
  ToolInput,
  ToolResultContent,
} from './protocol/tool-calls.js';
export { SESSION_ACTIVITY_MASK, SessionStatus } from './protocol/session.js';
export type {
  ActiveTurn,
  ChatInputOption,
  ChatInputQuestion,
  ChatInputRequest,
  ChatState,
  ChatSummary,
  Message,
  ResponsePart,
  SessionActiveClient,
  SessionInputRequest,
  SessionLifecycle,
  SessionState,
  ToolDefinition,
  Turn,
} from './protocol/session.js';
export type {
  Artifact,
  BackgroundWork,
  ChatInputAnswer,
  ChatInputAnswerValue,
  ChatInputResponse,
  PendingMessage,
  PendingMessageKind,
} from './protocol/chat-extras.js';
export type {
  AgentInfo,
  ListSessionsPage,
  ListSessionsParams,
  RootState,
  SessionAddedParams,
  SessionModelInfo,
  SessionRemovedParams,
  SessionSummary,
  SessionSummaryChangedParams,
} from './protocol/root.js';
export { isClientDispatchable } from './protocol/actions.js';
export type { AnyAction, ChatAction, RootAction, SessionAction, StateAction } from './protocol/actions.js';
export { PROTOCOL_VERSIONS } from './protocol/commands.js';
export type {
  ActionEnvelope,
  AuthenticateParams,
  AuthRequiredNotificationParams,
  BaseParams,
  ChannelRecovery,
  ChannelReplayCursor,
  ClientCapabilities,
  DispatchActionParams,
  InitializeParams,
  InitializeResult,
  ReconnectParams,
  ReconnectResult,
  Snapshot,
  SubscribeParams,
  SubscribeResult,
} from './protocol/commands.js';

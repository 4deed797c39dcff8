export { SessionStore, type SessionStoreOptions } from './session-store.js';
export { ChannelReconciler, MAX_DEFERRED, type ChannelReconcilerOptions, type ReconcilerMode } from './channel-reconciler.js';
export { listMcpServers, selectMcpServer, type McpServerEntry } from './selectors.js';
export { listToolCalls, listToolCallsOfServer, selectToolCall, type ToolCallEntry } from './tool-call-selectors.js';
export { listAuthBlockedToolCalls, listInputNeeded, type AuthBlockedToolCall } from './input-selectors.js';
export type { ActionFailure, SessionStoreLike } from './types.js';

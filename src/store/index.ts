export { SessionStore, type SessionStoreOptions } from './session-store.js';
export { listMcpServers, selectMcpServer, type McpServerEntry } from './selectors.js';
export type { ActionFailure, ConnectionState, SessionStoreLike } from './types.js';

/**
 * Pure state functions (`ahp-elements/reducers`): the session, chat and root reducers, the tool-call status helpers
 * and the selectors of chat state (tool calls, input requests). A `SessionStore` needs none of them from here: it loads
 * the chat reducers itself when the first chat is watched, so a page that only shows servers never loads chat code.
 * Their own entry so the headless core stays small.
 */
export { sessionReducer } from './reducers/session-reducer.js';
export { chatReducer } from './reducers/chat-reducer.js';
export { rootReducer } from './reducers/root-reducer.js';
export { isTerminal as isToolCallTerminal, needsInput as toolCallNeedsInput } from './reducers/chat-tool-calls.js';
export { listToolCalls, listToolCallsOfServer, selectToolCall } from './store/tool-call-selectors.js';
export type { ToolCallEntry } from './store/tool-call-selectors.js';
export { listAuthBlockedToolCalls, listInputNeeded } from './store/input-selectors.js';
export type { AuthBlockedToolCall } from './store/input-selectors.js';

/**
 * The chat code a SessionStore loads when the first chat is watched (src/store/chat-reducers-lazy.ts): the chat
 * reducers and the tool-call lookups its listeners need, so a page that never shows a chat loads neither.
 */
export { foldChat, reduceChat } from './chat-reducers.js';
export { changedToolCallIds, findToolCall } from './tool-call-selectors.js';

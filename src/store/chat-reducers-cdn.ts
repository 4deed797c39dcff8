/**
 * The store's chat code in the CDN build (rollup.config.mjs resolves the store's `./chat-reducers-lazy.js` here, and
 * the chunk it loads to ./chat-reducers.js): the chat reducers still load on first use, but the tool-call lookups are
 * taken straight from tool-call-selectors, which the CDN entry carries anyway (`<ahp-session>`'s sign-in lists the
 * tool calls waiting for it), instead of through the chunk.
 */
export { chatReducersLoading, foldChat, reduceChat } from './chat-reducers-lazy.js';
export { changedToolCallIds, findToolCall } from './tool-call-selectors.js';

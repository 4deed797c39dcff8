/**
 * The store's chat code in the CDN's session worker script (rollup.config.mjs resolves the store's
 * `./chat-reducers-lazy.js` here): that script is one file and cannot load a chunk later, so the chat code is there
 * from the start and a chat never waits for it.
 */
export { changedToolCallIds, findToolCall, foldChat, reduceChat } from './chat-code.js';

export const chatReducersLoading = (): undefined => undefined;

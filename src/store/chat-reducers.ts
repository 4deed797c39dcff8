import type { AnyAction } from '../protocol/actions.js';
import type { ChatState } from '../protocol/session.js';
import { foldBurst } from '../reducers/burst.js';
import { chatReducer } from '../reducers/chat-reducer.js';

/**
 * The chat code a SessionStore uses: the chat reducers and the tool-call lookups its listeners need. The store loads
 * this module on first use (src/store/chat-reducers-lazy.ts), so a page that never shows a chat never loads it.
 */
export const reduceChat = chatReducer;

export const foldChat = (state: ChatState, actions: readonly AnyAction[]): ChatState => foldBurst(chatReducer, state, actions);

export { changedToolCallIds, findToolCall } from './tool-call-selectors.js';

import type { AnyAction } from '../protocol/actions.js';
import type { ChatState } from '../protocol/session.js';
import { foldBurst } from '../reducers/burst.js';
import { chatReducer } from '../reducers/chat-reducer.js';

/**
 * The chat reducers as a SessionStore uses them, behind one module so that a build can put a module in its place that
 * loads them on first use (same three exports); the store waits for `chatReducersLoading()` before a chat holds state.
 */
export const reduceChat = chatReducer;

export const foldChat = (state: ChatState, actions: readonly AnyAction[]): ChatState => foldBurst(chatReducer, state, actions);

/** A promise while the chat reducers load, undefined once they are here (always: this module has them). */
export const chatReducersLoading = (): Promise<unknown> | undefined => undefined;

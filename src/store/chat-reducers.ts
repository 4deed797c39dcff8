import type { AnyAction } from '../protocol/actions.js';
import type { ChatState } from '../protocol/session.js';
import { foldBurst } from '../reducers/burst.js';
import { chatReducer } from '../reducers/chat-reducer.js';

/** The chat reducers as a SessionStore uses them (loaded on first use: see chat-reducers-lazy.ts). */
export const reduceChat = chatReducer;

export const foldChat = (state: ChatState, actions: readonly AnyAction[]): ChatState => foldBurst(chatReducer, state, actions);

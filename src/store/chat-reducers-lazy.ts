import type { AnyAction } from '../protocol/actions.js';
import type { ChatState } from '../protocol/session.js';

/**
 * The chat reducers loaded on first use, for the CDN build (rollup.config.mjs resolves the store's `./chat-reducers.js`
 * to this module). A SessionStore waits for `chatReducersLoading()` before a chat can hold state (its first snapshot),
 * so `reduceChat` and `foldChat` only run once the reducers are here.
 */
type ChatReducers = typeof import('./chat-reducers.js');

let loaded: ChatReducers | undefined;
let loading: Promise<ChatReducers> | undefined;

/** Undefined once the chat reducers are here; until then the promise of them (loading starts at the first call). */
export function chatReducersLoading(): Promise<unknown> | undefined {
  if (loaded) return undefined;
  return (loading ??= import('./chat-reducers.js').then(
    (reducers) => (loaded = reducers),
    (err: unknown) => {
      // A chunk that failed to load (offline, a deploy in between) is asked for again by the next chat.
      loading = undefined;
      throw err;
    },
  ));
}

function reducers(): ChatReducers {
  if (!loaded) throw new Error('ahp-elements: a chat was reduced before the chat reducers loaded');
  return loaded;
}

export const reduceChat = (state: ChatState, action: AnyAction): ChatState => reducers().reduceChat(state, action);

export const foldChat = (state: ChatState, actions: readonly AnyAction[]): ChatState => reducers().foldChat(state, actions);

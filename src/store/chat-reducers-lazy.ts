import type { AnyAction } from '../protocol/actions.js';
import type { ChatState } from '../protocol/session.js';
import type { ToolCallState } from '../protocol/tool-calls.js';

/**
 * The chat code, loaded on first use: a SessionStore imports this module, never ./chat-code.js, so the chat reducers
 * are a chunk of their own in every bundle (and a module Node loads when the first chat is watched). The store
 * waits for `chatReducersLoading()` before a chat can hold state (its first snapshot), so `reduceChat` and `foldChat`
 * only run once the code is here, and before that there is no chat state whose tool calls could be looked up.
 */
type ChatCode = typeof import('./chat-code.js');

let loaded: ChatCode | undefined;
let loading: Promise<ChatCode> | undefined;

/** Undefined once the chat reducers are here; until then the promise of them (loading starts at the first call). */
export function chatReducersLoading(): Promise<unknown> | undefined {
  if (loaded) return undefined;
  return (loading ??= import('./chat-code.js').then(
    (code) => (loaded = code),
    (err: unknown) => {
      // A chunk that failed to load (offline, a deploy in between) is asked for again by the next chat.
      loading = undefined;
      throw err;
    },
  ));
}

// The store never reduces a chat before `chatReducersLoading()` said the code is here (see above).
export const reduceChat = (state: ChatState, action: AnyAction): ChatState => loaded!.reduceChat(state, action);

export const foldChat = (state: ChatState, actions: readonly AnyAction[]): ChatState => loaded!.foldChat(state, actions);

export const findToolCall = (state: ChatState | undefined, toolCallId: string): ToolCallState | undefined => loaded?.findToolCall(state, toolCallId);

export const changedToolCallIds = (prev: ChatState | undefined, next: ChatState | undefined): Set<string> | undefined => loaded?.changedToolCallIds(prev, next);

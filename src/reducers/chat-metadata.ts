import type { ChatState } from '../protocol/session.js';
import { indexBy, isAbsent, isRecord, isString, removeAt, replaceAt, withKey, type Rec } from './guards.js';

// The chat's working directories change as the session's do (one copy of the code, in the session reducers).
export { workingDirectorySet, workingDirectoryRemoved } from './session-collections.js';

/** `chat/backgroundWorkSet`: upserts the entry by `id` (creates the list). */
export function backgroundWorkSet(state: ChatState, a: Rec): ChatState {
  const work = a.work;
  if (!isRecord(work) || !isString(work.id) || !isString(work.kind)) return state;
  const list = Array.isArray(state.backgroundWork) ? state.backgroundWork : [];
  const at = indexBy(list, 'id', work.id);
  if (list[at] === work) return state;
  const entry = work as NonNullable<ChatState['backgroundWork']>[number];
  return { ...state, backgroundWork: at < 0 ? [...list, entry] : replaceAt(list, at, entry) };
}

/** `chat/backgroundWorkRemoved`: removes the entry; an unknown id is a no-op. An empty list stays: no work is running. */
export function backgroundWorkRemoved(state: ChatState, a: Rec): ChatState {
  const list = state.backgroundWork;
  const at = Array.isArray(list) && isString(a.id) ? indexBy(list, 'id', a.id) : -1;
  return at < 0 || !list ? state : { ...state, backgroundWork: removeAt(list, at) };
}

/** `chat/movableChanged`: whether `moveChat` may move this chat. */
export function movableChanged(state: ChatState, a: Rec): ChatState {
  if (typeof a.movable !== 'boolean' || state.movable === a.movable) return state;
  return { ...state, movable: a.movable };
}

/** A full-replacement list field (`changesets`, `canvases`): set, or deleted when the action carries none. */
export const replaceList = (field: 'changesets' | 'canvases') => (state: ChatState, a: Rec): ChatState => {
  const value = a[field];
  if (!isAbsent(value) && !Array.isArray(value)) return state;
  const next = value ?? undefined;
  if (state[field] === next && (next !== undefined || !(field in state))) return state;
  return withKey(state, field, next);
};

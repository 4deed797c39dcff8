import type { ChatSummary, SessionState } from '../protocol/session.js';
import { indexBy, isRecord, isString, isStringArray, removeAt, replaceAt, type Rec } from './guards.js';

const chatsOf = (state: SessionState): ChatSummary[] => (Array.isArray(state.chats) ? state.chats : []);

/** `session/chatAdded`: upsert by `summary.resource` (append if new). */
export function chatAdded(state: SessionState, a: Rec): SessionState {
  const summary = a.summary;
  if (!isRecord(summary) || !isString(summary.resource)) return state;
  const chats = chatsOf(state);
  const at = indexBy(chats, 'resource', summary.resource);
  const s = summary as unknown as ChatSummary;
  if (chats[at] === s) return state;
  return { ...state, chats: at < 0 ? [...chats, s] : replaceAt(chats, at, s) };
}

/** `session/chatRemoved`: remove, clearing `defaultChat` when it pointed there. */
export function chatRemoved(state: SessionState, a: Rec): SessionState {
  const chats = chatsOf(state);
  const at = isString(a.chat) ? indexBy(chats, 'resource', a.chat) : -1;
  if (at < 0) return state;
  const next: SessionState = { ...state, chats: removeAt(chats, at) };
  if (state.defaultChat === a.chat) delete next.defaultChat;
  return next;
}

/** `session/chatUpdated`: shallow-merge `changes` (minus `resource`) into the entry. */
export function chatUpdated(state: SessionState, a: Rec): SessionState {
  const chats = chatsOf(state);
  const at = isString(a.chat) && isRecord(a.changes) ? indexBy(chats, 'resource', a.chat) : -1;
  const entry = chats[at];
  if (!entry || !isRecord(a.changes)) return state;
  const { resource: _ignored, ...changes } = a.changes;
  return { ...state, chats: replaceAt(chats, at, { ...entry, ...changes }) };
}

/**
 * `session/chatsReordered`: the listed chats (in their current relative order) move as one block
 * to the start, the end, or before/after an anchor chat; a missing anchor or unknown kind means the end.
 */
export function chatsReordered(state: SessionState, a: Rec): SessionState {
  const chats = chatsOf(state);
  if (!isStringArray(a.chats)) return state;
  const wanted = new Set(a.chats);
  const moving = chats.filter((c) => isRecord(c) && wanted.has(c.resource));
  if (moving.length === 0) return state;
  const rest = chats.filter((c) => !moving.includes(c));
  const dest = isRecord(a.destination) ? a.destination : {};
  const anchor = dest.chat ?? dest.anchor;
  let at = rest.length;
  if (dest.kind === 'start') at = 0;
  else if ((dest.kind === 'before' || dest.kind === 'after') && isString(anchor)) {
    const i = indexBy(rest, 'resource', anchor);
    if (i >= 0) at = dest.kind === 'before' ? i : i + 1;
  }
  const next = [...rest.slice(0, at), ...moving, ...rest.slice(at)];
  return next.every((c, i) => c === chats[i]) ? state : { ...state, chats: next };
}

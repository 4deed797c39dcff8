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
 * `session/chatsReordered`: `chats` is the complete resulting order (authoritative; a `destination` that
 * rides along is informational). It applies only when it names every chat of the catalogue exactly once;
 * an incomplete list, an unknown URI or a duplicate is a no-op, as is an order that moves nothing.
 */
export function chatsReordered(state: SessionState, a: Rec): SessionState {
  const chats = chatsOf(state);
  if (!isStringArray(a.chats) || a.chats.length !== chats.length) return state;
  const byUri = new Map<unknown, ChatSummary>();
  for (const c of chats) if (isRecord(c)) byUri.set(c.resource, c);
  if (byUri.size !== chats.length) return state;
  const next: ChatSummary[] = [];
  for (const uri of a.chats) {
    const c = byUri.get(uri);
    if (!c) return state;
    byUri.delete(uri);
    next.push(c);
  }
  return next.every((c, i) => c === chats[i]) ? state : { ...state, chats: next };
}

import type { ChatState, Message } from '../protocol/session.js';
import type { PendingMessage } from '../protocol/chat-extras.js';
import { indexBy, isAbsent, isRecord, isString, isStringArray, replaceAt, withKey, type Rec } from './guards.js';

const isMessage = (m: unknown): m is Message => isRecord(m) && isString(m.text);

/**
 * `chat/pendingMessageSet`: `steering` replaces the one steering message; `queued` upserts by id
 * (appended when new). Unknown kinds, a missing id or a message without text are no-ops.
 */
export function pendingMessageSet(state: ChatState, a: Rec): ChatState {
  if (!isString(a.id) || !isMessage(a.message)) return state;
  const entry: PendingMessage = { id: a.id, message: a.message };
  if (a.kind === 'steering') return { ...state, steeringMessage: entry };
  if (a.kind !== 'queued') return state;
  const queue = Array.isArray(state.queuedMessages) ? state.queuedMessages : [];
  const at = indexBy(queue, 'id', a.id);
  return { ...state, queuedMessages: at < 0 ? [...queue, entry] : replaceAt(queue, at, entry) };
}

/** `chat/pendingMessageRemoved`: removes the steering message or a queued one by id (the key goes when nothing is left). */
export function pendingMessageRemoved(state: ChatState, a: Rec): ChatState {
  if (!isString(a.id)) return state;
  if (a.kind === 'steering') {
    return isRecord(state.steeringMessage) && state.steeringMessage.id === a.id ? withKey(state, 'steeringMessage', undefined) : state;
  }
  if (a.kind !== 'queued' || !Array.isArray(state.queuedMessages)) return state;
  const rest = state.queuedMessages.filter((m: unknown) => !(isRecord(m) && m.id === a.id));
  if (rest.length === state.queuedMessages.length) return state;
  return withKey(state, 'queuedMessages', rest.length > 0 ? rest : undefined);
}

/**
 * `chat/queuedMessagesReordered`: the queue takes the order of `order`; unknown and repeated ids are
 * ignored and messages `order` leaves out keep their relative order after the named ones, so a client
 * with a stale view never drops a message.
 */
export function queuedMessagesReordered(state: ChatState, a: Rec): ChatState {
  const queue = state.queuedMessages;
  if (!Array.isArray(queue) || !isStringArray(a.order)) return state;
  const byId = new Map<string, PendingMessage>();
  for (const m of queue) if (isRecord(m) && isString(m.id) && !byId.has(m.id)) byId.set(m.id, m);
  const placed = new Set<unknown>();
  const next: PendingMessage[] = [];
  for (const id of a.order) {
    const m = byId.get(id);
    if (m && !placed.has(m)) {
      placed.add(m);
      next.push(m);
    }
  }
  for (const m of queue) if (!placed.has(m)) next.push(m);
  return next.every((m, i) => m === queue[i]) ? state : { ...state, queuedMessages: next };
}

/** `chat/draftChanged`: sets the shared draft, or clears it when `draft` is absent. */
export function draftChanged(state: ChatState, a: Rec): ChatState {
  if (!isAbsent(a.draft) && !isMessage(a.draft)) return state;
  const draft = a.draft ?? undefined;
  if (state.draft === draft && (draft !== undefined || !('draft' in state))) return state;
  return withKey(state, 'draft', draft);
}

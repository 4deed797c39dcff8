import type { ActiveTurn, ChatState, ResponsePart, Turn } from '../protocol/session.js';
import { SessionStatus } from '../protocol/session.js';
import { editable, editableList, own } from './burst.js';
import { forceCancel, needsInput, startToolCall, type ToolCallTransition } from './chat-tool-calls.js';
import { isRecord, isString, type Rec } from './guards.js';
import { withActivity, withStatusFlag } from './status.js';

/** The active turn when `turnId` names it, else undefined. */
const activeTurnFor = (state: ChatState, turnId: unknown): ActiveTurn | undefined =>
  isRecord(state.activeTurn) && isString(turnId) && state.activeTurn.id === turnId ? state.activeTurn : undefined;

const isOpenInputRequest = (p: unknown): boolean => isRecord(p) && p.kind === 'inputRequest' && p.response === undefined;
const toolCallOf = (p: unknown): Rec | undefined => (isRecord(p) && p.kind === 'toolCall' && isRecord(p.toolCall) ? p.toolCall : undefined);

/** Activity bits from the active turn: InputNeeded when something waits for the user, else InProgress, else Idle. */
export function recomputeChatStatus(state: ChatState): ChatState {
  const parts = Array.isArray(state.activeTurn?.responseParts) ? state.activeTurn.responseParts : [];
  const activity = parts.some((p) => isOpenInputRequest(p) || needsInput(toolCallOf(p)))
    ? SessionStatus.InputNeeded
    : state.activeTurn
      ? SessionStatus.InProgress
      : SessionStatus.Idle;
  const status = withActivity(state.status, activity);
  return status === state.status ? state : { ...state, status };
}

/** The state with the active turn's parts replaced (written in place when this burst owns them, see burst.ts). */
function withActiveTurn(state: ChatState, turn: ActiveTurn, parts: ResponsePart[]): ChatState {
  const nextTurn = editable(turn);
  nextTurn.responseParts = parts;
  const next = editable(state);
  next.activeTurn = nextTurn;
  return next;
}

/** A copy of `parts` (or `parts` itself when owned) with the entry at `at` replaced. */
function partsWith(parts: readonly ResponsePart[], at: number, part: ResponsePart): ResponsePart[] {
  const next = editableList(parts);
  next[at] = part;
  return next;
}

/** A copy of `parts` (or `parts` itself when owned) with `part` appended. */
function partsPlus(parts: readonly ResponsePart[], part: ResponsePart): ResponsePart[] {
  const next = editableList(parts);
  next.push(part);
  return next;
}

/** `chat/turnStarted`: no-op while any turn is active or when the id already ended. */
export function turnStarted(state: ChatState, a: Rec): ChatState {
  if (!isString(a.turnId) || !isString(a.startedAt) || !isRecord(a.message) || !isString(a.message.text)) return state;
  if (state.activeTurn !== undefined) return state;
  const turns = Array.isArray(state.turns) ? state.turns : [];
  if (turns.some((t) => isRecord(t) && t.id === a.turnId)) return state;
  const activeTurn: ActiveTurn = { id: a.turnId, startedAt: a.startedAt, message: a.message as unknown as ActiveTurn['message'], responseParts: [], usage: undefined };
  const next: ChatState = {
    ...state,
    activeTurn,
    modifiedAt: a.startedAt,
    status: withActivity(withStatusFlag(state.status, SessionStatus.IsRead, false), SessionStatus.InProgress),
  };
  if (isString(a.queuedMessageId)) consumePendingMessage(next, a.queuedMessageId);
  return next;
}

/** Removes the steering or queued message the new turn consumed (mutates the fresh copy). */
function consumePendingMessage(next: ChatState, id: string): void {
  if (isRecord(next.steeringMessage) && next.steeringMessage.id === id) {
    delete next.steeringMessage;
    return;
  }
  const queued = next.queuedMessages;
  if (!Array.isArray(queued)) return;
  const rest = queued.filter((m: unknown) => !(isRecord(m) && m.id === id));
  if (rest.length === queued.length) return;
  if (rest.length > 0) next.queuedMessages = rest;
  else delete next.queuedMessages;
}

/** Index of the first part of this kind with this id (plain loops: these run once per streamed chunk). */
function partIndex(parts: readonly unknown[], kind: string, id: string): number {
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (isRecord(p) && p.kind === kind && p.id === id) return i;
  }
  return -1;
}

/** Index of the first tool-call part whose tool call has this id. */
function toolCallIndex(parts: readonly unknown[], id: string): number {
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    // The id first: it rules out every other part with two loads (parts are JSON, reading a key has no effect).
    if ((p as { toolCall?: { toolCallId?: unknown } } | undefined)?.toolCall?.toolCallId === id && isRecord(p) && p.kind === 'toolCall' && isRecord(p.toolCall)) return i;
  }
  return -1;
}

/** `chat/delta` and `chat/reasoning`: grow the markdown/reasoning part with that id. */
export const growPart = (kind: 'markdown' | 'reasoning') => (state: ChatState, a: Rec): ChatState => {
  const turn = activeTurnFor(state, a.turnId);
  if (!turn || !isString(a.partId) || !isString(a.content)) return state;
  const at = partIndex(turn.responseParts, kind, a.partId);
  const part = turn.responseParts[at] as { content?: unknown } | undefined;
  if (!part) return state;
  const content = (isString(part.content) ? part.content : '') + a.content;
  const grown = editable(part);
  grown.content = content;
  return withActiveTurn(state, turn, partsWith(turn.responseParts, at, grown as ResponsePart));
};

/** `chat/responsePart`: appends a part (error parts only come through `chat/error`; tool calls only through toolCallStart). */
export function responsePart(state: ChatState, a: Rec): ChatState {
  const turn = activeTurnFor(state, a.turnId);
  const part = a.part;
  if (!turn || !isRecord(part) || !isString(part.kind) || part.kind === 'error' || part.kind === 'toolCall') return state;
  return recomputeChatStatus(withActiveTurn(state, turn, partsPlus(turn.responseParts, part as unknown as ResponsePart)));
}

/** `chat/usage`. */
export function usage(state: ChatState, a: Rec): ChatState {
  const turn = activeTurnFor(state, a.turnId);
  if (!turn || !isRecord(a.usage)) return state;
  return { ...state, activeTurn: { ...turn, usage: a.usage } };
}

/** `chat/toolCallStart`: appends a streaming tool call part (not deduplicated, as upstream). */
export function toolCallStart(state: ChatState, a: Rec): ChatState {
  const turn = activeTurnFor(state, a.turnId);
  const toolCall = turn && startToolCall(a);
  if (!turn || !toolCall) return state;
  const part = own({ kind: 'toolCall', toolCall }) as unknown as ResponsePart;
  return withActiveTurn(state, turn, partsPlus(turn.responseParts, part));
}

/** Wraps a tool-call transition: finds the part by turnId + toolCallId, applies it, replaces `_meta` if given, recomputes status. */
export const onToolCall = (transition: ToolCallTransition) => (state: ChatState, a: Rec): ChatState => {
  const turn = activeTurnFor(state, a.turnId);
  if (!turn || !isString(a.toolCallId)) return state;
  const at = toolCallIndex(turn.responseParts, a.toolCallId);
  const tc = toolCallOf(turn.responseParts[at]);
  if (!tc) return state;
  let next = transition(tc, a);
  if (next === tc) return state;
  if (isRecord(a._meta)) next = { ...next, _meta: a._meta };
  const part = editable(turn.responseParts[at] as unknown as Rec);
  part.toolCall = next;
  const updated = withActiveTurn(state, turn, partsWith(turn.responseParts, at, part as unknown as ResponsePart));
  // Only a tool call that starts or stops waiting for the user can move the activity bits; skipping the scan of every part keeps deltas O(1).
  return needsInput(tc) === needsInput(next) ? updated : recomputeChatStatus(updated);
};

function endTime(startedAt: string, duration: number): string | undefined {
  const start = Date.parse(startedAt);
  return Number.isFinite(start) ? new Date(start + duration).toISOString() : undefined;
}

/** `chat/turnComplete`, `chat/turnCancelled`, `chat/error`: moves the active turn into `turns`, force-cancelling open tool calls. */
export const endTurn = (outcome: Turn['state']) => (state: ChatState, a: Rec): ChatState => {
  const turn = activeTurnFor(state, a.turnId);
  if (!turn || typeof a.duration !== 'number' || !Number.isFinite(a.duration)) return state;
  let parts = turn.responseParts.map((p) => {
    const tc = toolCallOf(p);
    const closed = tc && forceCancel(tc);
    return closed && closed !== tc ? ({ ...(p as object), toolCall: closed } as unknown as ResponsePart) : p;
  });
  if (outcome === 'error') {
    if (!isRecord(a.part) || a.part.kind !== 'error' || !isRecord(a.part.error)) return state;
    parts = [...parts, a.part as unknown as ResponsePart];
  }
  const duration = Math.max(0, a.duration);
  const ended: Turn = { id: turn.id, startedAt: turn.startedAt, duration, message: turn.message, responseParts: parts, usage: turn.usage, state: outcome };
  const { activeTurn: _done, ...rest } = state;
  const next: ChatState = {
    ...rest,
    turns: [...(Array.isArray(state.turns) ? state.turns : []), ended],
    status: withActivity(state.status, outcome === 'error' ? SessionStatus.Error : SessionStatus.Idle),
  };
  const modifiedAt = endTime(turn.startedAt, duration);
  if (modifiedAt) next.modifiedAt = modifiedAt;
  return next;
};

import type { ActiveTurn, ChatState, ResponsePart, Turn } from '../protocol/session.js';
import { SessionStatus } from '../protocol/session.js';
import { forceCancel, needsInput, startToolCall, type ToolCallTransition } from './chat-tool-calls.js';
import { isRecord, isString, replaceAt, type Rec } from './guards.js';
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

function withActiveTurn(state: ChatState, turn: ActiveTurn, parts: ResponsePart[]): ChatState {
  return { ...state, activeTurn: { ...turn, responseParts: parts } };
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

/** `chat/delta` and `chat/reasoning`: grow the markdown/reasoning part with that id. */
export const growPart = (kind: 'markdown' | 'reasoning') => (state: ChatState, a: Rec): ChatState => {
  const turn = activeTurnFor(state, a.turnId);
  if (!turn || !isString(a.partId) || !isString(a.content)) return state;
  const at = turn.responseParts.findIndex((p) => isRecord(p) && p.kind === kind && (p as { id?: unknown }).id === a.partId);
  const part = turn.responseParts[at] as { content?: unknown } | undefined;
  if (!part) return state;
  const content = (isString(part.content) ? part.content : '') + a.content;
  return withActiveTurn(state, turn, replaceAt(turn.responseParts, at, { ...part, content } as ResponsePart));
};

/** `chat/responsePart`: appends a part (error parts only come through `chat/error`; tool calls only through toolCallStart). */
export function responsePart(state: ChatState, a: Rec): ChatState {
  const turn = activeTurnFor(state, a.turnId);
  const part = a.part;
  if (!turn || !isRecord(part) || !isString(part.kind) || part.kind === 'error' || part.kind === 'toolCall') return state;
  return recomputeChatStatus(withActiveTurn(state, turn, [...turn.responseParts, part as unknown as ResponsePart]));
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
  return withActiveTurn(state, turn, [...turn.responseParts, { kind: 'toolCall', toolCall } as unknown as ResponsePart]);
}

/** Wraps a tool-call transition: finds the part by turnId + toolCallId, applies it, replaces `_meta` if given, recomputes status. */
export const onToolCall = (transition: ToolCallTransition) => (state: ChatState, a: Rec): ChatState => {
  const turn = activeTurnFor(state, a.turnId);
  if (!turn || !isString(a.toolCallId)) return state;
  const at = turn.responseParts.findIndex((p) => toolCallOf(p)?.toolCallId === a.toolCallId);
  const tc = toolCallOf(turn.responseParts[at]);
  if (!tc) return state;
  let next = transition(tc, a);
  if (next === tc) return state;
  if (isRecord(a._meta)) next = { ...next, _meta: a._meta };
  const part = { ...(turn.responseParts[at] as object), toolCall: next } as unknown as ResponsePart;
  return recomputeChatStatus(withActiveTurn(state, turn, replaceAt(turn.responseParts, at, part)));
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

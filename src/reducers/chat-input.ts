import { SessionStatus, type ActiveTurn, type ChatState, type ResponsePart } from '../protocol/session.js';
import { recomputeChatStatus } from './chat-turns.js';
import { isAbsent, isRecord, isString, replaceAt, withKey, type Rec } from './guards.js';
import { withStatusFlag } from './status.js';

/** Index of the still-open `inputRequest` part (no `response` yet) for this request id in the active turn. */
function openRequestAt(turn: ActiveTurn, requestId: unknown): number {
  if (!isString(requestId) || !Array.isArray(turn.responseParts)) return -1;
  return turn.responseParts.findIndex((p) => {
    const part = p as Rec;
    return isRecord(part) && part.kind === 'inputRequest' && part.response === undefined && isRecord(part.request) && part.request.id === requestId;
  });
}

const withPart = (state: ChatState, turn: ActiveTurn, at: number, part: Rec): ChatState =>
  ({ ...state, activeTurn: { ...turn, responseParts: replaceAt(turn.responseParts, at, part as unknown as ResponsePart) } });

/**
 * `chat/inputRequested`: the agent asks the user. Adds an `inputRequest` part to the active turn, or
 * replaces the open one with the same id (keeping its draft answers unless the new request carries
 * its own). Raises InputNeeded and clears IsRead. No active turn → no-op.
 */
export function inputRequested(state: ChatState, a: Rec): ChatState {
  const turn = state.activeTurn;
  const request = a.request;
  if (!isRecord(turn) || !Array.isArray(turn.responseParts) || !isRecord(request) || !isString(request.id)) return state;
  const at = openRequestAt(turn, request.id);
  let next: ChatState;
  if (at < 0) {
    next = { ...state, activeTurn: { ...turn, responseParts: [...turn.responseParts, { kind: 'inputRequest', request } as unknown as ResponsePart] } };
  } else {
    const old = (turn.responseParts[at] as unknown as { request: Rec }).request;
    const answers = request.answers ?? old.answers;
    next = withPart(state, turn, at, { kind: 'inputRequest', request: withKey(request, 'answers', answers) });
  }
  next = recomputeChatStatus(next);
  const status = withStatusFlag(next.status, SessionStatus.IsRead, false);
  return status === next.status ? next : { ...next, status };
}

/** `chat/inputAnswerChanged`: sets (or, without `answer`, removes) one question's draft answer on an open request. */
export function inputAnswerChanged(state: ChatState, a: Rec): ChatState {
  const turn = state.activeTurn;
  if (!isRecord(turn) || !isString(a.questionId) || !(isAbsent(a.answer) || isRecord(a.answer))) return state;
  const at = openRequestAt(turn, a.requestId);
  if (at < 0) return state;
  const part = turn.responseParts[at] as unknown as Rec & { request: Rec };
  const answers: Rec = { ...(isRecord(part.request.answers) ? part.request.answers : {}) };
  if (isAbsent(a.answer)) {
    if (!(a.questionId in answers)) return state;
    delete answers[a.questionId];
  } else {
    answers[a.questionId] = a.answer;
  }
  const request = withKey(part.request, 'answers', Object.keys(answers).length > 0 ? answers : undefined);
  return withPart(state, turn, at, { ...part, request });
}

/**
 * `chat/inputCompleted`: merges the final `answers` into the open request and records `response`
 * (`accept`, `decline`, `cancel`), which closes it; the status is recomputed. Without a `response` the
 * answers are merged and the request stays open (as upstream).
 */
export function inputCompleted(state: ChatState, a: Rec): ChatState {
  const turn = state.activeTurn;
  if (!isRecord(turn) || !(isAbsent(a.response) || isString(a.response)) || !(isAbsent(a.answers) || isRecord(a.answers))) return state;
  const at = openRequestAt(turn, a.requestId);
  if (at < 0) return state;
  const part = turn.responseParts[at] as unknown as Rec & { request: Rec };
  const answers = { ...(isRecord(part.request.answers) ? part.request.answers : {}), ...(isRecord(a.answers) ? a.answers : {}) };
  const completed: Rec = { ...part, request: withKey(part.request, 'answers', Object.keys(answers).length > 0 ? answers : undefined) };
  if (isString(a.response)) completed.response = a.response;
  return recomputeChatStatus(withPart(state, turn, at, completed));
}

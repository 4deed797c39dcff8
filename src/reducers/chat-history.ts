import { SessionStatus, type ActiveTurn, type ChatState, type Turn } from '../protocol/session.js';
import { recomputeChatStatus } from './chat-turns.js';
import { indexBy, isAbsent, isRecord, isString, withKey, type Rec } from './guards.js';
import { withStatusFlag } from './status.js';

const TURN_STATES: ReadonlySet<unknown> = new Set(['complete', 'cancelled', 'error']);

/** A finished turn as the reducers and renderers expect it. */
const isTurn = (t: unknown): t is Turn =>
  isRecord(t) && isString(t.id) && TURN_STATES.has(t.state) && Array.isArray(t.responseParts) && isRecord(t.message);

const turnsOf = (state: ChatState): Turn[] => (Array.isArray(state.turns) ? state.turns : []);

/**
 * `chat/truncated`: without `turnId` every turn goes (and with them the paging cursor: nothing older is
 * left); with it, the turns after that one go. The active turn is dropped either way and the status
 * returns to Idle. An unknown `turnId` (or an explicit null) is a no-op.
 */
export function truncated(state: ChatState, a: Rec): ChatState {
  const all = !('turnId' in a) || a.turnId === undefined;
  const turns = turnsOf(state);
  let kept: Turn[];
  if (all) kept = turns.length === 0 ? turns : [];
  else {
    const at = isString(a.turnId) ? indexBy(turns, 'id', a.turnId) : -1;
    if (at < 0) return state;
    kept = at === turns.length - 1 ? turns : turns.slice(0, at + 1);
  }
  if (kept === turns && state.activeTurn === undefined && !('activeTurn' in state) && !(all && 'turnsNextCursor' in state)) return state;
  const next: ChatState = { ...state, turns: kept };
  delete next.activeTurn;
  if (all) delete next.turnsNextCursor;
  return recomputeChatStatus(next);
}

/**
 * `chat/turnsLoaded`: older turns (oldest first) are prepended, skipping ids the chat already holds (the
 * active turn's included) and entries that are not well-formed turns; `turnsNextCursor` is replaced (absent: no older turns left).
 */
export function turnsLoaded(state: ChatState, a: Rec): ChatState {
  if (!Array.isArray(a.turns) || !(isAbsent(a.turnsNextCursor) || isString(a.turnsNextCursor))) return state;
  const turns = turnsOf(state);
  const seen = new Set<string>(turns.map((t) => t.id));
  // An older page can never hold the running turn; upstream only dedupes against `turns`.
  if (isRecord(state.activeTurn) && isString(state.activeTurn.id)) seen.add(state.activeTurn.id);
  const older: Turn[] = [];
  for (const t of a.turns) {
    if (!isTurn(t) || seen.has(t.id)) continue;
    seen.add(t.id);
    older.push(t);
  }
  const cursor = a.turnsNextCursor ?? undefined;
  if (older.length === 0 && state.turnsNextCursor === cursor && (cursor !== undefined || !('turnsNextCursor' in state))) return state;
  return withKey({ ...state, turns: older.length > 0 ? [...older, ...turns] : turns }, 'turnsNextCursor', cursor);
}

/** True when the turn's last part is an error that says it can be resumed. */
export function isResumable(turn: unknown): boolean {
  if (!isRecord(turn) || turn.state !== 'error' || !Array.isArray(turn.responseParts)) return false;
  const last = turn.responseParts[turn.responseParts.length - 1];
  return isRecord(last) && last.kind === 'error' && last.resumable === true;
}

/**
 * `chat/turnResume`: reopens the latest turn when it ended in a resumable error and nothing else runs;
 * its parts (the error included) carry over into the active turn. InProgress, IsRead cleared.
 */
export function turnResume(state: ChatState, a: Rec): ChatState {
  if (state.activeTurn !== undefined || !isString(a.turnId)) return state;
  const turns = turnsOf(state);
  const last = turns[turns.length - 1];
  if (!last || last.id !== a.turnId || !isResumable(last) || !isRecord(last.message)) return state;
  const startedAt = isString(last.startedAt) ? last.startedAt : state.modifiedAt;
  const activeTurn: ActiveTurn = { id: last.id, startedAt, message: last.message, responseParts: last.responseParts, usage: last.usage };
  const next = recomputeChatStatus({ ...state, turns: turns.slice(0, -1), activeTurn });
  return { ...next, status: withStatusFlag(next.status, SessionStatus.IsRead, false) };
}

import type { AnyAction, StateAction } from '../protocol/actions.js';
import { SessionStatus, type ChatState } from '../protocol/session.js';
import * as tc from './chat-tool-calls.js';
import * as turns from './chat-turns.js';
import * as history from './chat-history.js';
import * as input from './chat-input.js';
import * as meta from './chat-metadata.js';
import * as pending from './chat-pending.js';
import { isAbsent, isString, tableReducer, withKey, type Rec } from './guards.js';
import { withStatusFlag } from './status.js';

type Handler = (state: ChatState, action: Rec) => ChatState;

const setFlag = (flag: number, field: string): Handler => (state, a) => {
  if (typeof a[field] !== 'boolean') return state;
  const status = withStatusFlag(state.status, flag, a[field] as boolean);
  return status === state.status ? state : { ...state, status };
};

const activityChanged: Handler = (state, a) => {
  if (!isAbsent(a.activity) && !isString(a.activity)) return state;
  const activity = a.activity ?? undefined;
  return state.activity === activity && (activity !== undefined || !('activity' in state)) ? state : withKey(state, 'activity', activity);
};

const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ['chat/turnStarted', turns.turnStarted],
  ['chat/delta', turns.growPart('markdown')],
  ['chat/reasoning', turns.growPart('reasoning')],
  ['chat/responsePart', turns.responsePart],
  ['chat/usage', turns.usage],
  ['chat/turnComplete', turns.endTurn('complete')],
  ['chat/turnCancelled', turns.endTurn('cancelled')],
  ['chat/error', turns.endTurn('error')],
  ['chat/activityChanged', activityChanged],
  ['chat/isReadChanged', setFlag(SessionStatus.IsRead, 'isRead')],
  ['chat/isArchivedChanged', setFlag(SessionStatus.IsArchived, 'isArchived')],
  ['chat/toolCallStart', turns.toolCallStart],
  ['chat/toolCallDelta', turns.onToolCall(tc.delta)],
  ['chat/toolCallReady', turns.onToolCall(tc.ready)],
  ['chat/toolCallConfirmed', turns.onToolCall(tc.confirmed)],
  ['chat/toolCallComplete', turns.onToolCall(tc.complete)],
  ['chat/toolCallResultConfirmed', turns.onToolCall(tc.resultConfirmed)],
  ['chat/toolCallContentChanged', turns.onToolCall(tc.contentChanged)],
  ['chat/toolCallAuthRequired', turns.onToolCall(tc.authRequired)],
  ['chat/toolCallAuthResolved', turns.onToolCall(tc.authResolved)],
  ['chat/turnResume', history.turnResume],
  ['chat/truncated', history.truncated],
  ['chat/turnsLoaded', history.turnsLoaded],
  ['chat/pendingMessageSet', pending.pendingMessageSet],
  ['chat/pendingMessageRemoved', pending.pendingMessageRemoved],
  ['chat/queuedMessagesReordered', pending.queuedMessagesReordered],
  ['chat/draftChanged', pending.draftChanged],
  ['chat/inputRequested', input.inputRequested],
  ['chat/inputAnswerChanged', input.inputAnswerChanged],
  ['chat/inputCompleted', input.inputCompleted],
  ['chat/workingDirectorySet', meta.workingDirectorySet],
  ['chat/workingDirectoryRemoved', meta.workingDirectoryRemoved],
  ['chat/backgroundWorkSet', meta.backgroundWorkSet],
  ['chat/backgroundWorkRemoved', meta.backgroundWorkRemoved],
  ['chat/movableChanged', meta.movableChanged],
  ['chat/changesetsChanged', meta.replaceList('changesets')],
  ['chat/canvasesChanged', meta.replaceList('canvases')],
]);
const reduce = tableReducer(HANDLERS);

/**
 * Pure, total chat reducer (AHP §6): turns, response parts and the tool-call lifecycle.
 * Unknown types, wrong turn/tool-call ids, wrong statuses and garbage return the same state.
 */
export function chatReducer(state: ChatState, action: AnyAction | StateAction): ChatState {
  return reduce(state, action);
}

/** Chat action types this reducer understands. */
export const CHAT_ACTION_TYPES: ReadonlySet<string> = /* @__PURE__ */ new Set(/* @__PURE__ */ HANDLERS.keys());

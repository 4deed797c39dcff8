import type { ErrorInfo } from '../protocol/common.js';
import { SessionStatus, type SessionState, type ToolDefinition } from '../protocol/session.js';
import { isAbsent, isRecord, isString, withKey, type Rec } from './guards.js';
import { withStatusFlag } from './status.js';

/** Sets (or, for undefined, removes) a top-level key; same state when nothing changes. */
function setKey(state: SessionState, key: keyof SessionState, value: unknown): SessionState {
  if (state[key] === value && (value !== undefined || !(key in state))) return state;
  return withKey(state, key, value);
}

function setFlag(state: SessionState, flag: number, on: unknown): SessionState {
  if (typeof on !== 'boolean') return state;
  const status = withStatusFlag(state.status, flag, on);
  return status === state.status ? state : { ...state, status };
}

/** `session/ready`: lifecycle only; status untouched. */
export const ready = (state: SessionState): SessionState => setKey(state, 'lifecycle', 'ready');

/** `session/creationFailed`. */
export function creationFailed(state: SessionState, a: Rec): SessionState {
  if (!isRecord(a.error)) return state;
  return { ...state, lifecycle: 'failed', creationError: a.error as unknown as ErrorInfo };
}

/** `session/titleChanged`. */
export const titleChanged = (state: SessionState, a: Rec): SessionState => (isString(a.title) ? setKey(state, 'title', a.title) : state);

/** `session/isReadChanged`: the IsRead bit. */
export const isReadChanged = (state: SessionState, a: Rec): SessionState => setFlag(state, SessionStatus.IsRead, a.isRead);

/** `session/isArchivedChanged`: the IsArchived bit. */
export const isArchivedChanged = (state: SessionState, a: Rec): SessionState => setFlag(state, SessionStatus.IsArchived, a.isArchived);

/** `session/activityChanged`: set, or clear when absent. */
export function activityChanged(state: SessionState, a: Rec): SessionState {
  if (!isAbsent(a.activity) && !isString(a.activity)) return state;
  return setKey(state, 'activity', a.activity ?? undefined);
}

/** `session/changesetsChanged`: replace, or delete the key when absent. */
export function changesetsChanged(state: SessionState, a: Rec): SessionState {
  if (!isAbsent(a.changesets) && !Array.isArray(a.changesets)) return state;
  return setKey(state, 'changesets', a.changesets ?? undefined);
}

/** `session/configChanged`: merge into (or replace) `config.values`; no-op without a session config. */
export function configChanged(state: SessionState, a: Rec): SessionState {
  const config = state.config;
  if (!isRecord(config) || !isRecord(a.config)) return state;
  const values = a.replace === true ? { ...a.config } : { ...(isRecord(config.values) ? config.values : {}), ...a.config };
  return { ...state, config: { ...config, values } };
}

/** `session/metaChanged`: replace `_meta`, or delete it when absent. */
export function metaChanged(state: SessionState, a: Rec): SessionState {
  if (!isAbsent(a._meta) && !isRecord(a._meta)) return state;
  return setKey(state, '_meta', a._meta ?? undefined);
}

/** `session/serverToolsChanged`: replace `serverTools`. */
export const serverToolsChanged = (state: SessionState, a: Rec): SessionState =>
  Array.isArray(a.tools) ? setKey(state, 'serverTools', a.tools as ToolDefinition[]) : state;

/** `session/defaultChatChanged`: set, or clear when absent. */
export function defaultChatChanged(state: SessionState, a: Rec): SessionState {
  if (!isAbsent(a.defaultChat) && !isString(a.defaultChat)) return state;
  return setKey(state, 'defaultChat', a.defaultChat ?? undefined);
}

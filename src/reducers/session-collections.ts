import type { SessionActiveClient, SessionInputRequest, SessionState } from '../protocol/session.js';
import { indexBy, isRecord, isString, removeAt, replaceAt, type Rec } from './guards.js';
import { withInputNeededStatus } from './status.js';

/** `session/activeClientSet`: upsert by `clientId` (whole entry). */
export function activeClientSet(state: SessionState, a: Rec): SessionState {
  const client = a.activeClient;
  if (!isRecord(client) || !isString(client.clientId)) return state;
  const list = Array.isArray(state.activeClients) ? state.activeClients : [];
  const at = indexBy(list, 'clientId', client.clientId);
  const c = client as unknown as SessionActiveClient;
  if (list[at] === c) return state;
  return { ...state, activeClients: at < 0 ? [...list, c] : replaceAt(list, at, c) };
}

/** `session/activeClientRemoved`. */
export function activeClientRemoved(state: SessionState, a: Rec): SessionState {
  const list = Array.isArray(state.activeClients) ? state.activeClients : [];
  const at = isString(a.clientId) ? indexBy(list, 'clientId', a.clientId) : -1;
  return at < 0 ? state : { ...state, activeClients: removeAt(list, at) };
}

/** The working directories of a session or a chat (both carry the list the same way). */
type WithDirectories = { workingDirectories?: string[] };

/** `session/workingDirectorySet` and `chat/workingDirectorySet`: add if absent. */
export function workingDirectorySet<S extends WithDirectories>(state: S, a: Rec): S {
  const list = Array.isArray(state.workingDirectories) ? state.workingDirectories : [];
  if (!isString(a.directory) || list.includes(a.directory)) return state;
  return { ...state, workingDirectories: [...list, a.directory] };
}

/** `session/workingDirectoryRemoved` and `chat/workingDirectoryRemoved`: remove if present. */
export function workingDirectoryRemoved<S extends WithDirectories>(state: S, a: Rec): S {
  const list = state.workingDirectories;
  const at = Array.isArray(list) && isString(a.directory) ? list.indexOf(a.directory) : -1;
  return at < 0 || !list ? state : { ...state, workingDirectories: removeAt(list, at) };
}

/**
 * `session/workingDirectoryReplaced`: compare-and-swap. The replacement takes the old slot and
 * other copies of it are dropped; if it already sits earlier, the old entry is just removed.
 */
export function workingDirectoryReplaced(state: SessionState, a: Rec): SessionState {
  const list = state.workingDirectories;
  const { directory, replacement } = a;
  if (!Array.isArray(list) || !isString(directory) || !isString(replacement)) return state;
  const at = list.indexOf(directory);
  if (at < 0 || directory === replacement) return state;
  const existing = list.indexOf(replacement);
  if (existing >= 0 && existing < at) return { ...state, workingDirectories: removeAt(list, at) };
  const next = list.flatMap((d, i) => (i === at ? [replacement] : d === replacement ? [] : [d]));
  return { ...state, workingDirectories: next };
}

/** `session/inputNeededSet`: upsert by id (creates the list) and recompute the status. */
export function inputNeededSet(state: SessionState, a: Rec): SessionState {
  const request = a.request;
  if (!isRecord(request) || !isString(request.id)) return state;
  const list = Array.isArray(state.inputNeeded) ? state.inputNeeded : [];
  const at = indexBy(list, 'id', request.id);
  const r = request as unknown as SessionInputRequest;
  const inputNeeded = at < 0 ? [...list, r] : replaceAt(list, at, r);
  return { ...state, inputNeeded, status: withInputNeededStatus(state.status, inputNeeded) };
}

/** `session/inputNeededRemoved`: remove (deleting the key when empty) and recompute the status. */
export function inputNeededRemoved(state: SessionState, a: Rec): SessionState {
  const list = state.inputNeeded;
  const at = Array.isArray(list) && isString(a.id) ? indexBy(list, 'id', a.id) : -1;
  if (at < 0 || !list) return state;
  const rest = removeAt(list, at);
  const next: SessionState = { ...state, inputNeeded: rest, status: withInputNeededStatus(state.status, rest) };
  if (rest.length === 0) delete next.inputNeeded;
  return next;
}

import type { Artifact } from '../protocol/chat-extras.js';
import type { SessionState } from '../protocol/session.js';
import { indexBy, isRecord, isString, removeAt, replaceAt, withKey, type Rec } from './guards.js';

/** `session/artifactSet` (1.1.0): upserts the artifact by `uri` (whole entry; creates the list). */
export function artifactSet(state: SessionState, a: Rec): SessionState {
  const artifact = a.artifact;
  if (!isRecord(artifact) || !isString(artifact.uri) || !isString(artifact.type)) return state;
  const list = Array.isArray(state.artifacts) ? state.artifacts : [];
  const at = indexBy(list, 'uri', artifact.uri);
  if (list[at] === artifact) return state;
  const entry = artifact as Artifact;
  return { ...state, artifacts: at < 0 ? [...list, entry] : replaceAt(list, at, entry) };
}

/** `session/artifactRemoved` (1.1.0): removes the artifact with this `uri` (the key goes with the last one); unknown → no-op. */
export function artifactRemoved(state: SessionState, a: Rec): SessionState {
  const list = state.artifacts;
  const at = Array.isArray(list) && isString(a.uri) ? indexBy(list, 'uri', a.uri) : -1;
  if (at < 0 || !list) return state;
  const rest = removeAt(list, at);
  return withKey(state, 'artifacts', rest.length > 0 ? rest : undefined);
}

import type { Customization, CustomizationEnablement, McpServerCustomization } from '../protocol/customizations.js';
import type { SessionState } from '../protocol/session.js';
import { chunksOf } from './customization-chunks.js';
import { slotsOfList } from './customization-index.js';
import { updateMcpServer } from './customizations.js';
import { indexBy, isAbsent, isRecord, isString, removeAt, replaceAt, withKey, type Rec } from './guards.js';

function isWellFormedEntry(c: unknown): boolean {
  if (!isRecord(c) || !isString(c.id) || !isString(c.type)) return false;
  return c.type !== 'mcpServer' || (isRecord(c.state) && isString(c.state.kind));
}

/** An entry the selectors and reducers can walk: ids and types are strings, servers have a state, children form an array. */
function isWellFormedCustomization(c: unknown): boolean {
  if (!isWellFormedEntry(c)) return false;
  const children = (c as Rec).children;
  return children === undefined || (Array.isArray(children) && children.every(isWellFormedEntry));
}

/** `session/customizationsChanged`: full replacement of the list. */
export function customizationsChanged(state: SessionState, a: Rec): SessionState {
  const list = a.customizations;
  if (!Array.isArray(list) || list === state.customizations || !list.every(isWellFormedCustomization)) return state;
  return { ...state, customizations: list as Customization[] };
}

/** `session/customizationUpdated`: upsert a top-level entry by id (whole entry, children included). */
export function customizationUpdated(state: SessionState, a: Rec): SessionState {
  const c = a.customization;
  if (!isWellFormedCustomization(c) || !isRecord(c)) return state;
  const list: unknown[] = Array.isArray(state.customizations) ? state.customizations : [];
  const at = indexBy(list, 'id', c.id);
  if (list[at] === c) return state;
  const next = at < 0 ? [...list, c] : replaceAt(list, at, c);
  return { ...state, customizations: next as Customization[] };
}

/** `session/customizationRemoved`: a top-level entry (with its children), else a matching child. */
export function customizationRemoved(state: SessionState, a: Rec): SessionState {
  const list: unknown = state.customizations;
  if (!Array.isArray(list) || !isString(a.id)) return state;
  const top = indexBy(list, 'id', a.id);
  if (top >= 0) return { ...state, customizations: removeAt(list as Customization[], top) };
  let changed = false;
  const next = list.map((c: unknown) => {
    if (!isRecord(c) || c.type === 'mcpServer' || !Array.isArray(c.children)) return c;
    const at = indexBy(c.children, 'id', a.id);
    if (at < 0) return c;
    changed = true;
    return { ...c, children: removeAt(c.children, at) };
  });
  return changed ? { ...state, customizations: next as Customization[] } : state;
}

/** A well-formed enablement decision. */
export const isEnablement = (e: unknown): e is CustomizationEnablement =>
  isRecord(e) && isString(e.kind) && typeof e.enabled === 'boolean';

/**
 * Plugins and MCP servers carry the decision list (empty list → key removed; an older-shaped
 * `enabled` flag is kept in step). Other types keep only the `enabled` flag. An older `{enabled}`
 * action arrives here already rewritten as a list (normalizeCustomizationToggle, in sessionReducer).
 */
function applyToggle(entry: unknown, list: CustomizationEnablement[]): unknown {
  if (!isRecord(entry)) return entry;
  const enabled = list[0]?.enabled ?? true;
  if (entry.type !== 'plugin' && entry.type !== 'mcpServer') return { ...entry, enabled };
  const next = withKey(entry, 'enablement', list.length > 0 ? list.slice() : undefined);
  return typeof entry.enabled === 'boolean' ? { ...next, enabled } : next;
}

/** `session/customizationToggled`: top-level id first, then children of each container. */
export function customizationToggled(state: SessionState, a: Rec): SessionState {
  // A toggle keeps every id in its place, so the new list keeps the old one's server index (customization-index.ts).
  const ix = chunksOf(state)?.ix;
  const list: unknown = state.customizations;
  const toggle = Array.isArray(a.enablement) && a.enablement.every(isEnablement) ? a.enablement : undefined;
  if (!Array.isArray(list) || !isString(a.id) || !toggle) return state;
  const withList = (next: unknown[]): SessionState => {
    slotsOfList.set(next, ix);
    return { ...state, customizations: next as Customization[] };
  };
  const top = indexBy(list, 'id', a.id);
  if (top >= 0) return withList(replaceAt(list, top, applyToggle(list[top], toggle)));
  for (let i = 0; i < list.length; i++) {
    const c: unknown = list[i];
    if (!isRecord(c) || c.type === 'mcpServer' || !Array.isArray(c.children)) continue;
    const at = indexBy(c.children, 'id', a.id);
    if (at < 0) continue;
    const container = { ...c, children: replaceAt(c.children, at, applyToggle(c.children[at], toggle)) };
    return withList(replaceAt(list, i, container));
  }
  return state;
}

const isBareState = (s: McpServerCustomization, kind: string): boolean =>
  isRecord(s.state) && s.state.kind === kind && Object.keys(s.state).length === 1 && !('channel' in s);

/**
 * Makes plain objects (their prototype is Object.prototype, as a literal's) that V8 sizes from the first ones built: a
 * server copied with `{ ...s }` keeps four fields in the object and the rest in a second array (32 bytes more a server,
 * about 320 KB at 10,000 servers); one built on `new PlainObject()` holds them all. Object.assign sets keys as
 * assignments, so an entry with its own `__proto__` key (JSON.parse makes one) is copied by spread, which keeps it.
 */
function PlainObject(): void {}
PlainObject.prototype = Object.prototype;
const serverWith = (s: McpServerCustomization, fields: object): McpServerCustomization =>
  Object.hasOwn(s, '__proto__') ? { ...s, ...fields } : Object.assign(new (PlainObject as unknown as new () => object)(), s, fields);

/** The server with a new state and channel (none: the key is left out), built without `delete`, which would make it a slow dictionary object. */
function withServerState(s: McpServerCustomization, state: McpServerCustomization['state'], channel: unknown): McpServerCustomization {
  if (channel !== undefined) return serverWith(s, { state, channel });
  if (!('channel' in s)) return serverWith(s, { state });
  const { channel: _stale, ...rest } = s as McpServerCustomization & { channel?: unknown };
  return { ...rest, state };
}

/** `session/mcpServerStateChanged`: sets `state` and `channel` (absent channel → cleared). */
export function mcpServerStateChanged(state: SessionState, a: Rec): SessionState {
  const next = a.state;
  const channel = a.channel;
  if (!isRecord(next) || !isString(next.kind) || !(isAbsent(channel) || isString(channel))) return state;
  return updateMcpServer(state, a.id, (s) => withServerState(s, next as unknown as McpServerCustomization['state'], channel ?? undefined));
}

/** `session/mcpServerStartRequested`: optimistic `starting`, stale channel cleared. */
export function mcpServerStartRequested(state: SessionState, a: Rec): SessionState {
  return updateMcpServer(state, a.id, (s) =>
    isBareState(s, 'starting') ? s : withServerState(s, { kind: 'starting' }, undefined),
  );
}

/** `session/mcpServerStopRequested`: optimistic `stopped`, channel cleared. */
export function mcpServerStopRequested(state: SessionState, a: Rec): SessionState {
  return updateMcpServer(state, a.id, (s) =>
    isBareState(s, 'stopped') ? s : withServerState(s, { kind: 'stopped' }, undefined),
  );
}

/** `session/mcpServerBackgroundRequested`: a blocking `starting` server becomes non-blocking; else no-op. */
export function mcpServerBackgroundRequested(state: SessionState, a: Rec): SessionState {
  return updateMcpServer(state, a.id, (s) =>
    isRecord(s.state) && s.state.kind === 'starting' && s.state.blocking === true ? { ...s, state: { ...s.state, blocking: false } } : s,
  );
}

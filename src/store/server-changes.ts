import type { McpServerCustomization } from '../protocol/customizations.js';
import { isMcpServer } from '../reducers/customizations.js';
import { isRecord } from '../protocol/guards.js';
import { chunkAt, entryAt, type Chunks } from '../reducers/customization-chunks.js';
import { childrenOf, idOf } from '../reducers/customization-index.js';

type Rec = Record<string, unknown>;

function addIds(ids: Set<string>, entry: unknown): void {
  const id = idOf(entry);
  if (id !== undefined) ids.add(id);
}

/**
 * Ids of the customizations (top level and children) whose entry changed between two lists, by
 * position and identity. Reducers copy only the path to what changed, so this is usually one id.
 */
export function changedCustomizationIds(prev: unknown, next: unknown): Set<string> {
  const ids = new Set<string>();
  const a = Array.isArray(prev) ? prev : [];
  const b = Array.isArray(next) ? next : [];
  if (a === b) return ids;
  for (let i = 0, n = Math.max(a.length, b.length); i < n; i++) {
    const x: unknown = a[i];
    const y: unknown = b[i];
    if (x === y) continue;
    addIds(ids, x);
    addIds(ids, y);
    const cx = childrenOf(x) ?? [];
    const cy = childrenOf(y) ?? [];
    if (cx === cy) continue;
    for (let j = 0, m = Math.max(cx.length, cy.length); j < m; j++) {
      if (cx[j] === cy[j]) continue;
      addIds(ids, cx[j]);
      addIds(ids, cy[j]);
    }
  }
  return ids;
}

/**
 * Ids of the customizations (and of their children) whose entry changed between two chunked lists
 * (reducers/customization-chunks.ts), by position and identity: only places that do not hold the same chunk (or both
 * read through to the same base list) are compared, so a change to one server costs one chunk. A superset is fine:
 * watchers compare before waking.
 */
export function changedIdsOfChunks(prev: Chunks, next: Chunks): Set<string> {
  const ids = new Set<string>();
  const add = (c: unknown) => [c, ...(childrenOf(c) ?? [])].forEach((e) => addIds(ids, e));
  for (let i = 0; i < prev.base.length || i < next.base.length; i++) {
    const chunk = chunkAt(prev, i);
    // The same chunk on both sides, or none on both over the same base, is skipped whole.
    if (chunk === chunkAt(next, i) && (chunk || prev.base === next.base)) i |= 63;
    else if (entryAt(prev, i) !== entryAt(next, i)) [entryAt(prev, i), entryAt(next, i)].forEach(add);
  }
  return ids;
}

const indexCache = new WeakMap<object, Map<string, McpServerCustomization>>();

/**
 * MCP servers by id with the reducers' precedence (`locateMcpServer`): the first top-level entry with
 * an id owns it (a non-server there hides same-id children); otherwise the first container whose
 * first child with that id is a server. Memoized per list.
 */
export function mcpServerIndex(list: unknown): Map<string, McpServerCustomization> {
  if (!Array.isArray(list)) return new Map();
  const cached = indexCache.get(list);
  if (cached) return cached;
  const index = new Map<string, McpServerCustomization>();
  const claimed = new Set<string>();
  for (const c of list) {
    const id = idOf(c);
    if (id === undefined || claimed.has(id)) continue;
    claimed.add(id);
    if (isMcpServer(c)) index.set(id, c);
  }
  for (const c of list) {
    const seenHere = new Set<string>();
    for (const child of childrenOf(c) ?? []) {
      const id = idOf(child);
      if (id === undefined || seenHere.has(id)) continue;
      seenHere.add(id);
      if (!claimed.has(id) && !index.has(id) && isMcpServer(child)) index.set(id, child);
    }
  }
  indexCache.set(list, index);
  return index;
}

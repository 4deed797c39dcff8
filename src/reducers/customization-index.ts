import { isRecord } from '../protocol/guards.js';
import { entryAt, listOf, type Chunks } from './customization-chunks.js';

/**
 * Where the MCP servers of a customizations list sit, by id, kept small because it lives as long as the list:
 * an open-addressing table of slot codes (+1; 0 is empty) in a typed array, 2 bytes a place for lists under
 * 65,535 places (a Map took about 46 bytes a server). A code below `top` is a top-level index; code `top + k` is
 * the k-th child slot: container `kids[2k]`, child `kids[2k + 1]`. A lookup checks the id of the entry it lands
 * on, so the table holds no strings.
 */
export interface ServerIndex {
  table: Uint16Array | Int32Array;
  top: number;
  kids: number[];
}

export const idOf = (c: unknown): string | undefined => (isRecord(c) && typeof c.id === 'string' ? c.id : undefined);
/** The children of a container (any non-server entry with a children array), where MCP servers may sit. */
export const childrenOf = (c: unknown): unknown[] | undefined => (isRecord(c) && c.type !== 'mcpServer' && Array.isArray(c.children) ? c.children : undefined);

/** FNV-1a, high bits folded in so that ids differing in their last characters spread over the low ones. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h ^ (h >>> 16);
}

/** The slot code of `id` in `chunks` (laid out as when the index was built), or -1: a top-level entry of any type with that id, or a server child. */
export function findSlot(index: ServerIndex, chunks: Chunks, id: string): number {
  const { table, top, kids } = index;
  for (let h = hashOf(id); ; h++) {
    const code = table[h & (table.length - 1)]! - 1;
    if (code < 0) return -1;
    const entry = code < top ? entryAt(chunks, code) : childrenOf(entryAt(chunks, kids[2 * (code - top)]!))![kids[2 * (code - top) + 1]!];
    if (idOf(entry) === id) return code;
  }
}

/** The index of a plain list (a snapshot's, a toggle's, a chunked list's base), found again when its state is chunked (customization-chunks.ts). */
export const slotsOfList = new WeakMap<readonly unknown[], ServerIndex | undefined>();

/**
 * The id index of a chunked list, with `locateMcpServer`'s precedence: the first top-level entry with an id owns it
 * (a non-server there hides same-id children); otherwise the first container whose first child with that id is
 * a server. Built once (O(n)) and carried to the lists derived from it (`ix`, `slotsOfList`), so a server update
 * finds its server in O(1) instead of scanning.
 */
export function serverIndex(chunks: Chunks): ServerIndex {
  if (chunks.ix) return chunks.ix;
  const list = listOf(chunks);
  let places = list.length;
  for (const c of list) places += childrenOf(c)?.length ?? 0;
  let size = 8;
  while (size * 3 < places * 4) size *= 2;
  const table = places < 0xffff ? new Uint16Array(size) : new Int32Array(size);
  const ix: ServerIndex = { table, top: list.length, kids: [] };
  /** Gives `id` the slot `code` unless an earlier entry claimed it; true when it did. */
  const claim = (id: string | undefined, code: number): boolean => {
    if (id === undefined || findSlot(ix, chunks, id) >= 0) return false;
    let h = hashOf(id);
    while (table[h & (size - 1)] !== 0) h++;
    table[h & (size - 1)] = code + 1;
    return true;
  };
  list.forEach((c, i) => claim(idOf(c), i));
  list.forEach((c, i) => {
    const seenHere = new Set<string>();
    childrenOf(c)?.forEach((child, j) => {
      const id = idOf(child);
      if (id === undefined || seenHere.has(id)) return;
      seenHere.add(id);
      if (isRecord(child) && child.type === 'mcpServer' && claim(id, ix.top + ix.kids.length / 2)) ix.kids.push(i, j);
    });
  });
  // Valid for the base list too: a server change keeps every id in its place.
  slotsOfList.set(chunks.base, ix);
  return (chunks.ix = ix);
}

import { isRecord } from '../protocol/guards.js';

/**
 * Where the MCP servers of a customizations list sit, by id, kept small because it lives as long as the list:
 * an open-addressing table of slot codes in a typed array (2 bytes per place for lists under 65,535 entries,
 * about 3.3 bytes per server; a Map took about 46). A code below `top` is a top-level index; code `top + k` is
 * the k-th child slot, `children[2k]` the container's index and `children[2k + 1]` the child's. A lookup checks
 * the id of the entry it lands on, so the table holds no strings.
 */
export interface ServerIndex {
  readonly table: Uint16Array | Int32Array;
  readonly mask: number;
  readonly top: number;
  readonly children: Int32Array | undefined;
}

type Rec = Record<string, unknown>;
const isMcpServer = (c: unknown): boolean => isRecord(c) && c.type === 'mcpServer';
const idOf = (c: unknown): string | undefined => (isRecord(c) && typeof c.id === 'string' ? c.id : undefined);
const childrenOf = (c: unknown): unknown[] | undefined => (isRecord(c) && c.type !== 'mcpServer' && Array.isArray(c.children) ? c.children : undefined);

/** FNV-1a with a final mix, so that ids differing in their last characters spread over the low bits. */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/** The entry a slot code names in `list` (a list with the layout the index was built for). */
function entryAt(index: ServerIndex, list: readonly unknown[], code: number): unknown {
  if (code < index.top) return list[code];
  const k = 2 * (code - index.top);
  return (list[index.children![k]!] as Rec & { children: unknown[] }).children[index.children![k + 1]!];
}

/** The slot code of `id` in `list`, or -1: a top-level entry of any type with that id, or a server child. */
export function findSlot(index: ServerIndex, list: readonly unknown[], id: string): number {
  const { table, mask } = index;
  for (let h = hashOf(id) & mask; ; h = (h + 1) & mask) {
    const v = table[h]!;
    if (v === 0) return -1;
    if (idOf(entryAt(index, list, v - 1)) === id) return v - 1;
  }
}

/** The container index of a child slot code, or -1 for a top-level code. */
export const containerOf = (index: ServerIndex, code: number): number => (code < index.top ? -1 : index.children![2 * (code - index.top)]!);

/** The child index of a child slot code (meaningless for a top-level code). */
export const childOf = (index: ServerIndex, code: number): number => index.children![2 * (code - index.top) + 1]!;

const indexByList = new WeakMap<readonly unknown[], ServerIndex>();

/**
 * The id index of a list, with `locateMcpServer`'s precedence: the first top-level entry with an id owns it
 * (a non-server there hides same-id children); otherwise the first container whose first child with that id is
 * a server. Built once per list (O(n)) and carried to the lists derived from it by `carrySlots`, so a server
 * update finds its server in O(1) instead of scanning.
 */
export function serverIndex(list: readonly unknown[]): ServerIndex {
  const cached = indexByList.get(list);
  if (cached) return cached;
  let places = list.length;
  for (const c of list) places += childrenOf(c)?.length ?? 0;
  let size = 8;
  while (size * 3 < places * 4) size *= 2;
  const table = places < 0xffff ? new Uint16Array(size) : new Int32Array(size);
  const children = places > list.length ? new Int32Array(2 * (places - list.length)) : undefined;
  let childSlots = 0;
  const index = { table, mask: size - 1, top: list.length, children };
  const insert = (id: string, code: number): void => {
    let h = hashOf(id) & index.mask;
    while (table[h] !== 0) h = (h + 1) & index.mask;
    table[h] = code + 1;
  };
  for (let i = 0; i < list.length; i++) {
    const id = idOf(list[i]);
    if (id !== undefined && findSlot(index, list, id) < 0) insert(id, i);
  }
  for (let i = 0; i < list.length; i++) {
    const kids = childrenOf(list[i]);
    if (!kids) continue;
    const seenHere = new Set<string>();
    for (let j = 0; j < kids.length; j++) {
      const child = kids[j];
      const id = idOf(child);
      if (id === undefined || seenHere.has(id)) continue;
      seenHere.add(id);
      if (!isMcpServer(child) || findSlot(index, list, id) >= 0) continue;
      // Visible to findSlot at once (a later container's same id is then already claimed).
      children![2 * childSlots] = i;
      children![2 * childSlots + 1] = j;
      insert(id, list.length + childSlots++);
    }
  }
  // Kept no bigger than the child slots it holds.
  if (children && 2 * childSlots < children.length) index.children = childSlots > 0 ? children.slice(0, 2 * childSlots) : undefined;
  indexByList.set(list, index);
  return index;
}

/** Hands `from`'s index to `to`, a list with the same ids in the same places (an entry replaced by one with its id). */
export function carrySlots(from: readonly unknown[], to: readonly unknown[]): void {
  if (from === to) return;
  const index = indexByList.get(from);
  if (index) indexByList.set(to, index);
}

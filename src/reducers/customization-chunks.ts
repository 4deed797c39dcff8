import { editableList } from './burst.js';
import { slotsOfList, type ServerIndex } from './customization-index.js';

/**
 * A customizations list as chunks of 64 entries in groups of 16 (1,024 entries), over a plain base list. A server
 * change copies one chunk (taken from `base` the first time), its group and the short list of groups (10 places at
 * 10,000 servers) instead of the whole list, so what a change copies hardly grows with the list; an empty place reads
 * through to `base`. The state a change gives shows `customizations` as an enumerable own getter that builds the plain
 * array on the first read; the chunks then give way to it (it becomes their base), so a state whose list was read keeps
 * that array only, as a plain state does, and the next change copies one chunk of it. A listener that only reads the
 * state, or servers by id (locateMcpServer, server watchers), never has the array built; JSON, spread, structuredClone
 * and postMessage read the getter and see a plain array. The chunks carry the list's id index (`ix`).
 */
export type Chunks = ((unknown[] | undefined)[] | undefined)[] & { base: unknown[]; ix?: ServerIndex };

/** Where a lazy state keeps its chunks: a non-enumerable own property, which spread, JSON and clones skip. */
const CHUNKS = Symbol();
type Lazy = Record<PropertyKey, unknown> & { [CHUNKS]?: Chunks };

/** The chunk holding entry `i`, if the chunks hold it (else the entry is the base's). */
export const chunkAt = (chunks: Chunks, i: number): unknown[] | undefined => chunks[i >> 10]?.[(i >> 6) & 15];

/** Entry `i` of a chunked list. */
export const entryAt = (chunks: Chunks, i: number): unknown => chunkAt(chunks, i)?.[i & 63] ?? chunks.base[i];

/** The plain list of `chunks`, holes kept. */
export function listOf(chunks: Chunks): unknown[] {
  const list = chunks.base.slice();
  for (let i = 0; i < list.length; i += 64) chunkAt(chunks, i)?.forEach((entry, j) => (list[i + j] = entry));
  return list;
}

const LAZY_LIST: PropertyDescriptor = {
  get(this: Lazy): unknown[] {
    const chunks = chunksOf(this)!;
    // Built once: the chunks give way to the array, which later changes take their chunks from. (A change always
    // holds a chunk, so a list of chunks that is not empty has not been read.)
    if (chunks.length) (chunks.base = listOf(chunks)), (chunks.length = 0);
    return chunks.base;
  },
  enumerable: true,
  configurable: true,
};

/** The chunks of a state's customizations (for a plain list: none held, the index the list is known to have); undefined without a list. */
export function chunksOf(state: object): Chunks | undefined {
  const lazy = (state as Lazy)[CHUNKS];
  if (lazy) return lazy;
  const list: unknown = (state as { customizations?: unknown }).customizations;
  if (Array.isArray(list)) return Object.assign([], { base: list, ix: slotsOfList.get(list) });
}

/** `chunks` with entry `i` set to `value`: copies of the list of groups, the group and the chunk (from the base the first time), or in a burst the copies it already made (burst.ts). */
export function chunksWith(chunks: Chunks, i: number, value: unknown): Chunks {
  const next: Chunks = Object.assign(editableList(chunks), { base: chunks.base, ix: chunks.ix });
  const group = (next[i >> 10] = editableList(chunks[i >> 10] ?? []));
  (group[(i >> 6) & 15] = editableList(chunkAt(chunks, i) ?? chunks.base.slice(i & ~63, (i & ~63) + 64)))[i & 63] = value;
  return next;
}

/** `state` with its customizations replaced by `chunks` (keys in the same order), the array built only when read. */
export function withChunks<S extends object>(state: S, chunks: Chunks): S {
  const next = Object.defineProperty({}, CHUNKS, { value: chunks }) as Lazy;
  for (const k in state) {
    if (k === 'customizations') Object.defineProperty(next, k, LAZY_LIST);
    else next[k] = state[k as keyof S];
  }
  return next as S;
}

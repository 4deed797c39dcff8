import { slotsOfList, type ServerIndex } from './customization-index.js';

/**
 * A customizations list as chunks of 64 entries. A server change copies one chunk and the short list of chunks
 * (about 220 places at 10,000 servers) instead of the whole list, and the state it gives shows `customizations` as
 * an enumerable own getter that builds the plain array on the first read and keeps it (`list`). A listener that only
 * reads the state, or servers by id (locateMcpServer, server watchers), never has the array built; JSON, spread,
 * structuredClone and postMessage read the getter and see a plain array. The chunks carry the list's id index
 * (`ix`); the next server change starts from the same chunks whether the list was read or not.
 */
export type Chunks = unknown[][] & { ix?: ServerIndex; list?: unknown[] };

/** Where a lazy state keeps its chunks: a non-enumerable own property, which spread, JSON and clones skip. */
const CHUNKS = Symbol();
type Lazy = Record<PropertyKey, unknown> & { [CHUNKS]?: Chunks };

const chunksByList = new WeakMap<readonly unknown[], Chunks>();

/** Entry `i` of a chunked list. */
export const entryAt = (chunks: Chunks, i: number): unknown => chunks[i >> 6]![i & 63];

const LAZY_LIST: PropertyDescriptor = {
  get(this: Lazy): unknown[] {
    const chunks = chunksOf(this)!;
    // concat keeps holes where flat() would drop them: the same list as the one folded.
    return (chunks.list ??= ([] as unknown[]).concat(...chunks));
  },
  enumerable: true,
  configurable: true,
};

/** The chunks of a state's customizations (built once per plain list, O(n)); undefined without a list. */
export function chunksOf(state: object): Chunks | undefined {
  const lazy = (state as Lazy)[CHUNKS];
  if (lazy) return lazy;
  const list: unknown = (state as { customizations?: unknown }).customizations;
  if (!Array.isArray(list)) return undefined;
  let chunks = chunksByList.get(list);
  if (!chunks) {
    chunks = [];
    for (let i = 0; i < list.length; i += 64) chunks.push(list.slice(i, i + 64));
    chunks.ix = slotsOfList.get(list);
    chunksByList.set(list, chunks);
  }
  return chunks;
}

/** `state` with its customizations replaced by `chunks` (keys in the same order), the array built only when read. */
export function withChunks<S extends object>(state: S, chunks: Chunks): S {
  // A burst writes its own chunks in place: a list built from them before is stale.
  chunks.list = undefined;
  const next = Object.defineProperty({}, CHUNKS, { value: chunks }) as Lazy;
  for (const k in state) {
    if (k === 'customizations') Object.defineProperty(next, k, LAZY_LIST);
    else next[k] = state[k as keyof S];
  }
  return next as S;
}

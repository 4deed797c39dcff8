import { isPlainObject } from '../protocol/guards.js';

/** A step in a path through a state: an object key or an array index. */
export type PatchKey = string | number;

/**
 * One change the worker sends instead of a whole state (compact tuples: they are structured-cloned per update).
 * `s` sets a value, `d` deletes a key, `a` appends items to an array, `t` truncates an array, `x` appends to a string.
 */
export type PatchOp =
  | readonly ['s', readonly PatchKey[], unknown]
  | readonly ['d', readonly PatchKey[]]
  | readonly ['a', readonly PatchKey[], readonly unknown[]]
  | readonly ['t', readonly PatchKey[], number]
  | readonly ['x', readonly PatchKey[], string];

type Rec = Record<string, unknown>;
const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** Strings at least this long that grow at the end are sent as their suffix (streamed text). */
const MIN_STRING_APPEND = 32;
/** Arrays where more items changed identity than this (and than half) are sent whole: an insertion shifted them. */
const FEW_ITEMS = 8;

function diff(prev: unknown, next: unknown, path: PatchKey[], out: PatchOp[]): void {
  if (Object.is(prev, next)) return;
  if (Array.isArray(prev) && Array.isArray(next)) {
    const n = Math.min(prev.length, next.length);
    let changed = 0;
    for (let i = 0; i < n; i++) if (prev[i] !== next[i]) changed++;
    if (changed > FEW_ITEMS && changed > n / 2) {
      out.push(['s', path, next]);
      return;
    }
    for (let i = 0; i < n; i++) if (prev[i] !== next[i]) diff(prev[i], next[i], [...path, i], out);
    if (next.length > n) out.push(['a', path, next.slice(n)]);
    else if (prev.length > n) out.push(['t', path, n]);
    return;
  }
  if (isPlainObject(prev) && isPlainObject(next)) {
    for (const key of Object.keys(next)) {
      if (!has(prev, key)) out.push(['s', [...path, key], next[key]]);
      else if (!Object.is(prev[key], next[key])) diff(prev[key], next[key], [...path, key], out);
    }
    for (const key of Object.keys(prev)) if (!has(next, key)) out.push(['d', [...path, key]]);
    return;
  }
  if (typeof prev === 'string' && typeof next === 'string' && prev.length >= MIN_STRING_APPEND && next.startsWith(prev)) {
    out.push(['x', path, next.slice(prev.length)]);
    return;
  }
  out.push(['s', path, next]);
}

/**
 * The changes that turn `prev` into `next`, found by identity: the reducers copy only the path to what
 * changed, so this walks only that path. Undefined when there is no usable base (send the whole state).
 */
export function diffState(prev: unknown, next: unknown): PatchOp[] | undefined {
  if (!isPlainObject(prev) || !isPlainObject(next)) return undefined;
  const out: PatchOp[] = [];
  diff(prev, next, [], out);
  return out;
}

/** A patch that does not fit the state it is applied to (the page must ask for the whole state again). */
export class PatchMismatchError extends Error {}

/**
 * Applies `ops` to `base` without changing it: every container on a changed path is copied once per call,
 * everything else keeps its identity (so per-object listeners wake only for what changed).
 */
export function applyPatch<T>(base: T, ops: readonly PatchOp[]): T {
  if (!Array.isArray(ops)) throw new PatchMismatchError('a patch is a list of changes');
  const fresh = new WeakSet<object>();
  const own = (node: unknown): Rec | unknown[] => {
    if (typeof node !== 'object' || node === null) throw new PatchMismatchError('the patch path leads through a value that is not an object');
    if (fresh.has(node)) return node as Rec;
    const copy = Array.isArray(node) ? node.slice() : { ...(node as Rec) };
    fresh.add(copy);
    return copy;
  };
  /** Replaces the value at `path` by `leaf(old value)`, copying the containers on the way. */
  const update = (node: unknown, path: readonly PatchKey[], i: number, leaf: (old: unknown) => unknown): unknown => {
    if (i === path.length) return leaf(node);
    const container = own(node) as Rec;
    const key = path[i]!;
    container[key] = update(container[key], path, i + 1, leaf);
    return container;
  };
  /** Runs `fn` on an own copy of the container at `path` (the parent of the changed key). */
  const inContainer = (root: unknown, path: readonly PatchKey[], fn: (container: Rec) => void): unknown =>
    update(root, path, 0, (c) => {
      const container = own(c) as Rec;
      fn(container);
      return container;
    });
  let root: unknown = base;
  for (const op of ops) {
    if (!Array.isArray(op) || !Array.isArray(op[1])) throw new PatchMismatchError('malformed patch operation');
    const [kind, path] = op;
    if (kind === 's' || kind === 'd') {
      if (path.length === 0) throw new PatchMismatchError('a patch may not replace the root');
      const key = path[path.length - 1]!;
      root = inContainer(root, path.slice(0, -1), (c) => {
        if (kind === 's') c[key] = op[2];
        else delete c[key];
      });
    } else if (kind === 'a' || kind === 't') {
      root = update(root, path, 0, (arr) => {
        if (!Array.isArray(arr)) throw new PatchMismatchError('append or truncate on something that is not an array');
        return kind === 'a' ? arr.concat(op[2] as unknown[]) : arr.slice(0, op[2] as number);
      });
    } else if (kind === 'x') {
      root = update(root, path, 0, (s) => {
        if (typeof s !== 'string') throw new PatchMismatchError('string append on something that is not a string');
        return s + (op[2] as string);
      });
    } else throw new PatchMismatchError(`unknown patch operation ${String(kind)}`);
  }
  return root as T;
}

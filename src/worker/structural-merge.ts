import { isPlainObject } from '../protocol/guards.js';

const idOf = (v: unknown): string | undefined => {
  if (!isPlainObject(v)) return undefined;
  const id = v.id ?? v.toolCallId;
  return typeof id === 'string' ? id : undefined;
};

function mergeArray(prev: readonly unknown[], next: readonly unknown[]): readonly unknown[] {
  // Items are matched by `id` (customizations, children, turns) so an insertion keeps the rest; else by index.
  let byId: Map<string, unknown> | undefined;
  for (const item of prev) {
    const id = idOf(item);
    if (id !== undefined) (byId ??= new Map()).set(id, item);
  }
  let same = prev.length === next.length;
  const out = next.map((item, i) => {
    const id = idOf(item);
    const candidate = id !== undefined && byId?.has(id) ? byId.get(id) : prev[i];
    const merged = reuseEqual(candidate, item);
    if (merged !== prev[i]) same = false;
    return merged;
  });
  return same ? prev : out;
}

function mergeObject(prev: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(next);
  let same = keys.length === Object.keys(prev).length;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const had = Object.prototype.hasOwnProperty.call(prev, key);
    const merged = reuseEqual(had ? prev[key] : undefined, next[key]);
    if (!had || merged !== prev[key]) same = false;
    out[key] = merged;
  }
  return same ? prev : out;
}

/**
 * Returns `next` with every subtree that is deep-equal to the matching subtree of `prev` replaced by
 * `prev`'s object, so identity comparison tells exactly what changed (a state that crossed a worker
 * boundary arrives as a fresh structured clone). Returns `prev` itself when the two are deep-equal.
 * Plain objects and arrays only; anything else is compared with `Object.is`.
 */
export function reuseEqual<T>(prev: unknown, next: T): T {
  if (Object.is(prev, next)) return next;
  if (Array.isArray(next)) return (Array.isArray(prev) ? mergeArray(prev, next) : next) as T;
  if (isPlainObject(next) && isPlainObject(prev)) return mergeObject(prev, next) as T;
  return next;
}

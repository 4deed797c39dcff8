import { isObjectOrArray } from '../protocol/guards.js';
/** Calls `fn`, logging instead of throwing: one bad listener must not break the store or the others. */
export function report(what: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    console.error(`SessionStore: ${what} listener threw`, err);
  }
}

/**
 * Reports to each listener of `set` as it was when called: one added meanwhile is not called for this change, one
 * removed meanwhile still is. A single listener (the usual case) is called without a copy of the set: it is the
 * first entry, and whatever it adds comes after it.
 */
export function reportEach(what: string, set: ReadonlySet<() => void>): void {
  let left = set.size;
  for (const l of left > 1 ? [...set] : set) {
    report(what, l);
    if (--left < 1) break;
  }
}


/**
 * Two objects that render the same: identical, or the same keys with identical values (or equal as JSON, for the
 * keys `byValue` names). Rebasing pending actions rebuilds the objects they touch on every change; this keeps those
 * rebuilds from waking subscribers.
 */
export function sameObject(a: unknown, b: unknown, byValue?: (key: string) => boolean): boolean {
  if (a === b) return true;
  if (!isObjectOrArray(a) || !isObjectOrArray(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k], b[k]) || (byValue?.(k) && JSON.stringify(a[k]) === JSON.stringify(b[k])));
}

interface Watch<T> {
  last: T | undefined;
  listeners: Set<(value: T | undefined) => void>;
}

/**
 * Listeners keyed by object id, each woken only when the object with that id changed
 * (see `same`), appeared or disappeared.
 */
export class KeyedWatchers<T> {
  private readonly watchesByKey = new Map<string, Watch<T>>();

  constructor(
    private readonly listenerKind: string,
    private readonly sameValue: (a: T | undefined, b: T | undefined) => boolean,
  ) {}

  get size(): number {
    return this.watchesByKey.size;
  }

  /** Adds a listener for `key`; `current` gives the value to compare the next change with. Returns the remover. */
  add(key: string, listener: (value: T | undefined) => void, current: () => T | undefined): () => void {
    let watch = this.watchesByKey.get(key);
    if (!watch) {
      watch = { last: current(), listeners: new Set() };
      this.watchesByKey.set(key, watch);
    }
    const w = watch;
    w.listeners.add(listener);
    return () => {
      w.listeners.delete(listener);
      if (w.listeners.size === 0 && this.watchesByKey.get(key) === w) this.watchesByKey.delete(key);
    };
  }

  /** Looks the watched keys up (all, or only `keys` when the caller knows what may have changed) and wakes those whose object changed. */
  notify(lookup: (key: string) => T | undefined, keys?: Iterable<string>): void {
    for (const key of keys ?? [...this.watchesByKey.keys()]) {
      const w = this.watchesByKey.get(key);
      if (!w) continue;
      const value = lookup(key);
      const changed = !this.sameValue(w.last, value);
      w.last = value;
      if (changed) for (const l of [...w.listeners]) report(this.listenerKind, () => l(value));
    }
  }

  clear(): void {
    this.watchesByKey.clear();
  }
}

/** Adds `listener` to the set under `key` (creating it); the returned function removes it and drops an empty set. */
export function addKeyedListener<K, L>(map: Map<K, Set<L>>, key: K, listener: L): () => void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  const s = set;
  s.add(listener);
  return () => {
    s.delete(listener);
    if (s.size === 0 && map.get(key) === s) map.delete(key);
  };
}

/** Watches one item of a group (e.g. one tool call of a chat); the group's watchers are dropped when the last one goes. */
export function addGroupedWatcher<T>(
  groups: Map<string, KeyedWatchers<T>>,
  group: string,
  create: () => KeyedWatchers<T>,
  key: string,
  listener: (value: T | undefined) => void,
  read: () => T | undefined,
): () => void {
  let watchers = groups.get(group);
  if (!watchers) groups.set(group, (watchers = create()));
  const w = watchers;
  const remove = w.add(key, listener, read);
  return () => {
    remove();
    if (w.size === 0 && groups.get(group) === w) groups.delete(group);
  };
}

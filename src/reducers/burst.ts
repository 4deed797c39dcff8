/**
 * Copy-on-first-write for a burst of actions. Reducers copy every object on the path to a change, which
 * for a burst (a replay, a socket read with many envelopes) means one copy of a 10,000-entry list per
 * action. Inside `inBurst`, objects a reducer created during this burst are marked owned: nobody else
 * has seen them yet, so later actions of the same burst change them in place. Objects that existed
 * before the burst are never changed, so the fold as a whole stays pure. Outside a burst nothing is
 * owned and every helper copies, as a plain reducer call must.
 */

let owned: Set<object> | undefined;

/** Runs `fold` with a fresh ownership scope; everything it owned is sealed (treated as shared) afterwards. */
export function inBurst<T>(fold: () => T): T {
  const outer = owned;
  owned = new Set();
  try {
    return fold();
  } finally {
    owned = outer;
  }
}

/** Marks an object this burst just created as owned (no-op outside a burst); returns it. */
export function own<T extends object>(o: T): T {
  if (owned !== undefined) owned.add(o);
  return o;
}

/** True when `o` was created in the current burst. */
export const isOwned = (o: object): boolean => owned !== undefined && owned.has(o);

/** `o` itself when owned, else an owned shallow copy: the object to write a change into. */
export function editable<T extends object>(o: T): T {
  return isOwned(o) ? o : own({ ...o });
}

/** `list` itself when owned, else an owned copy. */
export function editableList<T>(list: readonly T[]): T[] {
  return isOwned(list) ? (list as T[]) : own(list.slice());
}

/** Folds `actions` into `state` with `reducer`, as one burst: the same result as reducing them one by one, with one copy of each changed path. */
export function foldBurst<S, A>(reducer: (state: S, action: A) => S, state: S, actions: readonly A[]): S {
  if (actions.length === 0) return state;
  if (actions.length === 1) return reducer(state, actions[0]!);
  return inBurst(() => {
    let next = state;
    for (const a of actions) next = reducer(next, a);
    return next;
  });
}

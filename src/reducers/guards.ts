/** Runtime checks for action payloads, which come from peers that may be newer than us or simply wrong. */

import { isRecord, type Rec } from '../protocol/guards.js';

export { isRecord, type Rec };

/** True for a string. */
export const isString = (v: unknown): v is string => typeof v === 'string';

/** True for an array whose entries are all strings. */
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** True for undefined or null (absent on the wire). */
export const isAbsent = (v: unknown): v is undefined | null => v === undefined || v === null;

/** Index of the first entry whose `key` equals `value`; -1 when missing. Tolerates garbage entries. */
export function indexBy(list: readonly unknown[], key: string, value: unknown): number {
  return list.findIndex((e) => isRecord(e) && e[key] === value);
}

/** Copy of `obj` with `key` set to `value`, or removed when `value` is undefined. */
export function withKey<T extends object>(obj: T, key: string, value: unknown): T {
  const next = { ...obj } as Rec;
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next as T;
}

/** Copy of `list` with the entry at `index` replaced. */
export function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  const next = list.slice();
  next[index] = value;
  return next;
}

/** Copy of `list` without the entry at `index`. */
export function removeAt<T>(list: readonly T[], index: number): T[] {
  const next = list.slice();
  next.splice(index, 1);
  return next;
}

/**
 * A total reducer from a table of handlers: unknown types and garbage return the same state, and a payload
 * shape nobody anticipated (a handler that throws) must not take the channel down.
 */
export function tableReducer<S>(handlers: ReadonlyMap<string, (state: S, action: Rec) => S>): (state: S, action: unknown) => S {
  return (state, action) => {
    if (!isRecord(state) || !isRecord(action) || typeof action.type !== 'string') return state;
    const handler = handlers.get(action.type);
    if (!handler) return state;
    try {
      return handler(state, action);
    } catch {
      return state;
    }
  };
}

/**
 * Runtime checks for data from peers, the DOM or users, which may be newer than us or simply wrong.
 * The one home of these guards: every layer imports them from here.
 */
import type { ActionEnvelope } from './commands.js';

export type Rec = Record<string, unknown>;

/** True for a plain object: not null, not an array. What a JSON object on the wire is. */
export const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True for an action envelope as the host sends it: a channel, a number serverSeq and an action with a string type. */
export const isActionEnvelope = (v: unknown): v is ActionEnvelope =>
  isRecord(v) && typeof v.channel === 'string' && typeof v.serverSeq === 'number' && isRecord(v.action) && typeof v.action.type === 'string';

/** True for any non-null object, arrays included: for code that reads keys of both (generic key-by-key comparison). */
export const isObjectOrArray = (v: unknown): v is Rec => typeof v === 'object' && v !== null;

/** The message of an Error, else the value as a string: for error text shown to users and logs. */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * True for an object literal or a null-prototype object (what JSON.parse and structured clone produce), not a
 * Date, Map or class instance: for code that walks or rebuilds state trees key by key.
 */
export const isPlainObject = (v: unknown): v is Rec => {
  if (!isRecord(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

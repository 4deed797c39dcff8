import { randomId } from '../protocol/random-id.js';

/** A fresh turn id: a random v4 UUID (see `randomId`: works on plain-http pages too). */
export function newTurnId(): string {
  return randomId();
}

/** Milliseconds since an ISO `startedAt`, never negative (0 when it does not parse). */
export function elapsedSince(startedAt: unknown, now = Date.now()): number {
  const ms = now - Date.parse(String(startedAt));
  return ms > 0 ? Math.round(ms) : 0;
}

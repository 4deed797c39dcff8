/** A fresh turn id: `crypto.randomUUID()` where available (secure contexts), else a v4 UUID from `getRandomValues`. */
export function newTurnId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Milliseconds since an ISO `startedAt`, never negative (0 when it does not parse). */
export function elapsedSince(startedAt: unknown, now = Date.now()): number {
  const ms = now - Date.parse(String(startedAt));
  return ms > 0 ? Math.round(ms) : 0;
}

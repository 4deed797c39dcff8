/** A fresh turn id: `crypto.randomUUID()` where available (secure contexts), else a random v4-shaped id. */
export function newTurnId(): string {
  const c = (globalThis as { crypto?: Partial<Crypto> }).crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof c?.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Milliseconds since an ISO `startedAt`, never negative (0 when it does not parse). */
export function elapsedSince(startedAt: unknown, now = Date.now()): number {
  const start = typeof startedAt === 'string' ? Date.parse(startedAt) : NaN;
  return Number.isFinite(start) ? Math.max(0, Math.round(now - start)) : 0;
}

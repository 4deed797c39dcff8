/** Per-App traffic limits: a token bucket for message rate and a bounded size estimate. DOM-free. */

/** How much traffic one View may send the host. */
export interface AppTrafficLimits {
  /** Largest View → host message (approximate serialized size in bytes; default 4 MiB). Larger requests are refused with an error. */
  maxMessageBytes?: number;
  /** Sustained messages per second (default 200). */
  messagesPerSecond?: number;
  /** Messages allowed in one burst above the sustained rate (default 400). */
  burst?: number;
}

export const DEFAULT_TRAFFIC_LIMITS: Required<AppTrafficLimits> = {
  maxMessageBytes: 4 * 1024 * 1024,
  messagesPerSecond: 200,
  burst: 400,
};

/** A token bucket: `take()` is true while the rate allows one more. */
export class TokenBucket {
  declare private tokens: number;
  declare private last: number;
  constructor(
    private readonly perSecond: number,
    private readonly capacity: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.tokens = capacity;
    this.last = now();
  }

  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * The approximate JSON size of `value` (strings by length, numbers 8, structure 2 per entry), walking at
 * most until `limit` is passed, so an oversized message costs no more than the limit to measure.
 * Returns a number > limit as soon as it knows.
 */
export function boundedSize(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) total += 8;
    else if (Array.isArray(v)) {
      total += 2 + v.length;
      if (total > limit) return total;
      for (const item of v) stack.push(item);
    } else if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) total += v.byteLength;
    else if (typeof v === 'object') {
      for (const key in v as object) {
        total += key.length + 4;
        stack.push((v as Record<string, unknown>)[key]);
        if (total > limit) return total;
      }
    } else total += 8;
    if (total > limit) return total;
  }
  return total;
}

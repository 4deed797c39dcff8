/** When to retry a dropped connection: exponential, capped, with jitter. */
export interface BackoffOptions {
  /** Delay before the first attempt (default 250 ms). */
  initialDelayMs?: number;
  /** Upper bound of any delay (default 5 000 ms). */
  maxDelayMs?: number;
  /** Growth per attempt (default 2). */
  factor?: number;
  /** Fraction 0..1 of the delay that is randomised away (default 0.5: between 50 % and 100 % of it). */
  jitter?: number;
  /** Random source in [0, 1); Math.random by default. */
  random?: () => number;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** Delay in ms before attempt `attempt` (1-based): min(max, initial·factor^(attempt-1)), minus up to `jitter` of it. */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const initial = Math.max(0, options.initialDelayMs ?? 250);
  const max = Math.max(initial, options.maxDelayMs ?? 5_000);
  const factor = Math.max(1, options.factor ?? 2);
  const jitter = clamp(options.jitter ?? 0.5, 0, 1);
  const random = clamp((options.random ?? Math.random)(), 0, 1);
  const base = Math.min(max, initial * factor ** Math.max(0, attempt - 1));
  return Math.round(base * (1 - jitter * random));
}

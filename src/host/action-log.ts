import type { ActionEnvelope } from '../protocol/index.js';

/** The most recent envelopes of one channel, oldest first, at most `limit` of them. */
export class ActionLog {
  readonly #limit: number;
  #entries: ActionEnvelope[] = [];
  /** serverSeq of the newest envelope that was evicted (0 = nothing evicted). */
  #evictedUpTo = 0;

  constructor(limit: number) {
    this.#limit = Math.max(0, Math.floor(limit));
  }

  append(env: ActionEnvelope): void {
    this.#entries.push(env);
    if (this.#entries.length > this.#limit * 2 || this.#limit === 0) this.#trim();
  }

  /** Envelopes with serverSeq > `afterSeq`, or undefined when some of them were already evicted. */
  since(afterSeq: number): ActionEnvelope[] | undefined {
    this.#trim();
    if (afterSeq < this.#evictedUpTo) return undefined;
    return this.#entries.filter((e) => e.serverSeq > afterSeq);
  }

  get size(): number {
    this.#trim();
    return this.#entries.length;
  }

  // Trimming in batches keeps append O(1) amortized instead of shifting every time.
  #trim(): void {
    const excess = this.#entries.length - this.#limit;
    if (excess <= 0) return;
    const evicted = this.#entries.splice(0, excess);
    this.#evictedUpTo = evicted[evicted.length - 1]!.serverSeq;
  }
}

/**
 * At most `limit` loads at once per key (a sandbox origin); further ones wait their turn in order. Many proxy pages
 * of one origin share one renderer process: loading them all at once makes every one of them slow.
 */
export class LoadSlots {
  private readonly limit: number;
  private readonly running = new Map<string, number>();
  private readonly queued = new Map<string, (() => void)[]>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /**
   * Calls `begin` once a slot for `key` is free (at once when one is). Returns the release: it frees the slot, or
   * withdraws the request when it has not begun; calling it again does nothing.
   */
  acquire(key: string, begin: () => void): () => void {
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    const start = () => {
      state = 'running';
      this.running.set(key, (this.running.get(key) ?? 0) + 1);
      begin();
    };
    if ((this.running.get(key) ?? 0) < this.limit) start();
    else this.queue(key).push(start);
    return () => {
      if (state === 'done') return;
      const was = state;
      state = 'done';
      if (was === 'waiting') return this.withdraw(key, start);
      const left = this.running.get(key)! - 1;
      if (left) this.running.set(key, left);
      else this.running.delete(key);
      this.next(key);
    };
  }

  /** How many loads run and wait for `key`. */
  count(key: string): { running: number; waiting: number } {
    return { running: this.running.get(key) ?? 0, waiting: this.queued.get(key)?.length ?? 0 };
  }

  private queue(key: string): (() => void)[] {
    let queue = this.queued.get(key);
    if (!queue) this.queued.set(key, (queue = []));
    return queue;
  }

  private withdraw(key: string, start: () => void): void {
    const queue = this.queue(key);
    const at = queue.indexOf(start);
    if (at >= 0) queue.splice(at, 1);
    if (!queue.length) this.queued.delete(key);
  }

  private next(key: string): void {
    const queue = this.queued.get(key);
    const start = queue?.shift();
    if (queue && !queue.length) this.queued.delete(key);
    start?.();
  }
}

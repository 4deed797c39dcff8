/**
 * At most `limit` loads at once per key (a sandbox origin); further ones wait their turn in order. Many proxy pages
 * of one origin share one renderer process: loading them all at once makes every one of them slow.
 */
export class LoadSlots {
  declare private readonly limit: number;
  /** Per key with loads: how many run, and the starts waiting in order. */
  private readonly slotsByKey = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /**
   * Calls `begin` once a slot for `key` is free (at once when one is). Returns the release: it frees the slot, or
   * withdraws the request when it has not begun; calling it again does nothing.
   */
  acquire(key: string, begin: () => void): () => void {
    let slot = this.slotsByKey.get(key);
    if (!slot) this.slotsByKey.set(key, (slot = { running: 0, waiting: [] }));
    const { waiting } = slot;
    let begun = false;
    let done = false;
    const start = () => {
      begun = true;
      slot.running++;
      begin();
    };
    if (slot.running < this.limit) start();
    else waiting.push(start);
    return () => {
      if (done) return;
      done = true;
      const next = begun ? (slot.running--, waiting.shift()) : void waiting.splice(waiting.indexOf(start), 1);
      next?.();
      if (!slot.running && !waiting.length) this.slotsByKey.delete(key);
    };
  }
}

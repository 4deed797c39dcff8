import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Keeps one store subscription open while the host is connected and re-opens it when any of its
 * dependencies (store, ids…) changes; `open` returns the closer, or undefined when there is nothing to watch.
 */
export class LiveSubscription implements ReactiveController {
  private deps: readonly unknown[] = [];
  private close: (() => void) | undefined;
  private connected = false;

  constructor(
    host: ReactiveControllerHost,
    private readonly getDeps: () => readonly unknown[],
    private readonly open: () => (() => void) | undefined,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.connected = true;
    this.sync();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.reset();
  }

  /** Runs before each render, so a new store or id is followed before it is drawn. */
  hostUpdate(): void {
    this.sync();
  }

  private sync(): void {
    if (!this.connected) return;
    const next = this.getDeps();
    if (this.close && next.length === this.deps.length && next.every((d, i) => d === this.deps[i])) return;
    this.reset();
    this.deps = next;
    this.close = this.open() ?? (() => {});
  }

  private reset(): void {
    this.close?.();
    this.close = undefined;
  }
}

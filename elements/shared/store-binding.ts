import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Base of the store-binding controllers (`StoreController`, `ChatController`, `ServerEntryController`,
 * `ToolCallController`, and the element-specific ones built with `StoreSubscription`): keeps a subscription open while
 * the host is connected, re-opens it when what it depends on (the store, a chat or server id…) changes, and follows a
 * replaced store before every render. A subclass says what it depends on (`dependencies`) and how to subscribe (`open`, returning the closer
 * or undefined when there is nothing to watch).
 */
export abstract class StoreBinding implements ReactiveController {
  declare protected readonly host: ReactiveControllerHost;
  declare private deps: readonly unknown[] | undefined;
  declare private close: (() => void) | undefined;
  private connected = false;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
    host.addController(this);
  }

  /** What the subscription depends on; compared by identity, entry by entry. */
  protected abstract dependencies(): readonly unknown[];

  /** Opens the subscription for the current dependencies; returns its closer, or undefined when there is nothing to watch. */
  protected abstract open(): (() => void) | undefined;

  /** Whether the host is connected (subscriptions are open only then). */
  protected get hostIsConnected(): boolean {
    return this.connected;
  }

  hostConnected(): void {
    this.connected = true;
    this.follow();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.shut();
  }

  /** Before each render: follows a new store or id before it is drawn. */
  hostUpdate(): void {
    this.follow();
  }

  /** Re-opens the subscription when a dependency changed; opens it when connected and not open yet. */
  protected follow(): void {
    const next = this.dependencies();
    const prev = this.deps;
    if (!prev || next.length !== prev.length || next.some((d, i) => d !== prev[i])) {
      this.shut();
      this.deps = next;
    }
    if (this.connected && !this.close) this.close = this.open() ?? (() => {});
  }

  private shut(): void {
    const close = this.close;
    this.close = undefined;
    close?.();
  }
}

/**
 * A one-off store subscription for what no shared controller covers: `open` subscribes (returning the closer) and is
 * called again whenever `dependencies` change.
 */
export class StoreSubscription extends StoreBinding {
  constructor(
    host: ReactiveControllerHost,
    private readonly getDependencies: () => readonly unknown[],
    private readonly subscribeTo: () => (() => void) | undefined,
  ) {
    super(host);
  }

  protected dependencies(): readonly unknown[] {
    return this.getDependencies();
  }

  protected open(): (() => void) | undefined {
    return this.subscribeTo();
  }
}

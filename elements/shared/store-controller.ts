import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionState } from '../../src/protocol/session.js';
import type { SessionStoreLike } from '../../src/store/types.js';

/** How a `StoreController` finds its store and what it selects. */
export interface StoreControllerOptions<T> {
  /** Returns the current store; read on connect and on every host update, so a store may arrive later. */
  getStore: () => SessionStoreLike | undefined;
  /** Picks what the host renders from the store's view (`undefined` before the snapshot). */
  select: (state: SessionState | undefined) => T;
  /** When two selections count as unchanged; identity by default. */
  equals?: (a: T, b: T) => boolean;
}

/**
 * Binds a host to a `SessionStoreLike`: subscribes while connected and requests a host update only
 * when the selected value changes. `value` is undefined while there is no store.
 */
export class StoreController<T> implements ReactiveController {
  /** The latest selection, or undefined while there is no store. */
  value: T | undefined;
  private readonly host: ReactiveControllerHost;
  private readonly options: StoreControllerOptions<T>;
  private store: SessionStoreLike | undefined;
  private unsubscribe: (() => void) | undefined;
  private connected = false;
  /** Whether the store had a session state at the last look: its arrival changes "loading" into "not found". */
  private loaded = false;

  constructor(host: ReactiveControllerHost, options: StoreControllerOptions<T>) {
    this.host = host;
    this.options = options;
    host.addController(this);
  }

  hostConnected(): void {
    this.connected = true;
    this.attach();
    this.onStoreChange();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.detach();
  }

  /** Runs before each render: follows a replaced store and re-selects (selectors may read host properties). */
  hostUpdate(): void {
    this.attach();
    const state = this.store?.getState();
    this.loaded = state !== undefined;
    this.value = this.store ? this.options.select(state) : undefined;
  }

  private attach(): void {
    const store = this.options.getStore();
    if (store !== this.store) {
      this.detach();
      this.store = store;
    }
    if (this.store && this.connected && !this.unsubscribe) {
      this.unsubscribe = this.store.subscribe(this.onStoreChange);
    }
  }

  private detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private readonly onStoreChange = (): void => {
    const state = this.store?.getState();
    const loaded = state !== undefined;
    const next = this.store ? this.options.select(state) : undefined;
    const prev = this.value;
    const same =
      next === undefined || prev === undefined
        ? next === prev
        : (this.options.equals ?? Object.is)(prev, next);
    if (same && loaded === this.loaded) return;
    this.loaded = loaded;
    this.value = next;
    this.host.requestUpdate();
  };
}

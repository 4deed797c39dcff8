import type { ReactiveControllerHost } from 'lit';
import type { SessionState } from '../../src/protocol/session.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { StoreBinding } from './store-binding.js';

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
export class StoreController<T> extends StoreBinding {
  /** The latest selection, or undefined while there is no store. */
  value: T | undefined;
  declare private readonly options: StoreControllerOptions<T>;
  /** Whether the store had a session state at the last look: its arrival changes "loading" into "not found". */
  private loaded = false;

  constructor(host: ReactiveControllerHost, options: StoreControllerOptions<T>) {
    super(host);
    this.options = options;
  }

  protected dependencies(): readonly unknown[] {
    return [this.options.getStore()];
  }

  protected open(): (() => void) | undefined {
    const store = this.options.getStore();
    return store?.subscribe(() => this.check(store));
  }

  override hostConnected(): void {
    super.hostConnected();
    this.check(this.options.getStore());
  }

  /** Runs before each render: follows a replaced store and re-selects (selectors may read host properties). */
  override hostUpdate(): void {
    super.hostUpdate();
    const store = this.options.getStore();
    const state = store?.getState();
    this.loaded = state !== undefined;
    this.value = store ? this.options.select(state) : undefined;
  }

  /** Re-selects from `store` and requests an update when the selection (or whether it is loaded) changed. */
  private check(store: SessionStoreLike | undefined): void {
    const state = store?.getState();
    const loaded = state !== undefined;
    const next = store ? this.options.select(state) : undefined;
    const prev = this.value;
    const same =
      next === undefined || prev === undefined
        ? next === prev
        : (this.options.equals ?? Object.is)(prev, next);
    if (same && loaded === this.loaded) return;
    this.loaded = loaded;
    this.value = next;
    this.host.requestUpdate();
  }
}

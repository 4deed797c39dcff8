import { ContextConsumer } from './context.js';
import type { ReactiveControllerHost } from 'lit';
import type { SessionStoreLike } from '../../src/store/types.js';
import { storeContext } from './store-context.js';

/**
 * The store an element uses: its own (`getOwn`, the `store` property) or else the one an ancestor `<ahp-session>`
 * provides; a provided store that changes requests a host update. The store-binding controllers read it through the
 * element's `currentStore`.
 *
 * ```ts
 * private readonly stores = new StoreConsumer(this, () => this.store);
 * get currentStore() { return this.stores.value; }
 * ```
 */
export class StoreConsumer {
  declare private readonly getOwn: () => SessionStoreLike | undefined;
  declare private readonly consumer: ContextConsumer<typeof storeContext>;

  constructor(host: ReactiveControllerHost & HTMLElement, getOwn: () => SessionStoreLike | undefined) {
    this.getOwn = getOwn;
    this.consumer = new ContextConsumer(host, storeContext);
  }

  /** The store in use: the element's own, else the provided one; undefined while there is none. */
  get value(): SessionStoreLike | undefined {
    return this.getOwn() ?? this.consumer.value;
  }
}

import type { Context, ContextCallback, ContextType } from '@lit/context';
import type { ReactiveController, ReactiveControllerHost } from 'lit';

// The context community protocol (https://github.com/webcomponents-cg/community-protocols/blob/main/proposals/context.md)
// as the elements use it: `<ahp-session>` provides, the other elements consume with `subscribe`. It answers and sends
// the same `context-request` and `context-provider` events as `@lit/context` (1.1), so page code that uses
// `@lit/context`'s `ContextConsumer` or `ContextProvider` works with the elements; it is written here because only
// this part of the package is needed.

/** A `context-request` or `context-provider` event: bubbles, crosses shadow roots. */
const protocolEvent = <T extends object>(type: string, fields: T): Event & T =>
  Object.assign(new Event(type, { bubbles: true, composed: true }), fields);

interface Request {
  readonly context: unknown;
  readonly contextTarget?: Element;
  readonly callback: ContextCallback<unknown>;
  readonly subscribe?: boolean;
}

/** Provides a value to the elements under `host` that ask for `context`; subscribers hear every change. */
export class ContextProvider<C extends Context<unknown, unknown>> implements ReactiveController {
  // `#` fields: the minified builds shorten their names.
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #context: C;
  #value: ContextType<C> | undefined;
  /** Subscribed callbacks → their host and the function that unsubscribes them. */
  readonly #subscriptions = new Map<ContextCallback<ContextType<C>>, [Element, () => void]>();

  constructor(host: ReactiveControllerHost & HTMLElement, context: C) {
    this.#host = host;
    this.#context = context;
    host.addEventListener('context-request', (e) => {
      const ev = e as Event & Request;
      const target = this.#asker(ev);
      if (!target) return;
      const callback = ev.callback as ContextCallback<ContextType<C>>;
      if (!ev.subscribe) return callback(this.#value as ContextType<C>);
      if (!this.#subscriptions.has(callback)) this.#subscriptions.set(callback, [target, () => this.#subscriptions.delete(callback)]);
      callback(this.#value as ContextType<C>, this.#subscriptions.get(callback)![1]);
    });
    // A provider of the same context appeared below this one: its consumers ask again, and the closer one answers.
    host.addEventListener('context-provider', (e) => {
      if (!this.#asker(e as Event & Request)) return;
      for (const [callback, [target]] of this.#subscriptions) target.dispatchEvent(protocolEvent('context-request', { context, contextTarget: target, callback, subscribe: true }));
    });
    host.addController(this);
  }

  /** The element behind a request for this context, when it is not the host itself (the event then stops here). */
  #asker(ev: Event & Request): Element | undefined {
    if (ev.context !== this.#context) return undefined;
    const target = ev.contextTarget ?? (ev.composedPath()[0] as Element);
    if (target === this.#host) return undefined;
    ev.stopPropagation();
    return target;
  }

  hostConnected(): void {
    this.#host.dispatchEvent(protocolEvent('context-provider', { context: this.#context, contextTarget: this.#host }));
  }

  /** Sets the value; subscribers are called when it changed (`Object.is`). */
  setValue(value: ContextType<C> | undefined): void {
    if (Object.is(value, this.#value)) return;
    this.#value = value;
    for (const [callback, [, unsubscribe]] of this.#subscriptions) callback(value as ContextType<C>, unsubscribe);
  }
}

/** The value the nearest provider of `context` above `host` holds, followed as it changes (the host re-renders). */
export class ContextConsumer<C extends Context<unknown, unknown>> implements ReactiveController {
  declare value: ContextType<C> | undefined;
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #context: C;
  #unsubscribe: (() => void) | undefined;

  constructor(host: ReactiveControllerHost & HTMLElement, context: C) {
    this.#host = host;
    this.#context = context;
    host.addController(this);
  }

  readonly #callback = (value: ContextType<C>, unsubscribe?: () => void): void => {
    // A closer provider answered: leave the one that answered before.
    if (this.#unsubscribe && this.#unsubscribe !== unsubscribe) this.#unsubscribe();
    this.value = value;
    this.#host.requestUpdate();
    this.#unsubscribe = unsubscribe;
  };

  hostConnected(): void {
    this.#host.dispatchEvent(protocolEvent('context-request', { context: this.#context, contextTarget: this.#host, callback: this.#callback, subscribe: true }));
  }

  hostDisconnected(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}

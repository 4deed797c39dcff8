/** Lifecycle of the connection behind a session. */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'open' }
  /** Waiting to try again: `attempt` counts from 1; `nextAttemptAt` is when (epoch ms), absent while an attempt runs. */
  | { kind: 'reconnecting'; attempt: number; nextAttemptAt?: number }
  | { kind: 'closed'; reason?: string };

/** Holds the current connection state and tells subscribers about every change. */
export class ConnectionStateHub {
  #state: ConnectionState;
  readonly #listeners = new Set<(state: ConnectionState) => void>();
  readonly #onError: (err: unknown) => void;

  constructor(initial: ConnectionState = { kind: 'connecting' }, onError: (err: unknown) => void = (err) => console.error('connection listener threw', err)) {
    this.#state = initial;
    this.#onError = onError;
  }

  get(): ConnectionState {
    return this.#state;
  }

  /** Sets the state (a new object is a change) and tells every listener; one listener throwing does not stop the others. */
  set(state: ConnectionState): void {
    if (state === this.#state) return;
    this.#state = state;
    for (const l of [...this.#listeners]) {
      try {
        l(state);
      } catch (err) {
        this.#onError(err);
      }
    }
  }

  subscribe(listener: (state: ConnectionState) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  clear(): void {
    this.#listeners.clear();
  }
}

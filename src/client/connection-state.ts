/** Lifecycle of the connection behind a session. */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'open' }
  /** Waiting to try again: `attempt` counts from 1; `nextAttemptAt` is when (epoch ms), absent while an attempt runs. */
  | { kind: 'reconnecting'; attempt: number; nextAttemptAt?: number }
  | { kind: 'closed'; reason?: string };

/** The current connection state and its listeners (one listener throwing does not stop the others). */
export interface ConnectionStateHub {
  get(): ConnectionState;
  /** Sets the state (a new object is a change) and tells every listener. */
  set(state: ConnectionState): void;
  subscribe(listener: (state: ConnectionState) => void): () => void;
}

/** A ConnectionStateHub starting at `initial` (default `connecting`); `onError` hears about throwing listeners. */
export function connectionStateHub(initial: ConnectionState = { kind: 'connecting' }, onError: (err: unknown) => void = console.error): ConnectionStateHub {
  let state = initial;
  const listeners = new Set<(state: ConnectionState) => void>();
  return {
    get: () => state,
    set(next) {
      if (next === state) return;
      state = next;
      for (const l of [...listeners]) {
        try {
          l(next);
        } catch (err) {
          onError(err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

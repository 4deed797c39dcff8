/** Runs one request with a signal of its own that follows the turn's signal only while the request runs. */

/**
 * The SDK never removes the abort listener it adds to a request's signal, so a long-lived turn signal would
 * collect one listener per request and, on abort, send `notifications/cancelled` for requests that finished long ago.
 */
export async function withScopedSignal<T>(parent: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const child = new AbortController();
  const forward = () => child.abort(parent.reason);
  if (parent.aborted) forward();
  else parent.addEventListener('abort', forward, { once: true });
  try {
    return await run(child.signal);
  } finally {
    parent.removeEventListener('abort', forward);
  }
}

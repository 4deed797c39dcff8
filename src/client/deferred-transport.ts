import type { JsonRpcPayload, Transport } from './transport.js';
import { errorText } from '../protocol/guards.js';

/**
 * A Transport usable at once while the real one is still opening: sends are queued until it opens;
 * if opening fails, `onclose` fires with the error message.
 */
export function deferTransport(opening: Promise<Transport>): Transport {
  let inner: Transport | undefined;
  let closed = false;
  const queue: JsonRpcPayload[] = [];
  const finish = (reason?: string): void => {
    if (closed) return;
    closed = true;
    queue.length = 0;
    outer.onclose?.(reason);
  };
  const outer: Transport = {
    send(msg) {
      if (closed) return;
      if (inner) inner.send(msg);
      else queue.push(msg);
    },
    close() {
      if (closed) return;
      inner?.close();
      finish('closed by client');
    },
  };
  opening.then(
    (t) => {
      if (closed) {
        t.close();
        return;
      }
      inner = t;
      t.onmessage = (msg) => {
        if (!closed) outer.onmessage?.(msg);
      };
      t.onclose = (reason) => finish(reason);
      for (const msg of queue.splice(0)) t.send(msg);
    },
    (err: unknown) => finish(errorText(err)),
  );
  return outer;
}

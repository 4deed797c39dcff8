import type { JsonRpcPayload, Transport } from './transport.js';

class InMemoryTransport implements Transport {
  onmessage?: (msg: unknown) => void;
  onclose?: (reason?: string) => void;
  declare other: InMemoryTransport;
  closed = false;

  send(msg: JsonRpcPayload): void {
    if (this.closed) return;
    // A JSON round trip mimics the wire: no shared object identity, no non-JSON values.
    const copy: unknown = JSON.parse(JSON.stringify(msg));
    const target = this.other;
    queueMicrotask(() => target.onmessage?.(copy));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.other.closed = true;
    const other = this.other;
    // Queued after any in-flight messages, so they still arrive first (as on a WebSocket).
    queueMicrotask(() => {
      this.onclose?.('closed locally');
      other.onclose?.('closed by peer');
    });
  }
}

/** Two connected in-process transports `[clientSide, serverSide]`; delivery is asynchronous (microtasks). */
export function createInMemoryPair(): [Transport, Transport] {
  const a = new InMemoryTransport();
  const b = new InMemoryTransport();
  a.other = b;
  b.other = a;
  return [a, b];
}

import type { Transport } from '../rpc/transport.js';

/** A JSON-RPC message pipe to one View (through its sandbox proxy): the one `Transport` shape. */
export type BridgeTransport = Transport;

/**
 * A Transport over postMessage to `target`, pinned to `targetOrigin`; accepts only messages whose
 * `event.source` is `target` and whose `event.origin` is `targetOrigin` (every other frame and origin is
 * ignored). It listens from creation until `close()`; nothing is sent after close.
 */
export function windowTransport(target: Window, targetOrigin: string, self: Window = window): Transport {
  let closed = false;
  const onMessage = (event: MessageEvent): void => {
    if (event.source !== target || event.origin !== targetOrigin) return;
    transport.onmessage?.(event.data);
  };
  const transport: Transport = {
    send(message) {
      if (!closed) target.postMessage(message, targetOrigin);
    },
    close(reason) {
      if (closed) return;
      closed = true;
      self.removeEventListener('message', onMessage);
      transport.onclose?.(reason);
    },
  };
  self.addEventListener('message', onMessage);
  return transport;
}

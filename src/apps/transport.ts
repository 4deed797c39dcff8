/** A JSON-RPC message pipe to one View (through its sandbox proxy). */
export interface BridgeTransport {
  send(message: unknown): void;
  /** Starts delivering incoming messages; returns the stop function. */
  listen(handler: (message: unknown) => void): () => void;
}

/**
 * postMessage to `target` pinned to `targetOrigin`; accepts only messages whose `event.source` is
 * `target` and whose `event.origin` is `targetOrigin` (every other frame and origin is ignored).
 */
export function windowTransport(target: Window, targetOrigin: string, self: Window = window): BridgeTransport {
  return {
    send(message) {
      target.postMessage(message, targetOrigin);
    },
    listen(handler) {
      const onMessage = (event: MessageEvent): void => {
        if (event.source !== target || event.origin !== targetOrigin) return;
        handler(event.data);
      };
      self.addEventListener('message', onMessage);
      return () => self.removeEventListener('message', onMessage);
    },
  };
}

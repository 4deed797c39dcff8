import { ErrorCode } from '../protocol/index.js';
import { JsonRpcEngine } from '../rpc/json-rpc-engine.js';
import { RpcError } from './errors.js';
import type { Logger, Transport } from './transport.js';

export interface JsonRpcPeerOptions {
  /** Default per-request timeout in ms (30 000). 0 or Infinity disables it. */
  requestTimeoutMs?: number;
  log?: Logger;
}

/** Answers a request from the other side; throw an error with a numeric `code` to choose the error code. */
export type RequestHandler = (params: unknown) => unknown;
export type NotificationHandler = (params: unknown) => void;

/**
 * The client's side of one AHP connection: the JSON-RPC engine bound to a Transport, with handlers
 * registered by method. Numeric request ids, timeouts; malformed messages are logged and skipped.
 * `request` rejects with RpcError, RpcTimeoutError or ConnectionClosedError; `notify` drops what is sent after close.
 */
export class JsonRpcPeer extends JsonRpcEngine {
  readonly #transport: Transport;
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, Set<NotificationHandler>>();
  readonly #closeListeners = new Set<(reason?: string) => void>();

  constructor(transport: Transport, options: JsonRpcPeerOptions = {}) {
    super({
      send: (msg) => transport.send(msg),
      onRequest: (method, params) => {
        const handler = this.#requestHandlers.get(method);
        if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
        return handler(params);
      },
      onNotification: (method, params) => {
        for (const handler of [...(this.#notificationHandlers.get(method) ?? [])]) {
          try {
            handler(params);
          } catch (err) {
            this.log(`notification handler for '${method}' threw`, err);
          }
        }
      },
      log: options.log,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    });
    this.#transport = transport;
    transport.onmessage = (msg) => this.receive(msg);
    transport.onclose = (reason) => this.#handleClose(reason);
  }

  /** Serves requests of `method` from the other side (one handler per method). Returns an unregister function. */
  onRequest(method: string, handler: RequestHandler): () => void {
    this.#requestHandlers.set(method, handler);
    return () => {
      if (this.#requestHandlers.get(method) === handler) this.#requestHandlers.delete(method);
    };
  }

  /** Listens for notifications of `method`. Returns an unsubscribe function. */
  onNotification(method: string, handler: NotificationHandler): () => void {
    let set = this.#notificationHandlers.get(method);
    if (!set) this.#notificationHandlers.set(method, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Called once when the connection closes. Returns an unsubscribe function. */
  onClose(listener: (reason?: string) => void): () => void {
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Closes the transport; pending requests reject with ConnectionClosedError. */
  override close(): void {
    if (this.closed) return;
    this.#transport.close();
    this.#handleClose('closed by client');
  }

  #handleClose(reason?: string): void {
    if (this.closed) return;
    super.close(reason);
    for (const listener of [...this.#closeListeners]) {
      try {
        listener(reason);
      } catch (err) {
        this.log('close listener threw', err);
      }
    }
  }
}

import { ErrorCode } from '../protocol/index.js';
import { JsonRpcEngine } from '../rpc/json-rpc-engine.js';
import { RpcError } from './errors.js';
import { warnLogger, type Logger, type Transport } from './transport.js';
import { isRecord as isObject } from '../protocol/guards.js';

export interface JsonRpcPeerOptions {
  /** Default per-request timeout in ms (30 000). 0 or Infinity disables it. */
  requestTimeoutMs?: number;
  log?: Logger;
}

/** Answers a request from the other side; throw an error with a numeric `code` to choose the error code. */
export type RequestHandler = (params: unknown) => unknown;
export type NotificationHandler = (params: unknown) => void;

/**
 * The client's side of one AHP connection: the JSON-RPC engine on a Transport, with handlers registered by
 * method. Numeric request ids, timeouts; malformed messages are logged and skipped.
 */
export class JsonRpcPeer {
  readonly #transport: Transport;
  readonly #engine: JsonRpcEngine;
  readonly #log: Logger;
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, Set<NotificationHandler>>();
  readonly #closeListeners = new Set<(reason?: string) => void>();

  constructor(transport: Transport, options: JsonRpcPeerOptions = {}) {
    this.#transport = transport;
    this.#log = options.log ?? warnLogger;
    this.#engine = new JsonRpcEngine({
      send: (msg) => transport.send(msg),
      onRequest: (method, params) => this.#serve(method, params),
      onNotification: (method, params) => this.#dispatchNotification(method, params),
      log: this.#log,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    });
    transport.onmessage = (msg) => this.#engine.receive(msg);
    transport.onclose = (reason) => this.#handleClose(reason);
  }

  /** True once the connection closed. */
  get closed(): boolean {
    return this.#engine.closed;
  }

  /** Why the connection closed, if it did. */
  get closeReason(): string | undefined {
    return this.#engine.closeReason;
  }

  /** Sends a request; resolves with its result, rejects with RpcError, RpcTimeoutError or ConnectionClosedError. */
  request<R = unknown>(method: string, params?: unknown, options: { timeoutMs?: number } = {}): Promise<R> {
    return this.#engine.request<R>(method, params, options);
  }

  /** Sends a notification (no answer). Dropped when the connection is closed. */
  notify(method: string, params?: unknown): void {
    this.#engine.notify(method, params);
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
  close(): void {
    if (this.#engine.closed) return;
    this.#transport.close();
    this.#handleClose('closed by client');
  }

  #handleClose(reason?: string): void {
    if (this.#engine.closed) return;
    this.#engine.close(reason);
    for (const listener of [...this.#closeListeners]) {
      try {
        listener(reason);
      } catch (err) {
        this.#log('close listener threw', err);
      }
    }
  }

  #serve(method: string, params: unknown): unknown {
    const handler = this.#requestHandlers.get(method);
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    return handler(params);
  }

  #dispatchNotification(method: string, params: unknown): void {
    const handlers = this.#notificationHandlers.get(method);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      try {
        handler(params);
      } catch (err) {
        this.#log(`notification handler for '${method}' threw`, err);
      }
    }
  }
}

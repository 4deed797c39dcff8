import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage } from '../protocol/index.js';
import { ConnectionClosedError, RpcError, RpcTimeoutError } from './errors.js';
import { warnLogger, type Logger, type Transport } from './transport.js';

export interface JsonRpcPeerOptions {
  /** Default per-request timeout in ms (30 000). 0 or Infinity disables it. */
  requestTimeoutMs?: number;
  log?: Logger;
}

/** Answers a request from the other side; throw an error with a numeric `code` to choose the error code. */
export type RequestHandler = (params: unknown) => unknown;
export type NotificationHandler = (params: unknown) => void;

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is JsonRpcId => typeof v === 'number' || typeof v === 'string';

function toErrorObject(err: unknown): JsonRpcErrorObject {
  if (isObject(err) && typeof err.code === 'number' && Number.isInteger(err.code)) {
    const out: JsonRpcErrorObject = { code: err.code, message: typeof err.message === 'string' ? err.message : 'Error' };
    if (err.data !== undefined) out.data = err.data;
    return out;
  }
  return { code: -32603, message: err instanceof Error ? err.message : 'Internal error' };
}

/** One side of a JSON-RPC 2.0 connection: numeric request ids, timeouts, request/notification dispatch. */
export class JsonRpcPeer {
  readonly #transport: Transport;
  readonly #timeoutMs: number;
  readonly #log: Logger;
  readonly #pending = new Map<number, Pending>();
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, Set<NotificationHandler>>();
  readonly #closeListeners = new Set<(reason?: string) => void>();
  #nextId = 1;
  #closed = false;
  #closeReason: string | undefined;

  constructor(transport: Transport, options: JsonRpcPeerOptions = {}) {
    this.#transport = transport;
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#log = options.log ?? warnLogger;
    transport.onmessage = (msg) => this.#receive(msg);
    transport.onclose = (reason) => this.#handleClose(reason);
  }

  /** True once the connection closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Why the connection closed, if it did. */
  get closeReason(): string | undefined {
    return this.#closeReason;
  }

  /** Sends a request; resolves with its result, rejects with RpcError, RpcTimeoutError or ConnectionClosedError. */
  request<R = unknown>(method: string, params?: unknown, options: { timeoutMs?: number } = {}): Promise<R> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError(this.#closeReason));
    const id = this.#nextId++;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    return new Promise<R>((resolve, reject) => {
      const timer =
        timeoutMs > 0 && Number.isFinite(timeoutMs)
          ? setTimeout(() => {
              this.#pending.delete(id);
              reject(new RpcTimeoutError(method, timeoutMs));
            }, timeoutMs)
          : undefined;
      this.#pending.set(id, { method, resolve: resolve as (r: unknown) => void, reject, timer });
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Sends a notification (no answer). Dropped when the connection is closed. */
  notify(method: string, params?: unknown): void {
    if (this.#closed) return;
    this.#send({ jsonrpc: '2.0', method, params });
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
    if (this.#closed) return;
    this.#transport.close();
    this.#handleClose('closed by client');
  }

  #send(msg: JsonRpcMessage): void {
    try {
      this.#transport.send(msg);
    } catch (err) {
      this.#log('failed to send a message', err);
    }
  }

  #handleClose(reason?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeReason = reason;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      if (p.timer !== undefined) clearTimeout(p.timer);
      p.reject(new ConnectionClosedError(reason));
    }
    for (const listener of [...this.#closeListeners]) {
      try {
        listener(reason);
      } catch (err) {
        this.#log('close listener threw', err);
      }
    }
  }

  #receive(msg: unknown): void {
    if (this.#closed) return;
    if (!isObject(msg) || msg.jsonrpc !== '2.0') {
      this.#log('skipped a malformed JSON-RPC message', msg);
      return;
    }
    if (typeof msg.method === 'string') {
      if (isId(msg.id)) void this.#serveRequest(msg.id, msg.method, msg.params);
      else if (!('id' in msg)) this.#dispatchNotification(msg.method, msg.params);
      else this.#log('skipped a request with an invalid id', msg);
      return;
    }
    if (isId(msg.id) && ('result' in msg || isObject(msg.error))) {
      this.#settle(msg.id, msg);
      return;
    }
    this.#log('skipped a malformed JSON-RPC message', msg);
  }

  #settle(id: JsonRpcId, msg: Record<string, unknown>): void {
    const pending = typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (!pending) {
      this.#log(`skipped a response for unknown request id ${String(id)}`);
      return;
    }
    this.#pending.delete(id as number);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    if (isObject(msg.error)) {
      const { code, message, data } = msg.error;
      pending.reject(
        new RpcError(typeof code === 'number' ? code : -32603, typeof message === 'string' ? message : `'${pending.method}' failed`, data),
      );
    } else {
      pending.resolve(msg.result);
    }
  }

  async #serveRequest(id: JsonRpcId, method: string, params: unknown): Promise<void> {
    const handler = this.#requestHandlers.get(method);
    if (!handler) {
      this.#send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
      return;
    }
    try {
      const result = await handler(params);
      if (!this.#closed) this.#send({ jsonrpc: '2.0', id, result: result ?? null });
    } catch (err) {
      if (!this.#closed) this.#send({ jsonrpc: '2.0', id, error: toErrorObject(err) });
    }
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

import type { JsonRpcId, JsonRpcResponse } from '../protocol/json-rpc.js';
import { ConnectionClosedError, RpcTimeoutError, fromErrorObject, toErrorObject } from './errors.js';
import { warnLogger, type JsonRpcPayload, type Logger } from './transport.js';
import { isRecord } from '../protocol/guards.js';

/** What a request handler learns about the request it serves. */
export interface IncomingRequest {
  /** The request's id (null only in `JsonRpcServer`, which serves JSON-RPC 2.0 in full). */
  readonly id: JsonRpcId | null;
  /** Aborted when the request is cancelled (`cancelIncoming`) or the engine closes; its answer is then never sent. */
  readonly signal: AbortSignal;
}

export interface JsonRpcEngineOptions {
  /** Puts one message (or a batch answer) on the wire. A throw fails the request being sent, or is logged; never raised. */
  send(payload: JsonRpcPayload): void;
  /**
   * Serves a request: return the result (or a promise of it); throw an error with an integer `code` to
   * answer with that code (else -32603), e.g. RpcError -32601 for a method it does not serve.
   */
  onRequest(method: string, params: unknown, request: IncomingRequest): unknown;
  /** Receives a notification. A throw is logged. */
  onNotification?(method: string, params: unknown): void;
  log?: Logger;
  /** Default timeout of outgoing requests in ms; 0 or Infinity (the default): none. */
  requestTimeoutMs?: number;
  /** Ids of outgoing requests (default 1, 2, 3…). */
  nextId?: () => JsonRpcId;
  /** The error a request rejects with after its timeout (default RpcTimeoutError). */
  timeoutError?: (method: string, timeoutMs: number) => Error;
  /** The error pending work ends with when the engine closes (default ConnectionClosedError). */
  closedError?: (reason: string | undefined) => Error;
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export type Answer = JsonRpcResponse | undefined;

export const isId = (v: unknown): v is JsonRpcId => typeof v === 'number' || typeof v === 'string';
export const isThenable = (v: unknown): v is PromiseLike<unknown> => isRecord(v) && typeof v.then === 'function';

/**
 * One side of a JSON-RPC 2.0 connection, used by the client, the host and the Apps bridge: outgoing
 * requests with pending-response tracking and timeouts, notifications, serving incoming requests
 * (synchronous results are answered at once, so an answer never trails what the handler sent), error
 * objects, cancellation of incoming requests, and closing. Transport-agnostic: `receive` what arrives,
 * `options.send` what goes out. Anything but one well-formed message is logged and skipped; `JsonRpcServer`
 * answers it instead, as a JSON-RPC 2.0 server must.
 */
export class JsonRpcEngine {
  readonly #options: JsonRpcEngineOptions;
  declare protected readonly log: Logger;
  /** Whether id null is a request (answered with id null) rather than an invalid message. */
  declare protected readonly nullIdIsRequest?: boolean;
  readonly #pending = new Map<JsonRpcId, Pending>();
  /** Incoming requests whose answer is still being computed, by id. */
  readonly #incoming = new Map<JsonRpcId | null, AbortController>();
  #counter = 1;
  #closed = false;
  #closeReason: string | undefined;

  constructor(options: JsonRpcEngineOptions) {
    this.#options = options;
    this.log = options.log ?? warnLogger;
  }

  /** True once `close` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The reason given to `close`, if any. */
  get closeReason(): string | undefined {
    return this.#closeReason;
  }

  /** Sends a request; resolves with its result, rejects with RpcError, the timeout error, the closed error, or what `send` threw. */
  request<R = unknown>(method: string, params?: unknown, options: { timeoutMs?: number } = {}): Promise<R> {
    if (this.#closed) return Promise.reject(this.#closedError());
    const id = this.#options.nextId?.() ?? this.#counter++;
    const timeoutMs = options.timeoutMs ?? this.#options.requestTimeoutMs ?? 0;
    return new Promise<R>((resolve, reject) => {
      const timer =
        timeoutMs > 0 && Number.isFinite(timeoutMs)
          ? setTimeout(() => {
              this.#pending.delete(id);
              reject(this.#options.timeoutError?.(method, timeoutMs) ?? new RpcTimeoutError(method, timeoutMs));
            }, timeoutMs)
          : undefined;
      this.#pending.set(id, { method, resolve: resolve as (r: unknown) => void, reject, timer });
      try {
        this.#send({ jsonrpc: '2.0', id, method, params });
      } catch (err) {
        // A request that cannot go on the wire (params JSON cannot carry, a transport that throws) fails now, not at its timeout.
        this.#pending.delete(id);
        clearTimeout(timer);
        reject(err);
      }
    });
  }

  /** Sends a notification (no answer). Dropped once closed. */
  notify(method: string, params?: unknown): void {
    if (!this.#closed) this.send({ jsonrpc: '2.0', method, params });
  }

  /** Handles one incoming message; never throws. */
  receive(msg: unknown): void {
    if (this.#closed) return;
    const answer = this.handle(msg);
    if (isThenable(answer)) void answer.then((a) => a && this.send(a));
    else if (answer) this.send(answer);
  }

  /** Ends an incoming request still being served: its handler's signal aborts with `reason` and it gets no answer. */
  cancelIncoming(id: JsonRpcId, reason: Error): void {
    const controller = this.#incoming.get(id);
    this.#incoming.delete(id);
    controller?.abort(reason);
  }

  /** Stops the engine: pending requests reject and requests being served abort, with the closed error. Idempotent. */
  close(reason?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeReason = reason;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      if (p.timer !== undefined) clearTimeout(p.timer);
      p.reject(this.#closedError());
    }
    const incoming = [...this.#incoming.values()];
    this.#incoming.clear();
    for (const controller of incoming) controller.abort(this.#closedError());
  }

  #closedError(): Error {
    return this.#options.closedError?.(this.#closeReason) ?? new ConnectionClosedError(this.#closeReason);
  }

  protected send(payload: JsonRpcPayload): void {
    try {
      this.#send(payload);
    } catch (err) {
      this.log('failed to send a message', err);
    }
  }

  #send(payload: JsonRpcPayload): void {
    if (!this.#closed) this.#options.send(payload);
  }

  /** Handles one message; returns the answer to send (to requests, and in `JsonRpcServer` to invalid messages). */
  protected handle(msg: unknown): Answer | PromiseLike<Answer> {
    if (!isRecord(msg) || msg.jsonrpc !== '2.0') return this.invalid(msg);
    const { method } = msg;
    // `id: undefined` (possible over postMessage, never in JSON) counts as no id.
    const hasId = msg.id !== undefined;
    if (typeof method === 'string') {
      if (!hasId) {
        this.#notification(method, msg.params);
        return undefined;
      }
      if (isId(msg.id) || (msg.id === null && this.nullIdIsRequest)) return this.#serve(msg.id, method, msg.params);
      return this.invalid(msg);
    }
    if ('result' in msg || 'error' in msg) {
      if (isId(msg.id) && ('result' in msg || isRecord(msg.error))) this.#settle(msg.id, msg);
      else this.log('skipped a malformed JSON-RPC response', msg);
      return undefined; // a response is never answered
    }
    return this.invalid(msg);
  }

  /** What a message that is not JSON-RPC 2.0 gets: logged and skipped here. */
  protected invalid(msg: unknown): Answer {
    this.log('skipped a malformed JSON-RPC message', msg);
    return undefined;
  }

  #settle(id: JsonRpcId, msg: Record<string, unknown>): void {
    const pending = this.#pending.get(id);
    if (!pending) {
      this.log(`skipped a response for unknown request id ${String(id)}`);
      return;
    }
    this.#pending.delete(id);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    if (isRecord(msg.error)) pending.reject(fromErrorObject(msg.error, pending.method));
    else pending.resolve(msg.result);
  }

  #serve(id: JsonRpcId | null, method: string, params: unknown): Answer | PromiseLike<Answer> {
    const failure = (err: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: toErrorObject(err) });
    const success = (result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id: id as JsonRpcId, result: result ?? null });
    const controller = new AbortController();
    let result: unknown;
    try {
      result = this.#options.onRequest(method, params, { id, signal: controller.signal });
    } catch (err) {
      return failure(err);
    }
    if (!isThenable(result)) return success(result);
    this.#incoming.set(id, controller);
    const answer = (make: () => JsonRpcResponse): Answer => {
      if (this.#incoming.get(id) === controller) this.#incoming.delete(id);
      return controller.signal.aborted || this.#closed ? undefined : make();
    };
    return result.then(
      (value) => answer(() => success(value)),
      (err: unknown) => answer(() => failure(err)),
    );
  }

  #notification(method: string, params: unknown): void {
    try {
      this.#options.onNotification?.(method, params);
    } catch (err) {
      this.log(`notification handler for '${method}' threw`, err);
    }
  }
}

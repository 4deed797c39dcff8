import { ErrorCode, type JsonRpcFailure, type JsonRpcId, type JsonRpcMessage, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { ConnectionClosedError, RpcError, RpcTimeoutError, fromErrorObject, toErrorObject } from './errors.js';
import { warnLogger, type JsonRpcPayload, type Logger } from './transport.js';
import { isRecord as isObject } from '../protocol/guards.js';

/** What a request handler learns about the request it serves. */
export interface IncomingRequest {
  /** The request's id (null only where the engine serves JSON-RPC 2.0 in full, see `answerInvalid`). */
  readonly id: JsonRpcId | null;
  /** Aborted when the request is cancelled (`cancelIncoming`) or the engine closes; its answer is then never sent. */
  readonly signal: AbortSignal;
}

export interface JsonRpcEngineOptions {
  /** Puts one message (or a batch answer) on the wire. A throw is logged, never raised. */
  send(payload: JsonRpcPayload): void;
  /**
   * Serves a request: return the result (or a promise of it); throw an error with an integer `code` to
   * answer with that code (else -32603). Without it every request is answered -32601.
   */
  onRequest?(method: string, params: unknown, request: IncomingRequest): unknown;
  /** Receives a notification. A throw is logged. */
  onNotification?(method: string, params: unknown): void;
  log?: Logger;
  /**
   * The full JSON-RPC 2.0 server behaviour (§4-§6): raw text or binary frames are parsed (not JSON or not
   * UTF-8: -32700), invalid messages are answered -32600, id null is a request answered with id null, and a
   * batch is answered as one array. Off (the default), anything but one well-formed message is logged and skipped.
   */
  answerInvalid?: boolean;
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

type Answer = JsonRpcResponse | undefined;

const isId = (v: unknown): v is JsonRpcId => typeof v === 'number' || typeof v === 'string';
const isThenable = (v: unknown): v is PromiseLike<unknown> => isObject(v) && typeof v.then === 'function';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One side of a JSON-RPC 2.0 connection, used by the client, the host and the Apps bridge: outgoing
 * requests with pending-response tracking and timeouts, notifications, serving incoming requests
 * (synchronous results are answered at once, so an answer never trails what the handler sent), error
 * objects, cancellation of incoming requests, and closing. Transport-agnostic: `receive` what arrives,
 * `options.send` what goes out.
 */
export class JsonRpcEngine {
  readonly #options: JsonRpcEngineOptions;
  readonly #log: Logger;
  readonly #pending = new Map<JsonRpcId, Pending>();
  /** Incoming requests whose answer is still being computed, by id. */
  readonly #incoming = new Map<JsonRpcId | null, AbortController>();
  #counter = 1;
  #closed = false;
  #closeReason: string | undefined;

  constructor(options: JsonRpcEngineOptions) {
    this.#options = options;
    this.#log = options.log ?? warnLogger;
  }

  /** True once `close` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The reason given to `close`, if any. */
  get closeReason(): string | undefined {
    return this.#closeReason;
  }

  /** Sends a request; resolves with its result, rejects with RpcError, the timeout error or the closed error. */
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
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Sends a notification (no answer). Dropped once closed. */
  notify(method: string, params?: unknown): void {
    if (!this.#closed) this.#send({ jsonrpc: '2.0', method, params });
  }

  /** Handles one incoming message (or frame); never throws. */
  receive(raw: unknown): void {
    if (this.#closed) return;
    let msg = raw;
    if (this.#options.answerInvalid) {
      const decoded = this.#decode(raw);
      if ('error' in decoded) return this.#send({ jsonrpc: '2.0', id: null, error: decoded.error });
      msg = decoded.value;
      if (Array.isArray(msg)) return this.#batch(msg);
    }
    const answer = this.#handle(msg);
    if (isThenable(answer)) void answer.then((a) => a && this.#send(a));
    else if (answer) this.#send(answer);
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

  #send(payload: JsonRpcPayload): void {
    if (this.#closed) return;
    try {
      this.#options.send(payload);
    } catch (err) {
      this.#log('failed to send a message', err);
    }
  }

  /** Parses one frame; a frame that is not JSON (or not UTF-8) is a -32700 parse error. */
  #decode(raw: unknown): { value: unknown } | { error: JsonRpcFailure['error'] } {
    let text: string;
    if (typeof raw === 'string') text = raw;
    else if (raw instanceof ArrayBuffer || ArrayBuffer.isView(raw)) {
      try {
        text = utf8.decode(raw);
      } catch {
        this.#log('answered a frame that is not UTF-8 with -32700');
        return { error: { code: ErrorCode.ParseError, message: 'Parse error: the frame is not valid UTF-8' } };
      }
    } else return { value: raw };
    try {
      return { value: JSON.parse(text) };
    } catch {
      this.#log('answered a frame that is not JSON with -32700');
      return { error: { code: ErrorCode.ParseError, message: 'Parse error: the frame is not valid JSON' } };
    }
  }

  /** A batch (JSON-RPC 2.0 §6): one array of answers, none when every entry was a notification. */
  #batch(list: unknown[]): void {
    if (list.length === 0) {
      this.#send({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: empty batch' } });
      return;
    }
    const answers = list.map((entry) => this.#handle(entry));
    const sendAll = (all: Answer[]): void => {
      const out = all.filter((a): a is JsonRpcResponse => a !== undefined);
      if (out.length > 0) this.#send(out);
    };
    if (answers.some(isThenable)) void Promise.all(answers).then(sendAll);
    else sendAll(answers as Answer[]);
  }

  /** Handles one message; returns the answer to send (requests and, with `answerInvalid`, invalid messages). */
  #handle(msg: unknown): Answer | Promise<Answer> {
    if (!isObject(msg) || msg.jsonrpc !== '2.0') return this.#invalid(msg);
    const { method } = msg;
    // `id: undefined` (possible over postMessage, never in JSON) counts as no id.
    const hasId = msg.id !== undefined;
    if (typeof method === 'string') {
      if (!hasId) {
        this.#notification(method, msg.params);
        return undefined;
      }
      if (isId(msg.id) || (msg.id === null && this.#options.answerInvalid)) return this.#serve(msg.id, method, msg.params);
      return this.#invalid(msg);
    }
    if ('result' in msg || 'error' in msg) {
      if (isId(msg.id) && ('result' in msg || isObject(msg.error))) this.#settle(msg.id, msg);
      else if (!this.#options.answerInvalid) this.#log('skipped a malformed JSON-RPC response', msg);
      return undefined; // a response is never answered
    }
    return this.#invalid(msg);
  }

  #invalid(msg: unknown): Answer {
    if (!this.#options.answerInvalid) {
      this.#log('skipped a malformed JSON-RPC message', msg);
      return undefined;
    }
    const id = isObject(msg) && isId(msg.id) ? msg.id : null;
    return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request' } };
  }

  #settle(id: JsonRpcId, msg: Record<string, unknown>): void {
    const pending = this.#pending.get(id);
    if (!pending) {
      this.#log(`skipped a response for unknown request id ${String(id)}`);
      return;
    }
    this.#pending.delete(id);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    if (isObject(msg.error)) pending.reject(fromErrorObject(msg.error, pending.method));
    else pending.resolve(msg.result);
  }

  #serve(id: JsonRpcId | null, method: string, params: unknown): Answer | Promise<Answer> {
    const failure = (err: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: toErrorObject(err) });
    const success = (result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id: id as JsonRpcId, result: result ?? null });
    const { onRequest } = this.#options;
    if (!onRequest) return failure(new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`));
    const controller = new AbortController();
    let result: unknown;
    try {
      result = onRequest(method, params, { id, signal: controller.signal });
    } catch (err) {
      return failure(err);
    }
    if (!isThenable(result)) return success(result);
    this.#incoming.set(id, controller);
    const answer = (make: () => JsonRpcResponse): Answer => {
      if (this.#incoming.get(id) === controller) this.#incoming.delete(id);
      return controller.signal.aborted || this.#closed ? undefined : make();
    };
    return Promise.resolve(result).then(
      (value) => answer(() => success(value)),
      (err: unknown) => answer(() => failure(err)),
    );
  }

  #notification(method: string, params: unknown): void {
    try {
      this.#options.onNotification?.(method, params);
    } catch (err) {
      this.#log(`notification handler for '${method}' threw`, err);
    }
  }
}

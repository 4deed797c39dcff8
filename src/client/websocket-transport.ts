import { warnLogger, type JsonRpcPayload, type Logger, type Transport } from './transport.js';

/** The subset of the WebSocket API used here; the browser's WebSocket and the `ws` package both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: never) => void) | null;
  onmessage: ((ev: never) => void) | null;
  onerror: ((ev: never) => void) | null;
  onclose: ((ev: never) => void) | null;
}

/** A WebSocket constructor (`globalThis.WebSocket`, or `WebSocket` from `ws` in Node). */
export type WebSocketConstructorLike = new (url: string, protocols?: string | string[]) => WebSocketLike;

export interface WebSocketTransportOptions {
  /** WebSocket implementation; defaults to `globalThis.WebSocket`. */
  WebSocket?: WebSocketConstructorLike;
  /** Subprotocols (browsers can carry transport auth here). */
  protocols?: string | string[];
  log?: Logger;
}

const OPEN = 1;
const utf8 = new TextDecoder();

// Never put a query string (may hold a token) into error messages.
const redact = (url: string): string => url.replace(/[?#].*$/, '');

function closeReason(ev: { code?: number; reason?: string }): string {
  // 1009 (RFC 6455 §7.4.1) comes without a reason from hosts whose WebSocket library enforces the frame limit.
  return ev.reason || `WebSocket closed (code ${ev.code ?? 'unknown'}${ev.code === 1009 ? ': message too big' : ''})`;
}

/** JSON-RPC over one WebSocket: one JSON message per text frame; binary frames are decoded as UTF-8. */
export class WebSocketTransport implements Transport {
  readonly #socket: WebSocketLike;
  readonly #log: Logger;
  #closed = false;
  #onmessage: ((msg: unknown) => void) | undefined;
  #onclose: ((reason?: string) => void) | undefined;
  // Frames (and a close) can arrive before the caller attached handlers; hold them until then.
  #backlog: ({ msg: unknown } | { close: string })[] | null = [];
  #flushScheduled = false;

  private constructor(socket: WebSocketLike, log: Logger) {
    this.#socket = socket;
    this.#log = log;
    socket.onmessage = (ev: { data: unknown }) => this.#receive(ev.data);
    socket.onerror = () => {}; // the close event that follows carries the reason
    socket.onclose = (ev: { code?: number; reason?: string }) => this.#finish(closeReason(ev));
  }

  /** Opens a WebSocket to `url`; resolves once it is open, rejects if it fails to open. */
  static connect(url: string, options: WebSocketTransportOptions = {}): Promise<Transport> {
    const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructorLike }).WebSocket;
    if (!Ctor) {
      return Promise.reject(new Error("No WebSocket implementation found: pass { WebSocket } (in Node: import { WebSocket } from 'ws')"));
    }
    return new Promise((resolve, reject) => {
      let socket: WebSocketLike;
      try {
        socket = new Ctor(url, options.protocols);
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      socket.binaryType = 'arraybuffer';
      socket.onerror = () => {};
      socket.onclose = (ev: { code?: number; reason?: string }) =>
        reject(new Error(`WebSocket connection to ${redact(url)} failed: ${closeReason(ev)}`));
      socket.onopen = () => resolve(new WebSocketTransport(socket, options.log ?? warnLogger));
    });
  }

  get onmessage(): ((msg: unknown) => void) | undefined {
    return this.#onmessage;
  }
  set onmessage(handler: ((msg: unknown) => void) | undefined) {
    this.#onmessage = handler;
    this.#scheduleFlush();
  }
  get onclose(): ((reason?: string) => void) | undefined {
    return this.#onclose;
  }
  set onclose(handler: ((reason?: string) => void) | undefined) {
    this.#onclose = handler;
    this.#scheduleFlush();
  }

  send(msg: JsonRpcPayload): void {
    if (this.#closed || this.#socket.readyState !== OPEN) return;
    this.#socket.send(JSON.stringify(msg));
  }

  close(): void {
    if (this.#closed) return;
    this.#socket.close(1000, 'closed by client');
    this.#finish('closed by client');
  }

  #finish(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#emit({ close: reason });
  }

  // Flushing a microtask later lets a caller finish wiring (e.g. AhpClient registers listeners after its peer).
  #scheduleFlush(): void {
    if (!this.#backlog || this.#flushScheduled) return;
    this.#flushScheduled = true;
    queueMicrotask(() => {
      const backlog = this.#backlog ?? [];
      this.#backlog = null;
      for (const event of backlog) this.#deliver(event);
    });
  }

  #emit(event: { msg: unknown } | { close: string }): void {
    if (this.#backlog) this.#backlog.push(event);
    else this.#deliver(event);
  }

  #deliver(event: { msg: unknown } | { close: string }): void {
    if ('msg' in event) this.#onmessage?.(event.msg);
    else this.#onclose?.(event.close);
  }

  #receive(data: unknown): void {
    if (this.#closed) return;
    let text: string;
    if (typeof data === 'string') text = data;
    else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) text = utf8.decode(data);
    else {
      this.#log('skipped a WebSocket frame of unsupported type', data);
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (err) {
      this.#log('skipped a WebSocket frame that is not JSON', err);
      return;
    }
    this.#emit({ msg });
  }
}

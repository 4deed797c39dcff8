import type { JsonRpcPayload, Transport } from '../rpc/transport.js';
import type { HostConnection } from './host-connection.js';
import type { HostCore } from './host-core.js';
import { preparedResponseText } from './prepared-json.js';

/** Any Transport (e.g. the server side of `createInMemoryPair()`). */
export type TransportLike = Transport;

/** Serves a Transport with the host: every connection, whatever carries it, goes through here. */
export function attachTransport(host: HostCore, transport: Transport): HostConnection {
  const conn = host.connect({ send: (msg) => transport.send(msg as JsonRpcPayload), close: (reason) => transport.close(reason) });
  transport.onmessage = (msg) => conn.receive(msg);
  transport.onclose = () => conn.closed();
  return conn;
}

/**
 * Default largest WebSocket frame the host accepts: 16 MiB. The largest real MCP App resource (a 4.4 MB
 * PDF viewer) is about 5.9 MB as base64 inside a JSON-RPC message; 16 MiB leaves more than twice that,
 * and stays far below `ws`'s 100 MiB default that let one frame exhaust the process.
 */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** WebSocket close codes the host uses (RFC 6455 §7.4.1). */
export const CloseCode = { Normal: 1000, InvalidPayload: 1007, MessageTooBig: 1009 } as const;

/** A server-side WebSocket such as a `ws` WebSocket (`on('message')`, `on('close')`, `on('error')`). */
export interface ServerSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/** Options of `attachWebSocket` / `attachWebSocketServer`. */
export interface AttachWebSocketOptions {
  /** Largest frame accepted (bytes, default DEFAULT_MAX_FRAME_BYTES); a larger one closes that connection with 1009. */
  maxFrameBytes?: number;
  /** Where socket errors go (default console.warn); they never take the process down. */
  log?: (message: string, detail?: unknown) => void;
}

/**
 * Reason texts for the closes `ws` starts by itself when a frame is bad: it sends only the code, so the client
 * would see a bare 1007 / 1009. Each fits the 123 bytes a close reason may carry (RFC 6455 §5.5).
 */
export const CLOSE_REASONS: Readonly<Record<number, string>> = {
  1002: 'WebSocket protocol error',
  1007: 'invalid frame payload: a text frame must be valid UTF-8',
  1009: "frame over the host's size limit",
};

/**
 * Gives the closes `ws` starts after a receive error a reason text: `ws` calls the socket's own `close(code)`
 * before it emits 'error', so the only place to add the text is that call.
 */
function withCloseReasons(socket: ServerSocketLike): void {
  const close = socket.close.bind(socket);
  socket.close = (code?: number, reason?: string) => close(code, reason || (code !== undefined ? CLOSE_REASONS[code] : undefined));
}

const defaultLog = (message: string, detail?: unknown): void => console.warn(`[ahp host] ${message}`, ...(detail === undefined ? [] : [detail]));
const byteLength = (data: unknown): number =>
  typeof data === 'string' ? data.length : data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? data.byteLength : Array.isArray(data) ? data.reduce((n: number, b) => n + byteLength(b), 0) : 0;

/**
 * A server-side WebSocket as a Transport: raw text/binary frames in (the host parses them), one JSON text frame per
 * message out (a response whose result went through `prepareJsonResult` as its prepared text).
 */
function serverSocketTransport(socket: ServerSocketLike, options: AttachWebSocketOptions): Transport {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const log = options.log ?? defaultLog;
  withCloseReasons(socket);
  let closed = false;
  const closeSocket = (code: number, reason: string): void => {
    try {
      socket.close(code, reason);
    } catch (err) {
      log('failed to close a WebSocket', err);
    }
  };
  const transport: Transport = {
    send: (msg) => socket.send(preparedResponseText(msg) ?? JSON.stringify(msg)),
    close: (reason) => closeSocket(CloseCode.Normal, reason ?? ''),
  };
  const finish = (reason?: string): void => {
    if (closed) return;
    closed = true;
    transport.onclose?.(reason);
  };
  socket.on('message', (data: unknown) => {
    // A server made without `webSocketServerOptions` still refuses what is over the limit here.
    if (byteLength(data) > maxFrameBytes) closeSocket(CloseCode.MessageTooBig, `frame over ${maxFrameBytes} bytes`);
    else transport.onmessage?.(data);
  });
  socket.on('close', () => finish());
  socket.on('error', (err: Error & { code?: string }) => {
    // `ws` has already started closing with the matching code (1007 bad UTF-8, 1009 too big, 1002 protocol error).
    log(`closed a WebSocket after an error: ${err?.message ?? String(err)}`, err?.code);
    finish(err?.message);
  });
  return transport;
}

/**
 * Serves a server-side WebSocket with the host: one JSON message per text frame. A socket error (bad
 * UTF-8, a frame over the limit, a reset) is logged and ends only this connection, with close code 1007
 * or 1009 where the WebSocket library reports one.
 */
export function attachWebSocket(host: HostCore, socket: ServerSocketLike, options: AttachWebSocketOptions = {}): HostConnection {
  return attachTransport(host, serverSocketTransport(socket, options));
}

/** A WebSocket server such as `ws`'s WebSocketServer. */
export interface ServerLike {
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * Options for `new WebSocketServer({ ...webSocketServerOptions(), ... })` (the `ws` package): the frame
 * limit, enforced while reading the frame header, so an oversized frame is never buffered.
 */
export function webSocketServerOptions(options: Pick<AttachWebSocketOptions, 'maxFrameBytes'> = {}): { maxPayload: number } {
  return { maxPayload: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES };
}

/** Serves every connection of a WebSocket server with the host, with error handlers on the server and each socket. */
export function attachWebSocketServer(host: HostCore, server: ServerLike, options: AttachWebSocketOptions = {}): void {
  const log = options.log ?? defaultLog;
  server.on('error', (err: Error) => log(`WebSocket server error: ${err?.message ?? String(err)}`));
  server.on('connection', (socket: ServerSocketLike) => void attachWebSocket(host, socket, options));
}

import type { HostConnection } from './host-connection.js';
import type { HostCore } from './host-core.js';

/** A Transport-shaped object (e.g. the server side of `createInMemoryPair()`). */
export interface TransportLike {
  send(msg: never): void;
  close(): void;
  onmessage?: (msg: unknown) => void;
  onclose?: (reason?: string) => void;
}

/** Serves a Transport-shaped object with the host. */
export function attachTransport(host: HostCore, transport: TransportLike): HostConnection {
  const conn = host.connect({ send: (msg) => transport.send(msg as never), close: () => transport.close() });
  transport.onmessage = (msg) => conn.receive(msg);
  transport.onclose = () => conn.closed();
  return conn;
}

/** A server-side WebSocket such as a `ws` WebSocket (`on('message')`, `on('close')`). */
export interface ServerSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/** Serves a server-side WebSocket with the host: one JSON message per text frame. */
export function attachWebSocket(host: HostCore, socket: ServerSocketLike): HostConnection {
  const conn = host.connect({
    send: (msg) => socket.send(JSON.stringify(msg)),
    close: (reason) => socket.close(1000, reason),
  });
  socket.on('message', (data: unknown) => conn.receive(data));
  socket.on('close', () => conn.closed());
  return conn;
}

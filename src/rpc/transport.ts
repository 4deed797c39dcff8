import type { JsonRpcMessage } from '../protocol/json-rpc.js';

/** What one `Transport.send` carries: one message, or the answers to a batch (JSON-RPC 2.0 §6). */
export type JsonRpcPayload = JsonRpcMessage | JsonRpcMessage[];

/**
 * A reliable, ordered, bidirectional channel carrying whole JSON-RPC messages: the one shape every
 * transport has (WebSocket, in-memory pair, postMessage to a View, the host's server-side socket).
 */
export interface Transport {
  /** Sends one message (or a batch answer). Messages sent after close are dropped. */
  send(msg: JsonRpcPayload): void;
  /** Closes the channel; `onclose` fires once. */
  close(reason?: string): void;
  /** Called with each incoming message (parsed, or a raw text/binary frame where the transport does not parse); not yet validated. */
  onmessage?: (msg: unknown) => void;
  /** Called once when the channel closes, from either side. */
  onclose?: (reason?: string) => void;
}

/** Where diagnostics go (malformed frames, unknown response ids). */
export type Logger = (message: string, detail?: unknown) => void;

/** Default logger: console.warn. */
export const warnLogger: Logger = (message, detail) => {
  if (detail === undefined) console.warn(`[ahp] ${message}`);
  else console.warn(`[ahp] ${message}`, detail);
};

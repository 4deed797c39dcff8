import type { JsonRpcMessage } from '../protocol/index.js';

/** A reliable, ordered, bidirectional channel carrying whole JSON-RPC messages. */
export interface Transport {
  /** Sends one message. Messages sent after close are dropped. */
  send(msg: JsonRpcMessage): void;
  /** Closes the channel; `onclose` fires once. */
  close(): void;
  /** Called with each incoming message, already parsed (not yet validated). */
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

import { ErrorCode, type JsonRpcErrorObject } from '../protocol/json-rpc.js';
import { isRecord } from '../protocol/guards.js';

/**
 * A JSON-RPC error: what a peer answered, or what a request handler throws to answer with this code
 * (any error with an integer `code` works). The host's `HostRpcError` and the Apps bridge's `BridgeError`
 * are this class.
 */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }
}

/** A request got no answer within its timeout. */
export class RpcTimeoutError extends Error {
  readonly method: string;
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number) {
    super(`AHP request '${method}' got no answer within ${timeoutMs} ms`);
    this.name = 'RpcTimeoutError';
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/** The connection closed before (or while) a request could be answered. */
export class ConnectionClosedError extends Error {
  readonly reason: string | undefined;
  constructor(reason?: string) {
    super(reason ? `AHP connection closed: ${reason}` : 'AHP connection closed');
    this.name = 'ConnectionClosedError';
    this.reason = reason;
  }
}


/** The error object answering a request whose handler threw `err`: its integer `code`, else -32603. */
export function toErrorObject(err: unknown): JsonRpcErrorObject {
  if (isRecord(err) && typeof err.code === 'number' && Number.isInteger(err.code)) {
    const out: JsonRpcErrorObject = { code: err.code, message: typeof err.message === 'string' ? err.message : 'Error' };
    if (err.data !== undefined) out.data = err.data;
    return out;
  }
  return { code: ErrorCode.InternalError, message: err instanceof Error ? err.message : 'Internal error' };
}

/** The RpcError a request rejects with when the peer answered with this error object. */
export function fromErrorObject(error: Record<string, unknown>, method: string): RpcError {
  const { code, message, data } = error;
  return new RpcError(typeof code === 'number' ? code : ErrorCode.InternalError, typeof message === 'string' ? message : `'${method}' failed`, data);
}

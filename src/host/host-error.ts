/** Throw from a request handler to answer with this JSON-RPC error code (any error with a numeric `code` works). */
export class HostRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'HostRpcError';
    this.code = code;
    this.data = data;
  }
}

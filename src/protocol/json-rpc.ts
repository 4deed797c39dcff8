import { isRecord } from './guards.js';
/** JSON-RPC 2.0 message shapes as AHP uses them (numeric ids, one message per frame). */

export type JsonRpcId = number | string;

export interface JsonRpcRequest<P = unknown> {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: P;
}

export interface JsonRpcNotification<P = unknown> {
  jsonrpc: '2.0';
  method: string;
  params?: P;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess<R = unknown> {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: R;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse<R = unknown> = JsonRpcSuccess<R> | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Error codes: JSON-RPC standard codes plus the AHP range. Unknown codes must be tolerated. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  SessionNotFound: -32001,
  ProviderNotFound: -32002,
  SessionAlreadyExists: -32003,
  TurnInProgress: -32004,
  UnsupportedProtocolVersion: -32005,
  ContentNotFound: -32006,
  AuthRequired: -32007,
  NotFound: -32008,
  PermissionDenied: -32009,
  AlreadyExists: -32010,
  Conflict: -32011,
} as const;


/** True for a request (has `method` and an `id`). */
export function isJsonRpcRequest(m: unknown): m is JsonRpcRequest {
  return isRecord(m) && typeof m.method === 'string' && (typeof m.id === 'number' || typeof m.id === 'string');
}

/** True for a notification (has `method`, no `id`). */
export function isJsonRpcNotification(m: unknown): m is JsonRpcNotification {
  return isRecord(m) && typeof m.method === 'string' && !('id' in m);
}

/** True for a success or error response. */
export function isJsonRpcResponse(m: unknown): m is JsonRpcResponse {
  return isRecord(m) && typeof m.method !== 'string' && 'id' in m && ('result' in m || isRecord(m.error));
}

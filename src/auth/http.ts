import { AuthError, type AuthErrorCode } from './errors.js';
import type { FetchLike } from './types.js';

type Json = Record<string, unknown>;

/**
 * Fetches `url` and parses a JSON object. Network failures → `network_error`, a body that is not a JSON
 * object → `invalid_response`, an HTTP error → `failCode` with the OAuth `error`/`error_description` if sent.
 */
export async function requestJson(fetchFn: FetchLike, url: string, init: RequestInit, failCode: AuthErrorCode): Promise<Json> {
  let res: Response;
  try {
    res = await fetchFn(url, { ...init, headers: { accept: 'application/json', ...(init.headers as Record<string, string>) } });
  } catch (e) {
    throw new AuthError('network_error', url, undefined, { cause: e });
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const obj = body && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : undefined;
  if (!res.ok) {
    const err = typeof obj?.error === 'string' ? obj.error : undefined;
    const desc = typeof obj?.error_description === 'string' ? obj.error_description : undefined;
    throw new AuthError(failCode, desc ?? err ?? `HTTP ${res.status}`, err, { status: res.status });
  }
  if (!obj) throw new AuthError('invalid_response', url);
  return obj;
}

/** `application/x-www-form-urlencoded` POST init. */
export const formPost = (params: Record<string, string | undefined>, headers: Record<string, string> = {}): RequestInit => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, v);
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body };
};

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/** HTTPS, or plain HTTP on a loopback host (local development). */
export const isSecureUrl = (url: string): boolean => {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.test(u.hostname));
  } catch {
    return false;
  }
};

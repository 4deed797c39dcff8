import { AuthError } from './errors.js';
import { isSecureUrl, requestJson } from './http.js';
import type { AuthorizationServerMetadata, FetchLike } from './types.js';

/**
 * Metadata URLs to try for an issuer, in the MCP authorization spec's order: RFC 8414 with path insertion,
 * then OpenID Connect with path insertion, then OpenID Connect with the path appended. Without a path:
 * the RFC 8414 and OpenID Connect well-known URLs at the root.
 */
export function discoveryUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/+$/, '');
  const at = (p: string) => new URL(p, u.origin).href;
  if (!path) return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/** Same URL after WHATWG normalisation (so `https://as` and `https://as/` match, `/a` and `/a/` do not). */
export const sameUrl = (a: string, b: string): boolean => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
};

/**
 * Fetches the authorization server metadata for `issuer`. The document's `issuer` must equal `issuer`,
 * and the authorization and token endpoints must be present and use HTTPS (HTTP only on loopback).
 */
export async function discoverAuthorizationServer(issuer: string, fetchFn: FetchLike): Promise<AuthorizationServerMetadata> {
  if (!isSecureUrl(issuer)) throw new AuthError('insecure_url', issuer);
  let last: unknown;
  for (const url of discoveryUrls(issuer)) {
    let doc: Record<string, unknown>;
    try {
      doc = await requestJson(fetchFn, url, {}, 'discovery_failed');
    } catch (e) {
      last = e;
      continue;
    }
    if (typeof doc.issuer !== 'string' || !sameUrl(doc.issuer, issuer)) {
      throw new AuthError('issuer_mismatch', `expected ${issuer}, got ${String(doc.issuer)}`);
    }
    const meta = doc as AuthorizationServerMetadata;
    for (const key of ['authorization_endpoint', 'token_endpoint'] as const) {
      const v = meta[key];
      if (typeof v !== 'string') throw new AuthError('missing_endpoint', key);
      if (!isSecureUrl(v)) throw new AuthError('insecure_url', v);
    }
    return meta;
  }
  throw new AuthError('discovery_failed', issuer, undefined, { cause: last });
}

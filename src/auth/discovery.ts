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

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/**
 * The 2025-03-26 MCP authorization defaults for a server without authorization server metadata: `/authorize`,
 * `/token` and `/register` at its authorization base URL (its origin). That spec requires PKCE, so S256 is assumed.
 */
export function defaultEndpoints(baseUrl: string): AuthorizationServerMetadata {
  const origin = new URL(baseUrl).origin;
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  };
}

/**
 * Fetches the authorization server metadata for `issuer`. The document's `issuer` must equal `issuer`,
 * and the authorization and token endpoints must be present and use HTTPS (HTTP only on loopback).
 * When `resource` (the MCP server) names its own origin as the authorization server and no metadata exists there
 * (every well-known URL answers 4xx), its 2025-03-26 default endpoints are used.
 */
export async function discoverAuthorizationServer(issuer: string, fetchFn: FetchLike, resource?: string): Promise<AuthorizationServerMetadata> {
  if (!isSecureUrl(issuer)) throw new AuthError('insecure_url', issuer);
  let last: unknown;
  let none = true;
  for (const url of discoveryUrls(issuer)) {
    let doc: Record<string, unknown>;
    try {
      doc = await requestJson(fetchFn, url, {}, 'discovery_failed');
    } catch (e) {
      last = e;
      const status = (e as AuthError).status;
      none &&= status !== undefined && status >= 400 && status < 500;
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
  if (none && resource && sameUrl(issuer, originOf(resource))) return defaultEndpoints(issuer);
  throw new AuthError('discovery_failed', issuer, undefined, { cause: last });
}

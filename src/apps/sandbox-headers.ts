import { buildCsp, parseCspParam, sandboxPolicyOf, type SandboxPolicy } from './csp.js';

/** What a server must know to answer one sandbox proxy request. */
export interface SandboxHeaderOptions {
  /** The host page origin allowed to frame the proxy (`frame-ancestors`); omitted → any. */
  frameAncestors?: string;
  /** `compat` (default) or `strict` (see `SandboxPolicy`). */
  policy?: SandboxPolicy;
}

/**
 * Response headers for the sandbox proxy page: the View's CSP (from the `csp` query value, JSON of
 * `_meta.ui.csp`; no network when absent or malformed) under the chosen policy, no caching (the policy
 * differs per request), no MIME sniffing, no referrer. Works in Node and any server runtime.
 */
export function sandboxResponseHeaders(cspJson: string | null | undefined, options: SandboxHeaderOptions = {}): Record<string, string> {
  const frameAncestors = options.frameAncestors ? [options.frameAncestors] : [];
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': buildCsp(parseCspParam(cspJson), { frameAncestors, policy: sandboxPolicyOf(options.policy) }),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

/** `sandboxResponseHeaders` for a request URL of the proxy page (`?csp=<json>&parent=<origin>&policy=strict`). */
export function sandboxResponseHeadersForUrl(url: string | URL): Record<string, string> {
  const u = new URL(String(url), 'http://localhost');
  const parent = u.searchParams.get('parent');
  let frameAncestors: string | undefined;
  try {
    if (parent) frameAncestors = new URL(parent).origin;
  } catch {
    frameAncestors = undefined;
  }
  const policy = sandboxPolicyOf(u.searchParams.get('policy'));
  return sandboxResponseHeaders(u.searchParams.get('csp'), { ...(frameAncestors && { frameAncestors }), policy });
}

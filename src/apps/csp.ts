import type { McpUiResourceCsp } from './types.js';

// A CSP host-source: optional scheme, a host (optionally `*.`-prefixed) or IPv4, optional port, optional path.
// Anything else (keywords, bare `*`, scheme-only sources, separators, quotes, whitespace) is dropped so a
// resource cannot widen the policy beyond the domains it names or inject directives.
const HOST_SOURCE =
  /^(?:(?:https?|wss?):\/\/)?(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(?:\d{1,5}|\*))?(?:\/[A-Za-z0-9._~%!$&()*+=:@\/-]*)?$/i;

const MAX_DOMAINS = 64;

/** Keeps only well-formed host-source tokens (at most 64, deduplicated). */
export function sanitizeDomains(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string' || item.length > 253) continue;
    const token = item.trim();
    if (!HOST_SOURCE.test(token) || out.includes(token)) continue;
    out.push(token);
    if (out.length >= MAX_DOMAINS) break;
  }
  return out;
}

const KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

/** The CSP declaration actually applied: sanitized lists, unknown keys dropped; undefined when none was declared. */
export function normalizeCsp(csp: unknown): McpUiResourceCsp | undefined {
  if (typeof csp !== 'object' || csp === null || Array.isArray(csp)) return undefined;
  const out: McpUiResourceCsp = {};
  for (const key of KEYS) {
    const value = (csp as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = sanitizeDomains(value);
  }
  return out;
}

/** Restrictive default (spec: no `_meta.ui.csp` → no network, inline code only). */
export const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'";

const join = (...parts: string[]): string => parts.filter(Boolean).join(' ');

/**
 * The Content-Security-Policy for a View, from its resource's `_meta.ui.csp` (the spec's template):
 * resourceDomains → script/style/img/font/media-src, connectDomains → connect-src, frameDomains → frame-src
 * (else 'none'), baseUriDomains → base-uri (else 'self'); always `object-src 'none'`. `frameAncestors`
 * (origins allowed to frame the sandbox page) adds `frame-ancestors`.
 */
export function buildCsp(csp: unknown, options: { frameAncestors?: readonly string[] } = {}): string {
  const applied = normalizeCsp(csp);
  let policy: string;
  if (!applied) {
    policy = DEFAULT_CSP;
  } else {
    const r = (applied.resourceDomains ?? []).join(' ');
    const c = (applied.connectDomains ?? []).join(' ');
    const f = (applied.frameDomains ?? []).join(' ');
    const b = (applied.baseUriDomains ?? []).join(' ');
    policy = [
      "default-src 'none'",
      `script-src ${join("'self' 'unsafe-inline'", r)}`,
      `style-src ${join("'self' 'unsafe-inline'", r)}`,
      `connect-src ${join("'self'", c)}`,
      `img-src ${join("'self' data:", r)}`,
      `font-src ${join("'self' data:", r)}`,
      `media-src ${join("'self' data:", r)}`,
      `frame-src ${f || "'none'"}`,
      "object-src 'none'",
      `base-uri ${b || "'self'"}`,
    ].join('; ');
  }
  const ancestors = sanitizeDomains(options.frameAncestors ?? []);
  return ancestors.length ? `${policy}; frame-ancestors ${ancestors.join(' ')}` : policy;
}

/** Parses the `csp` query value of a sandbox URL (JSON); malformed → undefined (the restrictive default). */
export function parseCspParam(value: string | null | undefined): McpUiResourceCsp | undefined {
  if (!value) return undefined;
  try {
    return normalizeCsp(JSON.parse(value));
  } catch {
    return undefined;
  }
}

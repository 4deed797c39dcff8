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

/**
 * How much a View may do with the code it ships:
 * - `compat` (default): what the reference host (ext-apps basic-host) allows and the published Apps rely on:
 *   `'unsafe-eval' blob: data:` in `script-src` (three.js scenes via `new Function`, pdf.js's `data:` import),
 *   `worker-src 'self' blob:` (pdf.js worker), `blob:` images/fonts/media. `'unsafe-inline'` already lets a View
 *   run any code it ships, so these add little; the boundaries that matter are the separate origin and `connect-src`.
 * - `strict`: the spec's minimum (inline code only, no eval, no workers, no blob:).
 */
export type SandboxPolicy = 'compat' | 'strict';
export const SANDBOX_POLICIES: readonly SandboxPolicy[] = ['compat', 'strict'];

/** A known policy name, else `compat`. */
export function sandboxPolicyOf(value: unknown): SandboxPolicy {
  return value === 'strict' ? 'strict' : 'compat';
}

/** Restrictive default (spec: no `_meta.ui.csp` → no network, inline code only): the `strict` policy without declared domains. */
export const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'";

const join = (...parts: string[]): string => parts.filter(Boolean).join(' ');

/**
 * The Content-Security-Policy for a View, from its resource's `_meta.ui.csp` (the spec's template):
 * resourceDomains → script/style/img/font/media-src, connectDomains → connect-src, frameDomains → frame-src
 * (else 'none'), baseUriDomains → base-uri (else 'self'); always `object-src 'none'`. `policy` (default
 * `compat`) adds what published Apps need (see `SandboxPolicy`). `frameAncestors` (origins allowed to frame
 * the sandbox page) adds `frame-ancestors`.
 */
export function buildCsp(csp: unknown, options: { frameAncestors?: readonly string[]; policy?: SandboxPolicy } = {}): string {
  const applied = normalizeCsp(csp);
  const strict = sandboxPolicyOf(options.policy) === 'strict';
  let policy: string;
  if (!applied && strict) {
    policy = DEFAULT_CSP;
  } else {
    const r = (applied?.resourceDomains ?? []).join(' ');
    const c = (applied?.connectDomains ?? []).join(' ');
    const f = (applied?.frameDomains ?? []).join(' ');
    const b = (applied?.baseUriDomains ?? []).join(' ');
    const blob = strict ? '' : 'blob:';
    policy = [
      "default-src 'none'",
      `script-src ${join("'self' 'unsafe-inline'", strict ? '' : "'unsafe-eval' blob: data:", r)}`,
      `style-src ${join("'self' 'unsafe-inline'", blob, r)}`,
      // Without a declaration the View gets no network at all (spec), whatever the policy.
      `connect-src ${applied ? join("'self'", c) : "'none'"}`,
      `img-src ${join("'self' data:", blob, r)}`,
      `font-src ${join("'self' data:", blob, r)}`,
      `media-src ${join("'self' data:", blob, r)}`,
      ...(strict ? [] : [`worker-src ${join("'self' blob:", r)}`]),
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

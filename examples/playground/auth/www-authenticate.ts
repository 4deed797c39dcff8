/** Parses a `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3, RFC 9728 §5.1). */

export interface BearerChallenge {
  error?: string;
  errorDescription?: string;
  /** Space-separated `scope` split into a list. */
  scopes?: string[];
  resourceMetadata?: string;
}

/** The Bearer challenge's parameters, or undefined when the header has no Bearer challenge. */
export function parseBearerChallenge(header: string | null | undefined): BearerChallenge | undefined {
  if (!header) return undefined;
  const start = header.search(/(^|[\s,])Bearer(\s|$)/i);
  if (start < 0) return undefined;
  const rest = header.slice(start).replace(/^[\s,]*Bearer/i, '');
  const params = new Map<string, string>();
  // auth-param = token BWS "=" BWS ( token / quoted-string ); stop at the next scheme (a bare token not followed by "=").
  const re = /\s*,?\s*([A-Za-z0-9_.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/y;
  let m: RegExpExecArray | null;
  while ((m = re.exec(rest))) {
    const key = m[1]!.toLowerCase();
    if (!params.has(key)) params.set(key, m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? ''));
  }
  const out: BearerChallenge = {};
  const error = params.get('error');
  if (error) out.error = error;
  const description = params.get('error_description');
  if (description) out.errorDescription = description;
  const scope = params.get('scope');
  if (scope !== undefined) {
    const scopes = scope.split(/\s+/).filter(Boolean);
    if (scopes.length) out.scopes = scopes;
  }
  const rm = params.get('resource_metadata');
  if (rm) out.resourceMetadata = rm;
  return out;
}

/** Turns an MCP server's 401/403 Bearer challenge into an AHP `McpAuthRequirement` (fetching RFC 9728 metadata). */
import type { McpAuthRequiredReason, McpAuthRequirement, ProtectedResourceMetadata } from '../../../src/protocol/index.js';
import { parseBearerChallenge } from './www-authenticate.js';

/** A 401/403 answer seen on the server's HTTP transport. */
export interface HttpAuthChallenge {
  status: number;
  /** The raw `WWW-Authenticate` header (may be null: some servers send a bare 401). */
  wwwAuthenticate: string | null;
}

/** RFC 9728 §3.1 well-known locations for a resource URL: path-inserted first, then the origin root. */
export function protectedResourceMetadataUrls(serverUrl: string): string[] {
  const u = new URL(serverUrl);
  const path = u.pathname.replace(/\/$/, '');
  const root = `${u.origin}/.well-known/oauth-protected-resource`;
  return path && path !== '/' ? [`${root}${path}`, root] : [root];
}

/** Fetches the server's protected-resource metadata: the challenge's `resource_metadata`, else the well-known URLs. */
export async function fetchProtectedResourceMetadata(
  serverUrl: string,
  resourceMetadataUrl: string | undefined,
  fetchImpl: typeof fetch = fetch,
): Promise<ProtectedResourceMetadata> {
  const candidates = resourceMetadataUrl ? [resourceMetadataUrl] : protectedResourceMetadataUrls(serverUrl);
  const problems: string[] = [];
  for (const url of candidates) {
    try {
      const res = await fetchImpl(url, { headers: { accept: 'application/json' } });
      if (!res.ok) {
        problems.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      const json = (await res.json()) as Partial<ProtectedResourceMetadata> | null;
      if (!json || typeof json.resource !== 'string') {
        problems.push(`${url}: no "resource" in the metadata`);
        continue;
      }
      return json as ProtectedResourceMetadata;
    } catch (err) {
      problems.push(`${url}: ${(err as Error).message}`);
    }
  }
  throw new Error(`No protected-resource metadata for ${serverUrl} (${problems.join('; ')})`);
}

/** Reason for a 401: an expired/invalid token we had sent → `expired`; no token yet → `required`. 403 → `insufficientScope`. */
export function reasonFor(challenge: HttpAuthChallenge, hadToken: boolean): McpAuthRequiredReason {
  if (challenge.status === 403) return 'insufficientScope';
  const error = parseBearerChallenge(challenge.wwwAuthenticate)?.error;
  return hadToken && (error === 'invalid_token' || error === undefined) ? 'expired' : 'required';
}

/** Builds the requirement the host advertises (throws when no metadata can be found). */
export async function authRequirementFor(
  serverUrl: string,
  challenge: HttpAuthChallenge,
  reason: McpAuthRequiredReason,
  fetchImpl: typeof fetch = fetch,
): Promise<McpAuthRequirement> {
  const bearer = parseBearerChallenge(challenge.wwwAuthenticate);
  const resource = await fetchProtectedResourceMetadata(serverUrl, bearer?.resourceMetadata, fetchImpl);
  const req: McpAuthRequirement = { reason, resource };
  if (bearer?.scopes) req.requiredScopes = bearer.scopes;
  if (bearer?.errorDescription) req.description = bearer.errorDescription;
  return req;
}

/** Turns an MCP server's 401/403 Bearer challenge into an AHP `McpAuthRequirement` (fetching RFC 9728 metadata). */
import type { McpAuthRequiredReason, McpAuthRequirement, ProtectedResourceMetadata } from '../../../src/protocol/index.js';
import type { HttpServerConfig } from '../config.js';
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

/**
 * Whether metadata naming `resource` may speak for `serverUrl`: same origin, and the server's path is the
 * resource's path or below it. A mismatch means the metadata is not this server's (never ask for a token then).
 */
export function resourceCovers(resource: string, serverUrl: string): boolean {
  let r: URL;
  let s: URL;
  try {
    r = new URL(resource);
    s = new URL(serverUrl);
  } catch {
    return false;
  }
  if (r.origin !== s.origin) return false;
  const rp = r.pathname.endsWith('/') ? r.pathname : `${r.pathname}/`;
  const sp = s.pathname.endsWith('/') ? s.pathname : `${s.pathname}/`;
  return sp.startsWith(rp);
}

/**
 * Builds the requirement the host advertises. Without any protected-resource metadata (servers of the 2025-03-26
 * authorization spec) the server's origin is its authorization server. Throws when the metadata names another resource.
 */
export async function authRequirementFor(
  serverUrl: string,
  challenge: HttpAuthChallenge,
  reason: McpAuthRequiredReason,
  fetchImpl: typeof fetch = fetch,
): Promise<McpAuthRequirement> {
  const bearer = parseBearerChallenge(challenge.wwwAuthenticate);
  let resource: ProtectedResourceMetadata;
  try {
    resource = await fetchProtectedResourceMetadata(serverUrl, bearer?.resourceMetadata, fetchImpl);
  } catch (err) {
    if (bearer?.resourceMetadata) throw err; // the server named its metadata and it is unusable
    resource = { resource: serverUrl, authorization_servers: [new URL(serverUrl).origin] };
  }
  if (!resourceCovers(resource.resource, serverUrl)) {
    throw new Error(`The protected-resource metadata of ${serverUrl} names the resource ${resource.resource}, which is not this server; not asking for a token.`);
  }
  const req: McpAuthRequirement = { reason, resource };
  if (bearer?.scopes) req.requiredScopes = bearer.scopes;
  // Without a token the challenge's description only says so ("Missing Authorization header"): not for users.
  if (bearer?.errorDescription && reason !== 'required') req.description = bearer.errorDescription;
  return req;
}

/**
 * The playground's own OAuth server (`"builtin": "oauth-demo"`) gets a description that explains itself, including
 * why its sign-in expires so soon (`tokenLifetimeSeconds`, 60 s by default). Other servers' requirements pass as they are.
 */
export function withDemoNote(config: HttpServerConfig, requirement: McpAuthRequirement): McpAuthRequirement {
  if (config.builtin !== 'oauth-demo' || requirement.reason === 'insufficientScope') return requirement;
  const seconds = config.tokenLifetimeSeconds ?? 60;
  const description =
    requirement.reason === 'expired'
      ? `The playground's demo tokens last only ${seconds} s (tokenLifetimeSeconds in the config), so that you can see a sign-in expire. Sign in again to go on.`
      : `A demo OAuth server running on this machine: sign in on its consent page. Its tokens last ${seconds} s, so it will ask again soon.`;
  return { ...requirement, description };
}

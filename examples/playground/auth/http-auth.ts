/** Bearer credentials of one HTTP MCP server connection, and the 401/403 challenges its transport saw. */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpAuthRequirement, McpOAuthClient } from '../../../src/protocol/index.js';
import { authRequirementFor, reasonFor, type HttpAuthChallenge } from './auth-requirement.js';

/** A tool call or request the server refused for lack of (sufficient) authorization. */
export class McpAuthRequiredError extends Error {
  override name = 'McpAuthRequiredError';
  constructor(readonly serverId: string, readonly requirement: McpAuthRequirement) {
    super(`MCP server "${serverId}" needs authorization (${requirement.reason})${requirement.description ? `: ${requirement.description}` : ''}`);
  }
}

/** The token the host applies to a server's transport, and what its server said about it. */
export class HttpAuth {
  private token: string | undefined;
  /** Epoch ms after which the token is known to be expired (from `expiresIn`). */
  expiresAt: number | undefined;
  /** Scopes the client says the token grants. */
  scopes: string[] | undefined;
  /** The last 401/403 (with its header) the transport received. */
  lastChallenge: HttpAuthChallenge | undefined;
  /** The resource (RFC 8707) last advertised for this server, once any challenge was seen. */
  advertisedResource: string | undefined;
  /** The server has accepted the current token once (a later 401 then means it expired, not that it never worked). */
  accepted = false;

  /** True while a token is applied. */
  get hasToken(): boolean {
    return this.token !== undefined;
  }

  /** Applies (or, with an empty token, removes) the bearer token; the caller reconnects. */
  setToken(token: string, expiresIn?: number, scopes?: string[]): void {
    this.token = token === '' ? undefined : token;
    this.expiresAt = token !== '' && expiresIn !== undefined ? Date.now() + expiresIn * 1000 : undefined;
    this.scopes = token !== '' ? scopes : undefined;
    this.lastChallenge = undefined;
    this.accepted = false;
  }

  /** The transport's fetch: adds `Authorization: Bearer …` and records challenges. */
  readonly fetch: FetchLike = async (url, init) => {
    const headers = new Headers(init?.headers);
    if (this.token) headers.set('authorization', `Bearer ${this.token}`);
    const res = await fetch(url, { ...init, headers });
    if (res.status === 401 || res.status === 403) this.lastChallenge = { status: res.status, wwwAuthenticate: res.headers.get('www-authenticate') };
    return res;
  };

  /**
   * The requirement behind a failed request, or undefined when `err` is not an auth failure. A 403 counts only
   * with `insufficient_scope`. `hadToken` is whether the failed attempt carried a token (decides required/expired).
   */
  async requirementFor(err: unknown, serverUrl: string, hadToken: boolean, oauthClient?: McpOAuthClient): Promise<McpAuthRequirement | undefined> {
    const status = err instanceof StreamableHTTPError ? err.code : err instanceof UnauthorizedError ? 401 : undefined;
    const challenge = this.lastChallenge;
    if (status === undefined || !challenge || challenge.status !== status) return undefined;
    if (status === 403 && !/insufficient_scope/i.test(challenge.wwwAuthenticate ?? '')) return undefined;
    const requirement = await authRequirementFor(serverUrl, challenge, reasonFor(challenge, hadToken && this.accepted));
    if (oauthClient) requirement.oauthClient = oauthClient;
    this.advertisedResource = requirement.resource.resource;
    return requirement;
  }
}

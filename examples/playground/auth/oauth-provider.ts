/** In-memory OAuth authorization server state for the playground's protected MCP server (clients, consent, codes, tokens). */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidScopeError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { clientDisplayName, consentPage } from './consent-page.js';

const originOfUri = (uri: string): string | undefined => (URL.canParse(uri) ? new URL(uri).origin : undefined);

export interface ProviderOptions {
  /** Access token lifetime in seconds. */
  tokenLifetimeSeconds: number;
  /** Scopes this server knows; anything else is refused. */
  scopesSupported: string[];
  /** Granted when a client asks for no scope. */
  defaultScopes: string[];
  /** Where the consent form posts (absolute path on the authorization server). */
  consentPath: string;
}

interface PendingConsent {
  client: OAuthClientInformationFull;
  params: AuthorizationParams;
  createdAt: number;
}

interface IssuedCode {
  clientId: string;
  params: AuthorizationParams;
  scopes: string[];
  expiresAt: number;
}

interface AccessToken {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  resource?: URL;
}

interface RefreshToken {
  clientId: string;
  scopes: string[];
  resource?: URL;
}

const CODE_LIFETIME_MS = 60_000;
const CONSENT_LIFETIME_MS = 10 * 60_000;
const secret = () => randomBytes(24).toString('base64url');

class InMemoryClients implements OAuthRegisteredClientsStore {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  async getClient(clientId: string) {
    return this.clients.get(clientId);
  }
  async registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'> & Partial<OAuthClientInformationFull>) {
    const full = { ...client, client_id: client.client_id ?? randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
    this.clients.set(full.client_id, full);
    return full;
  }
}

/** The authorization server's provider: consent through a real HTML form, PKCE checked by the SDK's token handler. */
export class PlaygroundOAuthProvider implements OAuthServerProvider {
  readonly clientsStore = new InMemoryClients();
  private readonly consents = new Map<string, PendingConsent>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly accessTokens = new Map<string, AccessToken>();
  private readonly refreshTokens = new Map<string, RefreshToken>();

  constructor(readonly options: ProviderOptions) {}

  /** Shows the consent page; the decision comes back through `decide()`. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const scopes = this.grantableScopes(params.scopes);
    const id = secret();
    this.consents.set(id, { client, params, createdAt: Date.now() });
    res.status(200).type('html').set('Cache-Control', 'no-store').send(
      consentPage({
        consentId: id,
        action: this.options.consentPath,
        clientName: clientDisplayName(client),
        ...(originOfUri(params.redirectUri) && { redirectOrigin: originOfUri(params.redirectUri) }),
        scopes,
      }),
    );
  }

  /** Handles the consent form: the redirect URL to send the browser to (code or access_denied), or undefined for an unknown form. */
  decide(consentId: string, allow: boolean): string | undefined {
    const pending = this.consents.get(consentId);
    this.consents.delete(consentId);
    if (!pending || Date.now() - pending.createdAt > CONSENT_LIFETIME_MS) return undefined;
    const target = new URL(pending.params.redirectUri);
    if (pending.params.state !== undefined) target.searchParams.set('state', pending.params.state);
    if (!allow) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user denied access');
      return target.href;
    }
    const code = secret();
    this.codes.set(code, {
      clientId: pending.client.client_id,
      params: pending.params,
      scopes: this.grantableScopes(pending.params.scopes),
      expiresAt: Date.now() + CODE_LIFETIME_MS,
    });
    target.searchParams.set('code', code);
    return target.href;
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    return this.liveCode(client, authorizationCode).params.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    authorizationCode: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const code = this.liveCode(client, authorizationCode);
    this.codes.delete(authorizationCode); // one use only
    if (redirectUri !== undefined && redirectUri !== code.params.redirectUri) throw new InvalidGrantError('redirect_uri does not match the authorization request');
    const boundResource = code.params.resource ?? resource;
    if (resource && code.params.resource && resource.href !== code.params.resource.href) throw new InvalidGrantError('resource does not match the authorization request');
    return this.issue(client.client_id, code.scopes, boundResource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const stored = this.refreshTokens.get(refreshToken);
    if (!stored || stored.clientId !== client.client_id) throw new InvalidGrantError('Unknown or revoked refresh token');
    if (scopes?.some((s) => !stored.scopes.includes(s))) throw new InvalidScopeError('A refresh cannot add scopes');
    this.refreshTokens.delete(refreshToken); // rotate
    return this.issue(client.client_id, scopes?.length ? scopes : stored.scopes, resource ?? stored.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const stored = this.accessTokens.get(token);
    if (!stored) throw new InvalidTokenError('Unknown or revoked access token');
    return {
      token,
      clientId: stored.clientId,
      scopes: stored.scopes,
      // Rounded up: the SDK's bearer check compares whole seconds, so a token never dies before its lifetime.
      expiresAt: Math.ceil(stored.expiresAt / 1000),
      ...(stored.resource && { resource: stored.resource }),
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const a = this.accessTokens.get(request.token);
    if (a?.clientId === client.client_id) this.accessTokens.delete(request.token);
    const r = this.refreshTokens.get(request.token);
    if (r?.clientId === client.client_id) this.refreshTokens.delete(request.token);
  }

  /** Test/ops hook: every access token issued so far expires now (refresh tokens stay valid). */
  expireAccessTokens(): void {
    for (const t of this.accessTokens.values()) t.expiresAt = Date.now() - 2000;
  }

  /** Test/ops hook: every refresh token issued so far is revoked (the next refresh is refused with invalid_grant). */
  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  private liveCode(client: OAuthClientInformationFull, authorizationCode: string): IssuedCode {
    const code = this.codes.get(authorizationCode);
    if (!code || code.clientId !== client.client_id || code.expiresAt < Date.now()) throw new InvalidGrantError('Unknown, used or expired authorization code');
    return code;
  }

  private grantableScopes(requested: string[] | undefined): string[] {
    const asked = requested?.filter(Boolean) ?? [];
    if (!asked.length) return [...this.options.defaultScopes];
    const unknown = asked.filter((s) => !this.options.scopesSupported.includes(s));
    if (unknown.length) throw new InvalidScopeError(`Unknown scope: ${unknown.join(' ')}`);
    // The base scope always comes along, so a step-up token still works for everything else.
    return [...new Set([...this.options.defaultScopes, ...asked])];
  }

  private issue(clientId: string, scopes: string[], resource: URL | undefined): OAuthTokens {
    const access = secret();
    const refresh = secret();
    const lifetime = this.options.tokenLifetimeSeconds;
    this.accessTokens.set(access, { clientId, scopes, expiresAt: Date.now() + lifetime * 1000, ...(resource && { resource }) });
    this.refreshTokens.set(refresh, { clientId, scopes, ...(resource && { resource }) });
    return { access_token: access, token_type: 'Bearer', expires_in: lifetime, scope: scopes.join(' '), refresh_token: refresh };
  }
}

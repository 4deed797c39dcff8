import { callbackParams, PENDING_KEY, RESULT_KEY, type CallbackParams } from './callback.js';
import { resolveClientIdentity } from './client-identity.js';
import { discoverAuthorizationServer, sameUrl } from './discovery.js';
import { inflight } from './inflight.js';
import { AuthError } from './errors.js';
import { pkceChallenge, randomToken } from './pkce.js';
import { waitForPopupCallback } from './popup.js';
import { openPopupWindow } from './popup-window.js';
import { memoryRegistrationStore, memoryTokenStore } from './stores.js';
import { chooseScopes, remainingLifetime, requestToken } from './token.js';
import type {
  AuthenticateTarget,
  AuthorizationServerMetadata,
  AuthorizeOptions,
  AuthResult,
  ClientIdentity,
  FetchLike,
  McpAuthRequirement,
  RegistrationStore,
  StoredToken,
  TokenStore,
} from './types.js';
import { errorText } from '../protocol/guards.js';

const defaultTokens = memoryTokenStore();
const defaultRegistrations = memoryRegistrationStore();
const globalFetch: FetchLike = (url, init) => fetch(url, init);

/** A flow between the authorization request and the token exchange (kept in sessionStorage in redirect mode). */
interface PendingFlow {
  state: string;
  verifier: string;
  issuer: string;
  tokenEndpoint: string;
  issRequired: boolean;
  clientId: string;
  authMethod: ClientIdentity['authMethod'];
  redirectUri: string;
  resource: string;
  scopes?: string[];
  returnTo?: string;
}

/**
 * Runs OAuth for an `McpAuthRequirement` and hands the token to `client.authenticate`. In popup mode
 * (default) call it from a click handler: the popup opens before the first await (for an expired token too; it is
 * closed unused when the refresh token works). Concurrent calls for one resource share one flow; each call's
 * `client` gets the token. Fails with an `AuthError`; nothing is left open or pending.
 */
export function authorize(requirement: McpAuthRequirement, options: AuthorizeOptions): Promise<AuthResult> {
  const resource = requirement?.resource?.resource;
  if (typeof resource !== 'string' || !resource) return Promise.reject(new AuthError('invalid_response', 'requirement without resource'));
  let popup: Window | null | undefined = options.popup;
  const running = inflight.get(resource);
  // That flow has its popup already: a window opened for this call would stay blank. A flow for another client (the
  // host of another session on the page) hands its token to that client only: this one gets it once it is stored.
  if (running) return popup?.close(), running[1] === options.client ? running[0] : running[0].then((r) => (r.redirected ? r : handOver(resource, running[2], options)));
  // The callback page only posts to an opener of its own origin (and the redirect flow returns to this origin).
  if (typeof location !== 'undefined' && new URL(options.redirectUri, location.href).origin !== location.origin) {
    return Promise.reject(new AuthError('bad_redirect_uri', options.redirectUri));
  }
  // Opened before the first await, while the click's user activation lasts; the refresh of an expired token can
  // outlast it. Until that refresh is refused, a blocked window is no error: it is closed unused when the refresh works.
  if ((options.mode ?? 'popup') === 'popup' && !popup && !(popup = openPopupWindow(requirement.reason === 'expired')) && requirement.reason !== 'expired') {
    return Promise.reject(new AuthError('popup_blocked'));
  }
  const flow = run(requirement, resource, options, popup).finally(() => inflight.delete(resource));
  inflight.set(resource, [flow, options.client, options.tokenStore ?? defaultTokens]);
  return flow;
}

async function run(req: McpAuthRequirement, resource: string, o: AuthorizeOptions, popup: Window | null | undefined): Promise<AuthResult> {
  const fetchFn = o.fetch ?? globalFetch;
  const tokens = o.tokenStore ?? defaultTokens;
  try {
    const issuer = req.resource.authorization_servers?.[0];
    if (typeof issuer !== 'string') throw new AuthError('no_authorization_server');
    const as = await discoverAuthorizationServer(issuer, fetchFn, resource);
    const id = await resolveClientIdentity(req, as, {
      redirectUri: o.redirectUri,
      registrationStore: o.registrationStore ?? defaultRegistrations,
      fetch: fetchFn,
      // Both are read only when set (an empty one as unset).
      clientName: o.clientName,
      clientMetadataUrl: o.clientMetadataUrl,
    });
    const scopes = chooseScopes(req);
    if (req.reason === 'expired') {
      const refreshed = await tryRefresh(as, id, resource, scopes, tokens, fetchFn);
      if (refreshed) return await deliver(o.client, tokens, resource, refreshed);
    }
    if (!as.code_challenge_methods_supported?.includes('S256')) throw new AuthError('pkce_unsupported');
    const flow: PendingFlow = {
      state: randomToken(),
      verifier: randomToken(),
      issuer: as.issuer,
      tokenEndpoint: as.token_endpoint as string,
      issRequired: as.authorization_response_iss_parameter_supported === true,
      clientId: id.clientId,
      authMethod: id.authMethod,
      redirectUri: o.redirectUri,
      resource,
      ...(scopes ? { scopes } : {}),
    };
    const url = new URL(as.authorization_endpoint as string);
    const q = url.searchParams;
    q.set('response_type', 'code');
    q.set('client_id', id.clientId);
    q.set('redirect_uri', o.redirectUri);
    q.set('code_challenge', await pkceChallenge(flow.verifier));
    q.set('code_challenge_method', 'S256');
    q.set('state', flow.state);
    q.set('resource', resource);
    if (scopes) q.set('scope', scopes.join(' '));
    if (o.mode === 'redirect') {
      sessionStorage.setItem(PENDING_KEY, JSON.stringify({ ...flow, returnTo: location.href }));
      location.assign(url.href);
      return { resource, redirected: true };
    }
    // Still none (blocked before an expired token's refresh was refused): one more try, else the user must allow pop-ups.
    if (!(popup ||= openPopupWindow())) throw new AuthError('popup_blocked');
    popup.location.href = url.href;
    const callback = await waitForPopupCallback(popup, o.redirectUri);
    return await complete(callback, flow, id, o.client, tokens, fetchFn);
  } finally {
    if (popup && !popup.closed) popup.close();
  }
}

/** Refresh grant for an expired token; undefined when there is no usable refresh token or the server refused it. */
async function tryRefresh(
  as: AuthorizationServerMetadata,
  id: ClientIdentity,
  resource: string,
  scopes: string[] | undefined,
  tokens: TokenStore,
  fetchFn: FetchLike,
): Promise<StoredToken | undefined> {
  const old = await tokens.get(resource);
  if (!old?.refreshToken || old.issuer !== as.issuer || old.clientId !== id.clientId) return undefined;
  try {
    const grant = { grant_type: 'refresh_token', refresh_token: old.refreshToken, resource, scope: scopes?.join(' ') };
    const token = await requestToken(as, id, grant, scopes ?? old.scopes, fetchFn);
    token.refreshToken ??= old.refreshToken;
    return token;
  } catch (e) {
    // A refused refresh token means interactive sign-in; anything else (network, bad response) is reported.
    if (!(e instanceof AuthError && e.code === 'token_error')) throw e;
    await tokens.delete(resource);
    return undefined;
  }
}

/** Checks the callback against the pending flow, exchanges the code and hands the token over. */
async function complete(
  cb: CallbackParams,
  flow: PendingFlow,
  id: ClientIdentity,
  client: AuthenticateTarget,
  tokens: TokenStore,
  fetchFn: FetchLike,
): Promise<AuthResult> {
  if (!cb.state || cb.state !== flow.state) throw new AuthError('state_mismatch');
  if (cb.iss !== undefined ? !sameUrl(cb.iss, flow.issuer) : flow.issRequired) throw new AuthError('issuer_mismatch', cb.iss);
  if (cb.error) throw new AuthError('authorization_denied', cb.error_description ?? cb.error, cb.error);
  if (!cb.code) throw new AuthError('invalid_response', 'no authorization code');
  const as = { issuer: flow.issuer, token_endpoint: flow.tokenEndpoint };
  const grant = {
    grant_type: 'authorization_code',
    code: cb.code,
    redirect_uri: flow.redirectUri,
    code_verifier: flow.verifier,
    resource: flow.resource,
  };
  return deliver(client, tokens, flow.resource, await requestToken(as, id, grant, flow.scopes, fetchFn));
}

/** Hands the token another client's flow just kept in `from` for `resource` to `o.client` (and `o`'s store). */
async function handOver(resource: string, from: TokenStore, o: AuthorizeOptions): Promise<AuthResult> {
  const token = await from.get(resource);
  if (!token) throw new AuthError('invalid_response', 'the shared sign-in kept no token');
  return deliver(o.client, o.tokenStore ?? defaultTokens, resource, token);
}

async function deliver(client: AuthenticateTarget, tokens: TokenStore, resource: string, token: StoredToken): Promise<AuthResult> {
  const expiresIn = remainingLifetime(token.expiresAt);
  const result: AuthResult = { resource, ...(expiresIn ? { expiresIn } : {}), ...(token.scopes ? { scopes: token.scopes } : {}) };
  try {
    await client.authenticate({ ...result, token: token.accessToken });
  } catch (e) {
    throw new AuthError('authenticate_failed', errorText(e), undefined, { cause: e });
  }
  await tokens.set(resource, token);
  return result;
}

/** Options of `resumeRedirectFlow`. */
export interface ResumeOptions {
  client: AuthenticateTarget;
  tokenStore?: TokenStore;
  registrationStore?: RegistrationStore;
  fetch?: FetchLike;
  /** Secret of a confidential client (it is never written to sessionStorage). */
  clientSecret?: string;
}

/**
 * After the full-page redirect: finishes the flow this tab started (callback parameters in this page's URL,
 * or left by the shipped callback page). Resolves undefined when there is nothing to resume.
 */
export async function resumeRedirectFlow(o: ResumeOptions): Promise<AuthResult | undefined> {
  const raw = sessionStorage.getItem(PENDING_KEY);
  if (!raw) return undefined;
  let cb: CallbackParams | undefined;
  const left = sessionStorage.getItem(RESULT_KEY);
  const q = new URLSearchParams(location.search);
  try {
    if (left) cb = callbackParams(JSON.parse(left));
  } catch {
    cb = {};
  }
  if (!cb && q.has('state')) {
    cb = callbackParams(q);
    for (const k of ['code', 'state', 'error', 'error_description', 'iss']) q.delete(k);
    const rest = q.toString();
    history.replaceState(history.state, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  }
  if (!cb) return undefined;
  sessionStorage.removeItem(PENDING_KEY);
  sessionStorage.removeItem(RESULT_KEY);
  let flow: PendingFlow;
  try {
    flow = JSON.parse(raw);
  } catch {
    throw new AuthError('invalid_response', 'corrupt pending flow');
  }
  let secret = o.clientSecret;
  if (flow.authMethod !== 'none' && !secret) {
    const reg = await (o.registrationStore ?? defaultRegistrations).get(flow.issuer);
    if (reg?.client_id === flow.clientId) secret = reg.client_secret;
  }
  if (flow.authMethod !== 'none' && !secret) throw new AuthError('unsupported_auth_method', 'client secret unavailable after redirect');
  const id: ClientIdentity = { clientId: flow.clientId, authMethod: flow.authMethod, source: 'stored', ...(secret ? { clientSecret: secret } : {}) };
  return complete(cb, flow, id, o.client, o.tokenStore ?? defaultTokens, o.fetch ?? globalFetch);
}

/** Revokes the host's use of a resource: `authenticate` with an empty token; forgets the stored token. */
export async function revoke(resource: string, o: { client: AuthenticateTarget; tokenStore?: TokenStore }): Promise<void> {
  await (o.tokenStore ?? defaultTokens).delete(resource);
  await o.client.authenticate({ resource, token: '' });
}

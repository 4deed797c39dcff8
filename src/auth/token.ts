import { clientAuth } from './client-identity.js';
import { AuthError } from './errors.js';
import { formPost, requestJson } from './http.js';
import type { AuthorizationServerMetadata, ClientIdentity, FetchLike, StoredToken } from './types.js';

export { chooseScopes } from './scopes.js';

/** Remaining lifetime in whole seconds (≥ 1) for `authenticate`; undefined when the lifetime is unknown. */
export function remainingLifetime(expiresAt: number | undefined, now = Date.now()): number | undefined {
  return expiresAt === undefined || !Number.isFinite(expiresAt) ? undefined : Math.max(1, Math.floor((expiresAt - now) / 1000));
}

/** Calls the token endpoint with a grant and turns the answer into a `StoredToken`. */
export async function requestToken(
  as: AuthorizationServerMetadata,
  id: ClientIdentity,
  grant: Record<string, string | undefined>,
  requestedScopes: string[] | undefined,
  fetchFn: FetchLike,
): Promise<StoredToken> {
  const { params, headers } = clientAuth(id);
  const sentAt = Date.now();
  const res = await requestJson(fetchFn, as.token_endpoint as string, formPost({ ...grant, ...params }, headers), 'token_error');
  const { access_token, token_type, expires_in, refresh_token, scope } = res;
  if (typeof access_token !== 'string' || !access_token || typeof token_type !== 'string' || token_type.toLowerCase() !== 'bearer') {
    throw new AuthError('invalid_response', 'no bearer access_token');
  }
  const token: StoredToken = { accessToken: access_token, issuer: as.issuer, clientId: id.clientId };
  if (typeof refresh_token === 'string' && refresh_token) token.refreshToken = refresh_token;
  // Measured from when the request left, so the lifetime sent on is never longer than the real one.
  if (typeof expires_in === 'number' && expires_in > 0) token.expiresAt = sentAt + expires_in * 1000;
  const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : requestedScopes;
  if (scopes) token.scopes = scopes;
  return token;
}

import { AuthError } from './errors.js';
import { isSecureUrl, requestJson } from './http.js';
import type {
  AuthorizationServerMetadata,
  ClientIdentity,
  ClientRegistration,
  FetchLike,
  McpAuthRequirement,
  RegistrationStore,
  TokenEndpointAuthMethod,
} from './types.js';

/** The token endpoint auth method for a confidential client: basic if the server allows it (the RFC 8414 default), else post. */
export function confidentialAuthMethod(as: AuthorizationServerMetadata): TokenEndpointAuthMethod {
  const supported = as.token_endpoint_auth_methods_supported;
  if (!supported || supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  throw new AuthError('unsupported_auth_method', supported.join(', '));
}

export interface ClientIdentityOptions {
  redirectUri: string;
  clientName?: string;
  clientMetadataUrl?: string;
  registrationStore: RegistrationStore;
  fetch: FetchLike;
}

/**
 * Picks the client identity, in order: `oauthClient` from the requirement, a stored registration for this
 * issuer (that lists our redirect URI and has not expired), a Client ID Metadata Document URL (when the
 * server supports it and the app configured one), else dynamic client registration (RFC 7591).
 */
export async function resolveClientIdentity(
  requirement: McpAuthRequirement,
  as: AuthorizationServerMetadata,
  o: ClientIdentityOptions,
): Promise<ClientIdentity> {
  const given = requirement.oauthClient;
  if (given?.clientId) {
    return given.clientSecret
      ? { clientId: given.clientId, clientSecret: given.clientSecret, authMethod: confidentialAuthMethod(as), source: 'requirement' }
      : { clientId: given.clientId, authMethod: 'none', source: 'requirement' };
  }
  const stored = await o.registrationStore.get(as.issuer);
  const expires = stored?.client_secret_expires_at;
  if (stored?.client_id && stored.redirect_uris?.includes(o.redirectUri) && !(expires && expires * 1000 < Date.now())) {
    return identityOf(stored.client_id, stored.client_secret, stored.token_endpoint_auth_method, as, 'stored');
  }
  if (as.client_id_metadata_document_supported === true && o.clientMetadataUrl) {
    return { clientId: o.clientMetadataUrl, authMethod: 'none', source: 'metadataDocument' };
  }
  const endpoint = as.registration_endpoint;
  if (typeof endpoint !== 'string') throw new AuthError('missing_endpoint', 'registration_endpoint');
  if (!isSecureUrl(endpoint)) throw new AuthError('insecure_url', endpoint);
  const reg = await requestJson(
    o.fetch,
    endpoint,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [o.redirectUri],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...(o.clientName ? { client_name: o.clientName } : {}),
      }),
    },
    'registration_error',
  );
  if (typeof reg.client_id !== 'string' || !reg.client_id) throw new AuthError('invalid_response', 'registration without client_id');
  const saved: ClientRegistration = { ...reg, client_id: reg.client_id, redirect_uris: [o.redirectUri] };
  await o.registrationStore.set(as.issuer, saved);
  return identityOf(reg.client_id, reg.client_secret, reg.token_endpoint_auth_method, as, 'registered');
}

/**
 * The identity a registration (fresh or stored) gives: its `token_endpoint_auth_method` when it names one, so a
 * client registered as public stays public even if a secret came back. Without one: public when no secret was
 * issued or the server takes only `none`, else the confidential method the server supports (RFC 7591 §2).
 */
export function identityOf(
  clientId: string,
  secret: unknown,
  method: unknown,
  as: AuthorizationServerMetadata,
  source: ClientIdentity['source'],
): ClientIdentity {
  const s = typeof secret === 'string' && secret ? secret : undefined;
  const supported = as.token_endpoint_auth_methods_supported;
  const noneOnly = supported?.includes('none') && !supported.includes('client_secret_basic') && !supported.includes('client_secret_post');
  if (typeof method !== 'string') method = s && !noneOnly ? confidentialAuthMethod(as) : 'none';
  if (method === 'none') return { clientId, authMethod: 'none', source };
  if (s && (method === 'client_secret_basic' || method === 'client_secret_post')) return { clientId, clientSecret: s, authMethod: method, source };
  throw new AuthError('unsupported_auth_method', String(method));
}

/** Form fields and headers that authenticate the client at the token endpoint. */
export function clientAuth(id: ClientIdentity): { params: Record<string, string>; headers: Record<string, string> } {
  if (id.authMethod === 'client_secret_basic' && id.clientSecret !== undefined) {
    const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
    return { params: {}, headers: { authorization: `Basic ${btoa(`${enc(id.clientId)}:${enc(id.clientSecret)}`)}` } };
  }
  if (id.authMethod === 'client_secret_post' && id.clientSecret !== undefined) {
    return { params: { client_id: id.clientId, client_secret: id.clientSecret }, headers: {} };
  }
  return { params: { client_id: id.clientId }, headers: {} };
}


/**
 * OAuth for MCP servers and tool calls behind AHP auth requirements: discovery, client identity, PKCE,
 * popup and redirect flows, refresh, and `authenticate`. Its own entry (`ahp-elements/auth`).
 */
export { authorize, resumeRedirectFlow, revoke } from './auth/authorize.js';
export type { ResumeOptions } from './auth/authorize.js';
export { completeAuthorizationInCallbackPage } from './auth/callback.js';
export type { CallbackParams } from './auth/callback.js';
export { defaultCallbackUrl } from './auth/callback-url.js';
export { discoverAuthorizationServer, discoveryUrls } from './auth/discovery.js';
export { resolveClientIdentity } from './auth/client-identity.js';
export { chooseScopes, remainingLifetime } from './auth/token.js';
export { pkceChallenge } from './auth/pkce.js';
export { memoryRegistrationStore, memoryTokenStore } from './auth/stores.js';
export { AuthError } from './auth/errors.js';
export type { AuthErrorCode } from './auth/errors.js';
export type {
  AuthenticateTarget,
  AuthorizationServerMetadata,
  AuthorizeOptions,
  AuthResult,
  ClientIdentity,
  ClientRegistration,
  FetchLike,
  RegistrationStore,
  StoredToken,
  TokenEndpointAuthMethod,
  TokenStore,
} from './auth/types.js';
export type { McpAuthRequirement } from './protocol/customizations.js';

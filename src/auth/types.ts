import type { McpAuthRequirement } from '../protocol/customizations.js';

/** RFC 8414 / OpenID Connect discovery document (the fields the driver uses). */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
  [key: string]: unknown;
}

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** The client identity used for one flow. */
export interface ClientIdentity {
  clientId: string;
  clientSecret?: string;
  authMethod: TokenEndpointAuthMethod;
  /** Where it came from: the requirement, a stored registration, a metadata document URL or a fresh registration. */
  source: 'requirement' | 'stored' | 'metadataDocument' | 'registered';
}

/** RFC 7591 registration response (the fields the driver keeps). */
export interface ClientRegistration {
  client_id: string;
  client_secret?: string;
  client_secret_expires_at?: number;
  redirect_uris?: string[];
  token_endpoint_auth_method?: string;
  [key: string]: unknown;
}

/** Where dynamic client registrations are kept between flows (keyed by issuer). */
export interface RegistrationStore {
  get(issuer: string): ClientRegistration | undefined | Promise<ClientRegistration | undefined>;
  set(issuer: string, registration: ClientRegistration): void | Promise<void>;
  delete?(issuer: string): void | Promise<void>;
}

/** A token the driver obtained. `expiresAt` is epoch milliseconds. */
export interface StoredToken {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: number;
  scopes?: string[];
  issuer: string;
  clientId: string;
}

/** Where tokens are kept (keyed by the protected resource URI). In memory by default. */
export interface TokenStore {
  get(resource: string): StoredToken | undefined | Promise<StoredToken | undefined>;
  set(resource: string, token: StoredToken): void | Promise<void>;
  delete(resource: string): void | Promise<void>;
}

/** What the driver hands the token to (an `AhpClient`, or anything with the same `authenticate`). */
export interface AuthenticateTarget {
  authenticate(params: { resource: string; token: string; expiresIn?: number; scopes?: string[] }): Promise<unknown>;
}

/** `fetch` as the driver calls it. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Options of `authorize`. */
export interface AuthorizeOptions {
  client: AuthenticateTarget;
  /** The redirect URI registered for this app (the shipped callback page, or the app's own). */
  redirectUri: string;
  /** `popup` (default) or a full-page `redirect` that resumes with `resumeRedirectFlow()`. */
  mode?: 'popup' | 'redirect';
  clientName?: string;
  /** Client ID Metadata Document URL, used when the authorization server supports it. */
  clientMetadataUrl?: string;
  tokenStore?: TokenStore;
  registrationStore?: RegistrationStore;
  fetch?: FetchLike;
  /** A window the caller already opened (synchronously, in the click handler) for the popup flow; closed at once when a flow for the resource already runs (that flow has its own), and unused when an expired token is refreshed. */
  popup?: Window;
}

/** What a finished flow handed to the host. */
export interface AuthResult {
  resource: string;
  scopes?: string[];
  expiresIn?: number;
  /** True when the page is navigating away to the authorization server (redirect mode). */
  redirected?: boolean;
}

export type { McpAuthRequirement };

/** Why an authorization attempt failed. */
export type AuthErrorCode =
  | 'popup_blocked'
  | 'popup_closed'
  | 'state_mismatch'
  | 'issuer_mismatch'
  | 'authorization_denied'
  | 'token_error'
  | 'registration_error'
  | 'network_error'
  | 'invalid_response'
  | 'discovery_failed'
  | 'missing_endpoint'
  | 'pkce_unsupported'
  | 'unsupported_auth_method'
  | 'no_authorization_server'
  | 'insecure_url'
  | 'authenticate_failed'
  | 'bad_redirect_uri';

const MESSAGES: Record<AuthErrorCode, string> = {
  popup_blocked: 'The sign-in window was blocked; allow pop-ups and try again.',
  popup_closed: 'The sign-in window was closed before sign-in finished.',
  state_mismatch: 'The sign-in response did not match this request.',
  issuer_mismatch: 'The authorization server is not the one expected.',
  authorization_denied: 'The authorization server refused.',
  token_error: 'No token was issued.',
  registration_error: 'Could not register with the authorization server.',
  network_error: 'The authorization server could not be reached.',
  invalid_response: 'The authorization server sent an invalid response.',
  discovery_failed: 'No authorization server metadata was found.',
  missing_endpoint: 'The authorization server lacks a required endpoint.',
  pkce_unsupported: 'The authorization server does not support PKCE (S256).',
  unsupported_auth_method: 'No usable client authentication method.',
  no_authorization_server: 'The server names no authorization server.',
  insecure_url: 'The authorization server must use HTTPS.',
  authenticate_failed: 'The host did not accept the token.',
  bad_redirect_uri: 'The redirect URI must be on this origin.',
};

/** A typed failure of the OAuth driver: `code` for programs, `message` for people. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  /** OAuth `error` value from the authorization server, when it sent one. */
  readonly oauthError: string | undefined;
  /** HTTP status of the response that failed, when there was one. */
  readonly status: number | undefined;
  constructor(
    readonly code: AuthErrorCode,
    detail?: string,
    oauthError?: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(detail ? `${MESSAGES[code]} (${detail})` : MESSAGES[code], options);
    this.oauthError = oauthError;
    this.status = options?.status;
  }
}

const b64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** 32 random bytes, base64url (43 characters: a valid PKCE verifier and an unguessable `state`). */
export const randomToken = (): string => b64url(crypto.getRandomValues(new Uint8Array(32)));

/** PKCE S256 code challenge of a verifier (RFC 7636 §4.2). */
export const pkceChallenge = async (verifier: string): Promise<string> =>
  b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));

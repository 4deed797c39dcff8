import type { AuthenticateTarget, AuthResult, TokenStore } from './types.js';

/**
 * The sign-in flow running for each resource on this page, the client it hands its token to and the store it keeps
 * it in. Its own module so that `<ahp-session>` can see a flow a page started with `authorize()` before it loads the
 * driver, and open no second window for it.
 */
export const inflight = new Map<string, [Promise<AuthResult>, AuthenticateTarget, TokenStore]>();

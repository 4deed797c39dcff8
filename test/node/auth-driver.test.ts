import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  AuthError,
  authorize,
  chooseScopes,
  discoverAuthorizationServer,
  discoveryUrls,
  memoryRegistrationStore,
  memoryTokenStore,
  pkceChallenge,
  revoke,
  remainingLifetime,
  resolveClientIdentity,
} from '../../src/auth.js';
import { requestToken } from '../../src/auth/token.js';
import { requestJson } from '../../src/auth/http.js';
import type { AuthorizationServerMetadata, McpAuthRequirement } from '../../src/auth.js';
import { startTestAuthServer, type TestAuthServer as TestAs } from '../fixtures/auth/test-as.mjs';
let as: TestAs;
let pathAs: TestAs;
const REDIRECT = 'http://localhost:9999/callback.html';
const RESOURCE = 'http://127.0.0.1:7777/mcp';

before(async () => {
  as = await startTestAuthServer({ clients: [{ client_id: 'conf', client_secret: 's3 cr:et', redirect_uris: [REDIRECT] }] });
  pathAs = await startTestAuthServer({ issuerPath: '/tenant1' });
});
after(async () => {
  await as.close();
  await pathAs.close();
});
beforeEach(() => {
  as.reset();
  pathAs.reset();
});

const requirement = (over: Partial<McpAuthRequirement> = {}, issuer = as.issuer): McpAuthRequirement => ({
  reason: 'required',
  resource: { resource: RESOURCE, authorization_servers: [issuer], scopes_supported: ['read'] },
  ...over,
});

const rejectsWith = async (p: Promise<unknown>, code: string) => {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof AuthError, `expected AuthError, got ${String(e)}`);
    assert.equal(e.code, code);
    assert.ok(e.message.length > 10);
    return true;
  });
};

test('discovery URLs: root issuer → RFC 8414 then OIDC; path issuer → insertion, OIDC insertion, OIDC append', () => {
  assert.deepEqual(discoveryUrls('https://as.example'), [
    'https://as.example/.well-known/oauth-authorization-server',
    'https://as.example/.well-known/openid-configuration',
  ]);
  assert.deepEqual(discoveryUrls('https://as.example/'), discoveryUrls('https://as.example'));
  assert.deepEqual(discoveryUrls('https://as.example/tenant1/'), [
    'https://as.example/.well-known/oauth-authorization-server/tenant1',
    'https://as.example/.well-known/openid-configuration/tenant1',
    'https://as.example/tenant1/.well-known/openid-configuration',
  ]);
});

test('discovery: finds metadata at the root and under an issuer path; OIDC fallback', async () => {
  const meta = await discoverAuthorizationServer(as.issuer, fetch);
  assert.equal(meta.issuer, as.issuer);
  const pathMeta = await discoverAuthorizationServer(pathAs.issuer, fetch);
  assert.equal(pathMeta.token_endpoint, `${pathAs.issuer}/token`);
  assert.equal(pathAs.log[0]?.path, '/.well-known/oauth-authorization-server/tenant1');
  pathAs.reset();
  pathAs.behavior.onlyOidc = true;
  const oidc = await discoverAuthorizationServer(pathAs.issuer, fetch);
  assert.equal(oidc.issuer, pathAs.issuer);
  assert.deepEqual(pathAs.log.map((l) => l.path), ['/.well-known/oauth-authorization-server/tenant1', '/.well-known/openid-configuration/tenant1']);
});

test('discovery failures are typed: issuer mismatch, nothing found, insecure issuer, network', async () => {
  as.behavior.wrongIssuer = true;
  await rejectsWith(discoverAuthorizationServer(as.issuer, fetch), 'issuer_mismatch');
  await rejectsWith(discoverAuthorizationServer(`${as.issuer}/nowhere`, fetch), 'discovery_failed');
  await rejectsWith(discoverAuthorizationServer('http://as.example', fetch), 'insecure_url');
  await rejectsWith(requestJson(() => Promise.reject(new TypeError('offline')), 'https://x', {}, 'token_error'), 'network_error');
  await rejectsWith(requestJson(async () => new Response('<html>'), 'https://x', {}, 'token_error'), 'invalid_response');
  const oauth = requestJson(async () => Response.json({ error: 'invalid_grant', error_description: 'nope' }, { status: 400 }), 'https://x', {}, 'token_error');
  await assert.rejects(oauth, (e: any) => e.code === 'token_error' && e.oauthError === 'invalid_grant' && /nope/.test(e.message));
  const noToken = async () => Response.json({ issuer: 'https://as.example', authorization_endpoint: 'https://as.example/a' });
  await rejectsWith(discoverAuthorizationServer('https://as.example', noToken), 'missing_endpoint');
});

test('client identity order: requirement (public, confidential basic/post) → stored → metadata document → registration', async () => {
  const meta = (await discoverAuthorizationServer(as.issuer, fetch)) as AuthorizationServerMetadata;
  const base = { redirectUri: REDIRECT, registrationStore: memoryRegistrationStore(), fetch, clientMetadataUrl: 'https://app.example/client.json' };
  assert.deepEqual(await resolveClientIdentity(requirement({ oauthClient: { clientId: 'pub' } }), meta, base), { clientId: 'pub', authMethod: 'none', source: 'requirement' });
  const conf = await resolveClientIdentity(requirement({ oauthClient: { clientId: 'c', clientSecret: 's' } }), meta, base);
  assert.equal(conf.authMethod, 'client_secret_basic');
  const postOnly = { ...meta, token_endpoint_auth_methods_supported: ['client_secret_post'] };
  assert.equal((await resolveClientIdentity(requirement({ oauthClient: { clientId: 'c', clientSecret: 's' } }), postOnly, base)).authMethod, 'client_secret_post');
  await rejectsWith(resolveClientIdentity(requirement({ oauthClient: { clientId: 'c', clientSecret: 's' } }), { ...meta, token_endpoint_auth_methods_supported: ['private_key_jwt'] }, base), 'unsupported_auth_method');

  // No CIMD support advertised → registration, stored for next time.
  const first = await resolveClientIdentity(requirement(), meta, base);
  assert.equal(first.source, 'registered');
  const reg = as.log.find((l) => l.path === '/register');
  assert.deepEqual(JSON.parse(reg!.body), {
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  const second = await resolveClientIdentity(requirement(), meta, base);
  assert.deepEqual(second, { clientId: first.clientId, authMethod: 'none', source: 'stored' });
  // Another redirect URI is not covered by the stored registration.
  const other = await resolveClientIdentity(requirement(), meta, { ...base, redirectUri: 'http://localhost:9999/other.html' });
  assert.equal(other.source, 'registered');
  assert.notEqual(other.clientId, first.clientId);
  // CIMD supported and configured → the URL is the client id, before registering.
  const cimd = await resolveClientIdentity(requirement(), { ...meta, client_id_metadata_document_supported: true }, { ...base, registrationStore: memoryRegistrationStore() });
  assert.deepEqual(cimd, { clientId: 'https://app.example/client.json', authMethod: 'none', source: 'metadataDocument' });
  await rejectsWith(resolveClientIdentity(requirement(), { ...meta, registration_endpoint: undefined }, { ...base, registrationStore: memoryRegistrationStore(), clientMetadataUrl: undefined }), 'missing_endpoint');
  as.behavior.cimd = false;
});

test('PKCE S256 challenge matches node:crypto', async () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  assert.equal(await pkceChallenge(verifier), /* RFC 7636 appendix B */ 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  const v2 = 'x'.repeat(64);
  assert.equal(await pkceChallenge(v2), createHash('sha256').update(v2).digest('base64url'));
});

test('scopes: requiredScopes, else scopes_supported, else none', () => {
  assert.deepEqual(chooseScopes(requirement({ requiredScopes: ['write'] })), ['write']);
  assert.deepEqual(chooseScopes(requirement()), ['read']);
  assert.equal(chooseScopes({ reason: 'required', resource: { resource: RESOURCE } }), undefined);
  assert.deepEqual(chooseScopes(requirement({ requiredScopes: [] })), ['read']);
});

test('expiresIn: remaining whole seconds, at least 1, undefined when unknown', () => {
  assert.equal(remainingLifetime(undefined), undefined);
  assert.equal(remainingLifetime(10_000 + 59_700, 10_000), 59);
  assert.equal(remainingLifetime(10_000, 20_000), 1);
  assert.equal(remainingLifetime(Number.NaN), undefined);
});

/** Authorization code obtained the way a browser would, without a browser (redirects not followed). */
async function codeFor(clientId: string, verifier: string, scope: string) {
  const url = new URL(`${as.issuer}/authorize`);
  const q = url.searchParams;
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: await pkceChallenge(verifier), code_challenge_method: 'S256', state: 'st', resource: RESOURCE, scope })) q.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

test('token exchange (confidential, basic with a form-encoded secret) and refresh of an expired token through authorize()', async () => {
  const meta = await discoverAuthorizationServer(as.issuer, fetch);
  const id = { clientId: 'conf', clientSecret: 's3 cr:et', authMethod: 'client_secret_basic' as const, source: 'requirement' as const };
  const verifier = 'v'.repeat(50);
  const code = await codeFor('conf', verifier, 'read');
  // A wrong verifier is refused by the server.
  await rejectsWith(requestToken(meta, id, { grant_type: 'authorization_code', code: await codeFor('conf', verifier, 'read'), redirect_uri: REDIRECT, code_verifier: 'w'.repeat(50), resource: RESOURCE }, undefined, fetch), 'token_error');
  const token = await requestToken(meta, id, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, resource: RESOURCE }, undefined, fetch);
  assert.match(token.accessToken, /^at-/);
  assert.deepEqual(token.scopes, ['read']);
  assert.ok(token.refreshToken);
  assert.ok(as.log.at(-1)?.authorization?.startsWith('Basic '));

  const tokenStore = memoryTokenStore();
  tokenStore.set(RESOURCE, { ...token, expiresAt: Date.now() - 1000 });
  const calls: any[] = [];
  const client = { authenticate: async (p: any) => void calls.push(p) };
  const req = requirement({ reason: 'expired', oauthClient: { clientId: 'conf', clientSecret: 's3 cr:et' } });
  const result = await authorize(req, { client, redirectUri: REDIRECT, tokenStore, mode: 'popup' });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].resource, RESOURCE);
  assert.match(calls[0].token, /^at-/);
  assert.notEqual(calls[0].token, token.accessToken);
  assert.ok(calls[0].expiresIn >= 1 && calls[0].expiresIn <= 60 && Number.isInteger(calls[0].expiresIn));
  assert.deepEqual(calls[0].scopes, ['read']);
  assert.deepEqual(result, { resource: RESOURCE, expiresIn: calls[0].expiresIn, scopes: ['read'] });
  const refreshReq = as.log.find((l) => l.path === '/token' && l.body.includes('refresh_token'));
  assert.equal(new URLSearchParams(refreshReq!.body).get('resource'), RESOURCE);
  assert.notEqual((await tokenStore.get(RESOURCE))?.refreshToken, token.refreshToken, 'rotated refresh token stored');

  // Refused refresh → interactive sign-in, which needs a window: here none can open.
  as.behavior.refreshError = true;
  await rejectsWith(authorize(req, { client, redirectUri: REDIRECT, tokenStore }), 'popup_blocked');
  assert.equal(await tokenStore.get(RESOURCE), undefined, 'refused refresh token forgotten');
});

test('authorize: typed failures without a browser; host refusing the token → authenticate_failed', async () => {
  const client = { authenticate: async () => undefined };
  await rejectsWith(authorize({ reason: 'expired', resource: { resource: RESOURCE } }, { client, redirectUri: REDIRECT }), 'no_authorization_server');
  await rejectsWith(authorize({ reason: 'required', resource: { resource: RESOURCE } } as McpAuthRequirement, { client, redirectUri: REDIRECT }), 'popup_blocked');

  const meta = await discoverAuthorizationServer(as.issuer, fetch);
  const id = { clientId: 'conf', clientSecret: 's3 cr:et', authMethod: 'client_secret_post' as const, source: 'requirement' as const };
  const token = await requestToken(meta, id, { grant_type: 'authorization_code', code: await codeFor('conf', 'v'.repeat(50), ''), redirect_uri: REDIRECT, code_verifier: 'v'.repeat(50), resource: RESOURCE }, undefined, fetch);
  assert.equal(new URLSearchParams(as.log.at(-1)!.body).get('client_secret'), 's3 cr:et');
  const tokenStore = memoryTokenStore();
  tokenStore.set(RESOURCE, token);
  const refusing = { authenticate: async () => { throw new Error('-32602 unknown resource'); } };
  const req = requirement({ reason: 'expired', oauthClient: { clientId: 'conf', clientSecret: 's3 cr:et' } });
  await rejectsWith(authorize(req, { client: refusing, redirectUri: REDIRECT, tokenStore }), 'authenticate_failed');
});

test('the auth entry imports without a DOM; the default callback page sits next to the driver', async () => {
  const entry = await import('../../src/auth.js');
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  assert.match(entry.defaultCallbackUrl(), /\/src\/auth\/callback\.html$/);
  assert.equal(typeof entry.completeAuthorizationInCallbackPage, 'function');
  assert.equal(typeof entry.resumeRedirectFlow, 'function');
});

test('revoke: authenticate with an empty token, stored token forgotten', async () => {
  const tokenStore = memoryTokenStore();
  tokenStore.set(RESOURCE, { accessToken: 'at-x', issuer: as.issuer, clientId: 'c' });
  const calls: unknown[] = [];
  await revoke(RESOURCE, { client: { authenticate: async (p) => void calls.push(p) }, tokenStore });
  assert.deepEqual(calls, [{ resource: RESOURCE, token: '' }]);
  assert.equal(await tokenStore.get(RESOURCE), undefined);
});

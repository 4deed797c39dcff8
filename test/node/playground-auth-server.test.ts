import { createHash, randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startProtectedServer, type ProtectedServer } from '../../examples/playground/auth/protected-server.js';
import { completeAuthorizationHeadlessly } from '../fixtures/auth/headless-browser.js';
import { parseBearerChallenge } from '../../examples/playground/auth/www-authenticate.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const b64url = (b: Buffer) => b.toString('base64url');

interface AsMeta {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  code_challenge_methods_supported: string[];
  scopes_supported: string[];
}

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

async function register(meta: AsMeta): Promise<string> {
  const res = await fetch(meta.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'node test', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }),
  });
  assert.equal(res.status, 201);
  return (await json(res)).client_id as string;
}

async function authorize(server: ProtectedServer, meta: AsMeta, clientId: string, opts: { scope?: string; decision?: 'allow' | 'deny' } = {}) {
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  const state = b64url(randomBytes(8));
  const url = new URL(meta.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    resource: server.mcpUrl,
    ...(opts.scope && { scope: opts.scope }),
  }).toString();
  const params = await completeAuthorizationHeadlessly(url.href, { redirectUri: REDIRECT, decision: opts.decision ?? 'allow' });
  assert.equal(params.get('state'), state, 'state comes back unchanged');
  return { params, verifier };
}

function tokenRequest(meta: AsMeta, body: Record<string, string>) {
  return fetch(meta.token_endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });
}

const mcpPost = (server: ProtectedServer, token: string | undefined, message: object) =>
  fetch(server.mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(message),
  });

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const callTool = (name: string) => ({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: {} } });

describe('playground protected MCP server and its authorization server', () => {
  let server: ProtectedServer;
  let meta: AsMeta;
  before(async () => {
    server = await startProtectedServer({ tokenLifetimeSeconds: 2 });
    meta = (await (await fetch(new URL('/.well-known/oauth-authorization-server', server.issuer))).json()) as AsMeta;
  });
  after(() => server.close());

  it('publishes protected-resource metadata (path-inserted and root) and RFC 8414 metadata', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const prm = await json(await fetch(new URL(path, server.mcpUrl)));
      assert.equal(prm.resource, server.mcpUrl);
      assert.deepEqual(prm.authorization_servers, [server.issuer]);
      assert.deepEqual(prm.scopes_supported, ['tools:read', 'secrets:read']);
    }
    assert.equal(meta.issuer, server.issuer);
    assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
    assert.ok(meta.registration_endpoint.startsWith(server.issuer));
  });

  it('answers an unauthenticated request with 401 and a Bearer challenge naming the metadata and the scope', async () => {
    const res = await mcpPost(server, undefined, INIT);
    assert.equal(res.status, 401);
    const challenge = parseBearerChallenge(res.headers.get('www-authenticate'));
    assert.equal(challenge?.resourceMetadata, server.resourceMetadataUrl);
    assert.deepEqual(challenge?.scopes, ['tools:read']);
    assert.equal(challenge?.error, 'invalid_token');
  });

  it('runs registration → consent (Allow) → code → token with PKCE, refuses a wrong verifier and a reused code', async () => {
    const clientId = await register(meta);
    const first = await authorize(server, meta, clientId);
    const code = first.params.get('code');
    assert.ok(code);
    const wrong = await tokenRequest(meta, { grant_type: 'authorization_code', code, code_verifier: b64url(randomBytes(32)), redirect_uri: REDIRECT, client_id: clientId });
    assert.equal(wrong.status, 400);
    assert.equal((await json(wrong)).error, 'invalid_grant');

    const { params, verifier } = await authorize(server, meta, clientId);
    const body = { grant_type: 'authorization_code', code: params.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, resource: server.mcpUrl };
    const ok = await tokenRequest(meta, body);
    assert.equal(ok.status, 200);
    const tokens = await json(ok);
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(tokens.expires_in, 2);
    assert.equal(tokens.scope, 'tools:read');
    assert.ok(tokens.refresh_token);
    const reused = await tokenRequest(meta, body);
    assert.equal(reused.status, 400, 'a code works once');
    const init = await mcpPost(server, tokens.access_token as string, INIT);
    assert.equal(init.status, 200);
  });

  it('Deny on the consent page redirects with access_denied', async () => {
    const clientId = await register(meta);
    const { params } = await authorize(server, meta, clientId, { decision: 'deny' });
    assert.equal(params.get('error'), 'access_denied');
    assert.equal(params.get('code'), null);
  });

  it('step-up: the secret tool answers 403 insufficient_scope until the token carries secrets:read', async () => {
    const clientId = await register(meta);
    const base = await authorize(server, meta, clientId);
    const baseTokens = await json(await tokenRequest(meta, { grant_type: 'authorization_code', code: base.params.get('code')!, code_verifier: base.verifier, redirect_uri: REDIRECT, client_id: clientId, resource: server.mcpUrl }));
    const denied = await mcpPost(server, baseTokens.access_token as string, callTool('secret'));
    assert.equal(denied.status, 403);
    const challenge = parseBearerChallenge(denied.headers.get('www-authenticate'));
    assert.equal(challenge?.error, 'insufficient_scope');
    assert.deepEqual(challenge?.scopes, ['tools:read', 'secrets:read']);
    assert.equal(challenge?.resourceMetadata, server.resourceMetadataUrl);
    const whoami = await mcpPost(server, baseTokens.access_token as string, callTool('whoami'));
    assert.equal(whoami.status, 200);

    const up = await authorize(server, meta, clientId, { scope: 'tools:read secrets:read' });
    const upTokens = await json(await tokenRequest(meta, { grant_type: 'authorization_code', code: up.params.get('code')!, code_verifier: up.verifier, redirect_uri: REDIRECT, client_id: clientId, resource: server.mcpUrl }));
    assert.equal(upTokens.scope, 'tools:read secrets:read');
    const secret = await mcpPost(server, upTokens.access_token as string, callTool('secret'));
    assert.equal(secret.status, 200);
    assert.match(await secret.text(), /swordfish/);
  });

  it('tokens expire (401 invalid_token) and the refresh grant issues a new one, rotating the refresh token', async () => {
    const clientId = await register(meta);
    const { params, verifier } = await authorize(server, meta, clientId);
    const tokens = await json(await tokenRequest(meta, { grant_type: 'authorization_code', code: params.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, resource: server.mcpUrl }));
    server.provider.expireAccessTokens();
    const expired = await mcpPost(server, tokens.access_token as string, INIT);
    assert.equal(expired.status, 401);
    assert.equal(parseBearerChallenge(expired.headers.get('www-authenticate'))?.error, 'invalid_token');

    const refreshed = await tokenRequest(meta, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    assert.equal(refreshed.status, 200);
    const fresh = await json(refreshed);
    assert.notEqual(fresh.access_token, tokens.access_token);
    assert.equal((await mcpPost(server, fresh.access_token as string, INIT)).status, 200);
    const again = await tokenRequest(meta, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId });
    assert.equal(again.status, 400, 'the old refresh token is spent');
    // Real lifetime, too: after its two seconds (checked in whole seconds) the fresh token is expired on its own.
    await new Promise((r) => setTimeout(r, 3100));
    assert.equal((await mcpPost(server, fresh.access_token as string, INIT)).status, 401);
  });

  it('refuses an unknown consent form', async () => {
    const res = await fetch(new URL('/consent', server.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'consent=nope&decision=allow',
    });
    assert.equal(res.status, 400);
  });
});

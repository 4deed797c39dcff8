// The client identity a registration gives (its token_endpoint_auth_method first) and the 2025-03-26 default
// endpoints for an MCP server without authorization server metadata, down to the token request through authorize().
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError, authorize, discoverAuthorizationServer, memoryRegistrationStore, memoryTokenStore, resolveClientIdentity } from '../../src/auth.js';
import { identityOf } from '../../src/auth/client-identity.js';
import { CALLBACK_MESSAGE } from '../../src/auth/callback.js';
import type { AuthorizationServerMetadata, McpAuthRequirement } from '../../src/auth.js';

const REDIRECT = 'http://localhost:9999/callback.html';

const rejectsWith = async (p: Promise<unknown>, code: string) => {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof AuthError, `expected AuthError, got ${String(e)}`);
    assert.equal(e.code, code);
    return true;
  });
};

// ---- a small MCP-server origin that is its own authorization server ----
interface Logged {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  authorization: string | undefined;
}
const behavior = {
  /** Serve RFC 8414 metadata (else every well-known URL is a 404, as on a 2025-03-26 server without metadata). */
  metadata: undefined as undefined | ((origin: string) => Record<string, unknown>),
  /** Status of the well-known URLs when there is no metadata. */
  missingStatus: 404,
  registration: { client_id: 'reg-client', client_secret: 'reg-secret' } as Record<string, unknown>,
};
const log: Logged[] = [];
let origin = '';
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', origin);
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    log.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, body, authorization: req.headers.authorization });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (url.pathname.startsWith('/.well-known/')) {
      if (behavior.metadata && url.pathname === '/.well-known/oauth-authorization-server') return json(200, behavior.metadata(origin));
      return json(behavior.missingStatus, { error: 'not_found' });
    }
    if (url.pathname === '/register' && req.method === 'POST') return json(201, { ...behavior.registration, redirect_uris: JSON.parse(body).redirect_uris });
    if (url.pathname === '/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'code-1');
      back.searchParams.set('state', url.searchParams.get('state')!);
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') return json(200, { access_token: 'at-1', token_type: 'Bearer', expires_in: 600 });
    json(404, { error: 'not_found' });
  });
});

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The popup flow listens for window messages; Node 20 has no global event target.
  if (typeof (globalThis as { addEventListener?: unknown }).addEventListener !== 'function') {
    const target = new EventTarget();
    Object.assign(globalThis, {
      addEventListener: target.addEventListener.bind(target),
      removeEventListener: target.removeEventListener.bind(target),
      dispatchEvent: target.dispatchEvent.bind(target),
    });
  }
});
after(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  log.length = 0;
  behavior.metadata = undefined;
  behavior.missingStatus = 404;
  behavior.registration = { client_id: 'reg-client', client_secret: 'reg-secret' };
});

/** A popup stand-in: navigating it requests the authorization URL and posts the redirect's parameters like callback.html. */
function popup(): Window {
  const w = { closed: false, close: () => void (w.closed = true), location: {} as Location };
  Object.defineProperty(w.location, 'href', {
    set(url: string) {
      void fetch(url, { redirect: 'manual' }).then((res) => {
        const back = new URL(res.headers.get('location')!);
        const event = Object.assign(new Event('message'), {
          source: w,
          origin: back.origin,
          data: { type: CALLBACK_MESSAGE, ...Object.fromEntries(back.searchParams) },
        });
        dispatchEvent(event);
      });
    },
  });
  return w as unknown as Window;
}

const requirementFor = (mcpUrl: string, issuer = new URL(mcpUrl).origin): McpAuthRequirement => ({
  reason: 'required',
  resource: { resource: mcpUrl, authorization_servers: [issuer] },
});

async function signIn(requirement: McpAuthRequirement) {
  const calls: { resource: string; token: string }[] = [];
  const result = await authorize(requirement, {
    client: { authenticate: async (p) => void calls.push(p) },
    redirectUri: REDIRECT,
    popup: popup(),
    tokenStore: memoryTokenStore(),
    registrationStore: memoryRegistrationStore(),
  });
  return { calls, result, token: log.find((l) => l.path === '/token')! };
}

test('identity from a registration: its token_endpoint_auth_method first, then a sensible default', () => {
  const as = (methods?: string[]): AuthorizationServerMetadata => ({ issuer: 'https://as.example', ...(methods ? { token_endpoint_auth_methods_supported: methods } : {}) });
  // Registered as public (what the driver asks for): stays public even though a secret came back.
  assert.deepEqual(identityOf('c', 'sec', 'none', as(['client_secret_basic']), 'registered'), { clientId: 'c', authMethod: 'none', source: 'registered' });
  // No method echoed back, a secret, and the server takes only `none` at the token endpoint: public.
  assert.deepEqual(identityOf('c', 'sec', undefined, as(['none']), 'registered'), { clientId: 'c', authMethod: 'none', source: 'registered' });
  // No method echoed back, a secret, and a server that takes secrets: the one it supports (basic by default, RFC 8414).
  assert.deepEqual(identityOf('c', 'sec', undefined, as(['none', 'client_secret_post']), 'stored'), { clientId: 'c', clientSecret: 'sec', authMethod: 'client_secret_post', source: 'stored' });
  assert.equal(identityOf('c', 'sec', undefined, as(), 'registered').authMethod, 'client_secret_basic');
  // No secret: public whatever the server lists.
  assert.equal(identityOf('c', undefined, undefined, as(['client_secret_basic']), 'registered').authMethod, 'none');
  // The registration's own confidential method wins over the server's preference.
  assert.equal(identityOf('c', 'sec', 'client_secret_post', as(['client_secret_basic', 'client_secret_post']), 'registered').authMethod, 'client_secret_post');
  // A method the driver cannot use, or a confidential method without a secret, is a typed error.
  assert.throws(() => identityOf('c', 'sec', 'private_key_jwt', as(), 'registered'), (e: unknown) => e instanceof AuthError && e.code === 'unsupported_auth_method');
  assert.throws(() => identityOf('c', '', 'client_secret_basic', as(), 'registered'), (e: unknown) => e instanceof AuthError && e.code === 'unsupported_auth_method');
  assert.throws(() => identityOf('c', 'sec', undefined, as(['private_key_jwt']), 'registered'), (e: unknown) => e instanceof AuthError && e.code === 'unsupported_auth_method');
});

test('registration with a secret at a server that takes only `none`: public client, stored the same way, no client auth at /token', async () => {
  behavior.metadata = (o) => ({
    issuer: o,
    authorization_endpoint: `${o}/authorize`,
    token_endpoint: `${o}/token`,
    registration_endpoint: `${o}/register`,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
  });
  const as = await discoverAuthorizationServer(origin, fetch);
  const opts = { redirectUri: REDIRECT, registrationStore: memoryRegistrationStore(), fetch };
  assert.deepEqual(await resolveClientIdentity(requirementFor(`${origin}/mcp`), as, opts), { clientId: 'reg-client', authMethod: 'none', source: 'registered' });
  assert.deepEqual(await resolveClientIdentity(requirementFor(`${origin}/mcp`), as, opts), { clientId: 'reg-client', authMethod: 'none', source: 'stored' });
  assert.equal(log.filter((l) => l.path === '/register').length, 1);

  log.length = 0;
  const { calls, token } = await signIn(requirementFor(`${origin}/mcp`));
  assert.deepEqual(calls.map((c) => c.token), ['at-1']);
  const form = new URLSearchParams(token.body);
  assert.equal(token.authorization, undefined);
  assert.equal(form.get('client_id'), 'reg-client');
  assert.equal(form.get('client_secret'), null);
});

test('2025-03-26 server without metadata: /authorize, /token, /register at its origin, only for that origin and only when nothing answers', async () => {
  const mcp = `${origin}/mcp`;
  const defaults = await discoverAuthorizationServer(origin, fetch, mcp);
  assert.deepEqual(defaults, {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  });
  assert.deepEqual(
    log.map((l) => l.path),
    ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'],
    'the well-known URLs are tried first',
  );
  assert.deepEqual(await discoverAuthorizationServer(`${origin}/`, fetch, mcp), defaults, 'trailing slash');
  // Not the MCP server's own origin, or no resource given: no defaults.
  await rejectsWith(discoverAuthorizationServer(origin, fetch), 'discovery_failed');
  await rejectsWith(discoverAuthorizationServer(origin, fetch, 'http://localhost:1/mcp'), 'discovery_failed');
  await rejectsWith(discoverAuthorizationServer(`${origin}/tenant`, fetch, mcp), 'discovery_failed');
  await rejectsWith(discoverAuthorizationServer(origin, fetch, 'not a url'), 'discovery_failed');
  // A server error or an unreachable server is not "no metadata".
  behavior.missingStatus = 500;
  await rejectsWith(discoverAuthorizationServer(origin, fetch, mcp), 'discovery_failed');
  await rejectsWith(discoverAuthorizationServer(origin, () => Promise.reject(new TypeError('offline')), mcp), 'discovery_failed');
  // Metadata that exists is still checked: a wrong issuer is refused, never replaced by the defaults.
  behavior.missingStatus = 404;
  behavior.metadata = (o) => ({ issuer: `${o}/other`, authorization_endpoint: `${o}/authorize`, token_endpoint: `${o}/token` });
  await rejectsWith(discoverAuthorizationServer(origin, fetch, mcp), 'issuer_mismatch');
});

test('2025-03-26 server without metadata: authorize() registers, authorizes with PKCE and exchanges the code at the default endpoints', async () => {
  const mcp = `${origin}/mcp`;
  const { calls, result, token } = await signIn(requirementFor(mcp));
  assert.deepEqual(
    log.filter((l) => !l.path.startsWith('/.well-known/')).map((l) => `${l.method} ${l.path}`),
    ['POST /register', 'GET /authorize', 'POST /token'],
  );
  const auth = log.find((l) => l.path === '/authorize')!.query;
  assert.equal(auth.get('client_id'), 'reg-client');
  assert.equal(auth.get('code_challenge_method'), 'S256');
  assert.match(auth.get('code_challenge') ?? '', /^[\w-]{43}$/);
  assert.equal(auth.get('resource'), mcp);
  // No metadata lists the methods and the registration named none, so its secret goes by basic (RFC 7591 §2 default).
  assert.equal(token.authorization, `Basic ${btoa('reg-client:reg-secret')}`);
  const form = new URLSearchParams(token.body);
  assert.equal(form.get('grant_type'), 'authorization_code');
  assert.equal(form.get('code'), 'code-1');
  assert.equal(form.get('resource'), mcp);
  assert.deepEqual(calls, [{ resource: mcp, token: 'at-1', expiresIn: result.expiresIn }]);

  // A registration that says it is public stays public here too.
  log.length = 0;
  behavior.registration = { client_id: 'pub', client_secret: 'ignored', token_endpoint_auth_method: 'none' };
  const again = await signIn(requirementFor(mcp));
  assert.equal(again.token.authorization, undefined);
  assert.equal(new URLSearchParams(again.token.body).get('client_id'), 'pub');
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBearerChallenge } from '../../examples/playground/auth/www-authenticate.js';
import {
  authRequirementFor,
  withDemoNote,
  protectedResourceMetadataUrls,
  reasonFor,
  resourceCovers,
} from '../../examples/playground/auth/auth-requirement.js';
import { readConsentForm } from '../fixtures/auth/headless-browser.js';
import { clientDisplayName, consentPage } from '../../examples/playground/auth/consent-page.js';
import { parseConfig } from '../../examples/playground/config.js';

const SERVER = 'http://127.0.0.1:4000/mcp';

/** A fetch that answers JSON for known URLs and 404 otherwise, recording what was asked. */
function stubFetch(routes: Record<string, unknown>) {
  const asked: string[] = [];
  const impl = (async (input: string | URL | Request) => {
    const url = String(input);
    asked.push(url);
    return url in routes ? new Response(JSON.stringify(routes[url]), { headers: { 'content-type': 'application/json' } }) : new Response('no', { status: 404 });
  }) as typeof fetch;
  return { impl, asked };
}

describe('WWW-Authenticate Bearer parsing', () => {
  it('reads error, description, scopes and resource_metadata (quoted, escaped, unquoted tokens)', () => {
    const c = parseBearerChallenge('Bearer error="insufficient_scope", scope="a b  c", resource_metadata="http://x/.well-known/oauth-protected-resource/mcp", error_description="needs \\"c\\""');
    assert.deepEqual(c, {
      error: 'insufficient_scope',
      errorDescription: 'needs "c"',
      scopes: ['a', 'b', 'c'],
      resourceMetadata: 'http://x/.well-known/oauth-protected-resource/mcp',
    });
    assert.deepEqual(parseBearerChallenge('bearer error=invalid_token'), { error: 'invalid_token' });
  });

  it('finds the Bearer challenge among others and ignores headers without one', () => {
    assert.deepEqual(parseBearerChallenge('Basic realm="x", Bearer scope="s"'), { scopes: ['s'] });
    assert.equal(parseBearerChallenge('Basic realm="x"'), undefined);
    assert.equal(parseBearerChallenge(null), undefined);
    assert.deepEqual(parseBearerChallenge('Bearer'), {});
  });
});

describe('auth requirement from a challenge', () => {
  it('well-known metadata URLs: path-inserted first, then the root', () => {
    assert.deepEqual(protectedResourceMetadataUrls('http://h:1/a/mcp/'), ['http://h:1/.well-known/oauth-protected-resource/a/mcp', 'http://h:1/.well-known/oauth-protected-resource']);
    assert.deepEqual(protectedResourceMetadataUrls('http://h:1/'), ['http://h:1/.well-known/oauth-protected-resource']);
  });

  it('resourceCovers: same origin and a path at or above the server', () => {
    assert.equal(resourceCovers('http://127.0.0.1:4000/mcp', SERVER), true);
    assert.equal(resourceCovers('http://127.0.0.1:4000/', SERVER), true);
    assert.equal(resourceCovers('http://127.0.0.1:4000/other', SERVER), false);
    assert.equal(resourceCovers('https://evil.example.com/mcp', SERVER), false);
    assert.equal(resourceCovers('http://127.0.0.1:4000/mc', SERVER), false, 'not a mere string prefix');
    assert.equal(resourceCovers('not a url', SERVER), false);
  });

  it('reason: 403 → insufficientScope; 401 with a token sent → expired; without → required', () => {
    assert.equal(reasonFor({ status: 403, wwwAuthenticate: 'Bearer error="insufficient_scope"' }, true), 'insufficientScope');
    assert.equal(reasonFor({ status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' }, true), 'expired');
    assert.equal(reasonFor({ status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' }, false), 'required');
    assert.equal(reasonFor({ status: 401, wwwAuthenticate: 'Bearer error="invalid_request"' }, true), 'required');
  });

  it('uses the challenge resource_metadata URL and copies scopes and description', async () => {
    const prm = { resource: SERVER, authorization_servers: ['http://as/'] };
    const { impl, asked } = stubFetch({ 'http://127.0.0.1:4000/custom.json': prm });
    const req = await authRequirementFor(SERVER, { status: 401, wwwAuthenticate: 'Bearer resource_metadata="http://127.0.0.1:4000/custom.json", scope="s1", error_description="d"' }, 'expired', impl);
    assert.deepEqual(req, { reason: 'expired', resource: prm, requiredScopes: ['s1'], description: 'd' });
    assert.deepEqual(asked, ['http://127.0.0.1:4000/custom.json']);
  });

  it('drops the description of a challenge to a request without a token ("Missing Authorization header" is not for users)', async () => {
    const prm = { resource: SERVER, authorization_servers: ['http://as/'] };
    const { impl } = stubFetch({ 'http://127.0.0.1:4000/custom.json': prm });
    const challenge = 'Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://127.0.0.1:4000/custom.json"';
    const req = await authRequirementFor(SERVER, { status: 401, wwwAuthenticate: challenge }, 'required', impl);
    assert.equal(req.description, undefined);
  });

  it('the demo OAuth server explains itself and its short token lifetime; other servers are left alone', () => {
    const base = { reason: 'expired' as const, resource: { resource: SERVER } };
    const demo = { id: 'p', name: 'P', enabled: true, transport: 'http' as const, url: SERVER, builtin: 'oauth-demo' as const, tokenLifetimeSeconds: 42 };
    assert.match(withDemoNote(demo, base).description ?? '', /42 s.*tokenLifetimeSeconds/);
    assert.match(withDemoNote(demo, { ...base, reason: 'required' }).description ?? '', /42 s/);
    assert.equal(withDemoNote(demo, { ...base, reason: 'insufficientScope', description: 'd' }).description, 'd');
    const plain = { ...demo, builtin: undefined };
    delete plain.builtin;
    assert.equal(withDemoNote(plain, base).description, undefined);
  });

  it('falls back to the well-known locations in order', async () => {
    const prm = { resource: SERVER, authorization_servers: ['http://as/'] };
    const { impl, asked } = stubFetch({ 'http://127.0.0.1:4000/.well-known/oauth-protected-resource': prm });
    const req = await authRequirementFor(SERVER, { status: 401, wwwAuthenticate: 'Bearer' }, 'required', impl);
    assert.deepEqual(req.resource, prm);
    assert.deepEqual(asked, ['http://127.0.0.1:4000/.well-known/oauth-protected-resource/mcp', 'http://127.0.0.1:4000/.well-known/oauth-protected-resource']);
  });

  it('no metadata anywhere → 2025-03-26 style: the server origin is the authorization server', async () => {
    const { impl } = stubFetch({});
    const req = await authRequirementFor(SERVER, { status: 401, wwwAuthenticate: null }, 'required', impl);
    assert.deepEqual(req.resource, { resource: SERVER, authorization_servers: ['http://127.0.0.1:4000'] });
  });

  it('refuses metadata that names another resource, and an unusable named metadata URL', async () => {
    const { impl } = stubFetch({ 'http://127.0.0.1:4000/.well-known/oauth-protected-resource/mcp': { resource: 'https://evil.example.com/mcp' } });
    await assert.rejects(authRequirementFor(SERVER, { status: 401, wwwAuthenticate: 'Bearer' }, 'required', impl), /names the resource https:\/\/evil\.example\.com\/mcp/);
    await assert.rejects(
      authRequirementFor(SERVER, { status: 401, wwwAuthenticate: 'Bearer resource_metadata="http://127.0.0.1:4000/gone"' }, 'required', stubFetch({}).impl),
      /No protected-resource metadata/,
    );
  });
});

describe('consent form', () => {
  it('the page escapes what it shows and the walker reads the form back', () => {
    const html = consentPage({ consentId: 'a"b&c', action: '/consent', clientName: '<script>x</script>', scopes: ['s<1>'] });
    assert.ok(!html.includes('<script>x'), 'client name escaped');
    assert.ok(html.includes('&lt;script&gt;x&lt;/script&gt;'));
    const allow = readConsentForm(html, 'allow');
    assert.equal(allow?.action, '/consent');
    assert.equal(allow?.fields.get('consent'), 'a"b&c');
    assert.equal(allow?.fields.get('decision'), 'allow');
    assert.equal(readConsentForm(html, 'deny')?.fields.get('decision'), 'deny');
    assert.equal(readConsentForm('<p>nothing</p>', 'allow'), undefined);
  });

  it('names the client by its name, a metadata-document host or its redirect origin, never a bare generated id', () => {
    assert.equal(clientDisplayName({ client_id: '6f1c…', client_name: ' Playground ' }), 'Playground');
    assert.equal(clientDisplayName({ client_id: 'https://app.example/client.json' }), 'app.example');
    assert.equal(clientDisplayName({ client_id: '3b7e0c2a-uuid', redirect_uris: ['http://127.0.0.1:4173/callback.html'] }), 'The page at http://127.0.0.1:4173');
    assert.equal(clientDisplayName({ client_id: '3b7e0c2a-uuid' }), 'An unnamed application');
    const html = consentPage({ consentId: 'c', action: '/consent', clientName: 'Playground', redirectOrigin: 'http://127.0.0.1:4173', scopes: [] });
    assert.match(html, /go back to <code>http:\/\/127\.0\.0\.1:4173<\/code>/);
  });
});

describe('config for protected servers', () => {
  it('builtin oauth-demo takes no url; tokenLifetimeSeconds and oauthClient are checked', () => {
    const ok = parseConfig({
      servers: [
        { id: 'p', name: 'P', transport: 'http', builtin: 'oauth-demo', tokenLifetimeSeconds: 5 },
        { id: 'h', name: 'H', transport: 'http', url: 'http://127.0.0.1:1/mcp', oauthClient: { clientId: 'c', clientSecret: 's' } },
      ],
    });
    assert.deepEqual(ok.servers[0], { id: 'p', name: 'P', enabled: true, transport: 'http', url: '', builtin: 'oauth-demo', tokenLifetimeSeconds: 5 });
    assert.deepEqual((ok.servers[1] as { oauthClient?: unknown }).oauthClient, { clientId: 'c', clientSecret: 's' });
    assert.throws(
      () =>
        parseConfig({
          servers: [
            { id: 'a', name: 'A', transport: 'http', builtin: 'other' },
            { id: 'b', name: 'B', transport: 'http', builtin: 'oauth-demo', url: 'http://x/', tokenLifetimeSeconds: 0 },
            { id: 'c', name: 'C', transport: 'http', url: 'http://x/', oauthClient: { clientSecret: 's' } },
          ],
        }),
      (err: Error) => {
        assert.match(err.message, /servers\[0\]\.builtin: the only built-in server is "oauth-demo"/);
        assert.match(err.message, /servers\[1\]\.url: a built-in server gets its URL/);
        assert.match(err.message, /servers\[1\]\.tokenLifetimeSeconds: expected a whole number/);
        assert.match(err.message, /servers\[2\]\.oauthClient: expected/);
        return true;
      },
    );
  });
});

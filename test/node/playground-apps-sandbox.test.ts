// Per-server sandbox origins of the playground: one loopback port per MCP server, the proxy page with the
// View's CSP as an HTTP header, frame-ancestors pinned to the page, no foreign Host, `_meta.ui.domain` origins.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startSandboxOrigins, domainLabel, type SandboxOrigins } from '../../examples/playground/apps/sandbox-origins.js';
import { inlineProxyScript, loadSandboxProxyAssets } from '../../examples/playground/apps/sandbox-proxy-assets.js';

const PAGE = 'http://127.0.0.1:4999';

/** GET with an explicit Host header (fetch does not allow setting it); `*.localhost` is dialled at 127.0.0.1 (Node does not resolve it). */
function get(url: string, host?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const target = new URL(url);
  const header = host ?? target.host;
  if (target.hostname.endsWith('.localhost')) target.hostname = '127.0.0.1';
  return new Promise((resolve, reject) => {
    const req = http.get(target, { headers: { host: header } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

describe('playground sandbox origins', () => {
  let origins: SandboxOrigins;
  let assetCalls = 0;
  before(async () => {
    origins = await startSandboxOrigins({
      serverIds: ['a', 'b'],
      pageOrigins: [PAGE, 'http://localhost:4999'],
      assets: async () => {
        assetCalls++;
        return { html: '<!doctype html><title>proxy</title>', script: 'console.log("proxy")' };
      },
    });
  });
  after(() => origins?.close());

  it('gives every server its own loopback origin, differing by host name (cookies ignore ports)', () => {
    const a = origins.get('a')!;
    const b = origins.get('b')!;
    assert.match(a.origin, /^http:\/\/a\.localhost:\d+$/);
    assert.match(b.origin, /^http:\/\/b\.localhost:\d+$/);
    assert.notEqual(new URL(a.origin).hostname, new URL(b.origin).hostname);
    assert.notEqual(new URL(a.origin).hostname, new URL(PAGE).hostname);
    assert.equal(a.url, `${a.origin}/sandbox.html`);
    assert.equal(origins.get('nope'), undefined);
    assert.deepEqual(origins.all().map((s) => s.serverId), ['a', 'b']);
  });

  it('serves the proxy page with the CSP of the csp query as a header, uncached, framable only by the page', async () => {
    const csp = encodeURIComponent(JSON.stringify({ connectDomains: ['https://api.example.com'], resourceDomains: ["evil.com; script-src *"] }));
    const res = await get(`${origins.get('a')!.url}?csp=${csp}&parent=${encodeURIComponent(PAGE)}`);
    assert.equal(res.status, 200);
    assert.equal(res.body, '<!doctype html><title>proxy</title>');
    const policy = String(res.headers['content-security-policy']);
    assert.match(policy, /connect-src 'self' https:\/\/api\.example\.com/);
    assert.doesNotMatch(policy, /evil/, 'an injected token is dropped');
    assert.match(policy, /frame-ancestors http:\/\/127\.0\.0\.1:4999$/);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(String(res.headers['content-type']), /^text\/html/);
  });

  it('no csp → the restrictive default; a parent that is not the page → frame-ancestors stays the page', async () => {
    const res = await get(`${origins.get('b')!.url}?parent=${encodeURIComponent('http://attacker.test')}`);
    const policy = String(res.headers['content-security-policy']);
    assert.match(policy, /connect-src 'none'/);
    assert.match(policy, /frame-ancestors http:\/\/127\.0\.0\.1:4999$/);
    const other = await get(`${origins.get('b')!.url}?parent=${encodeURIComponent('http://localhost:4999/x')}`);
    assert.match(String(other.headers['content-security-policy']), /frame-ancestors http:\/\/localhost:4999$/, 'another allowed page origin');
  });

  it('serves the proxy script next to the page and a blank page (benchmark baseline); nothing else', async () => {
    const a = origins.get('a')!;
    const script = await get(`${a.origin}/sandbox-proxy.js`);
    assert.equal(script.status, 200);
    assert.match(String(script.headers['content-type']), /javascript/);
    assert.equal(script.body, 'console.log("proxy")');
    const blank = await get(a.blankUrl);
    assert.equal(blank.status, 200);
    assert.match(String(blank.headers['content-security-policy']), /default-src 'none'/);
    assert.equal((await get(`${a.origin}/`)).status, 404);
    assert.equal((await get(`${a.origin}/../package.json`)).status, 404);
    assert.ok(assetCalls >= 2);
  });

  it('refuses a foreign Host (DNS rebinding) but accepts localhost names and <label>.localhost', async () => {
    const a = origins.get('a')!;
    const port = new URL(a.origin).port;
    assert.equal((await get(a.url, `attacker.test:${port}`)).status, 421);
    assert.equal((await get(a.url, `127.0.0.1:1`)).status, 421);
    assert.equal((await get(a.url, `localhost:${port}`)).status, 200);
    assert.equal((await get(a.url, `app-x.localhost:${port}`)).status, 200);
  });

  it('_meta.ui.domain maps to a distinct <label>.localhost origin on the server\'s port', () => {
    const a = origins.get('a')!;
    const port = new URL(a.origin).port;
    assert.equal(a.urlForDomain('Abc123.Example.com'), `http://abc123-example-com.localhost:${port}/sandbox.html`);
    assert.equal(domainLabel('***'), 'app');
    assert.ok(domainLabel('x'.repeat(100)).length <= 63);
    assert.notEqual(new URL(a.urlForDomain('one')).origin, new URL(a.urlForDomain('two')).origin);
    assert.equal(a.domainUrlTemplate.replace('{domain}', 'abc123-example-com'), a.urlForDomain('Abc123.Example.com'));
  });

  it('the real proxy page from src/apps loads and its script bundles for the browser', async () => {
    const { html, script } = await loadSandboxProxyAssets();
    assert.match(html, /<script type="module" src="\.\/sandbox-proxy\.js">/);
    assert.ok(script.includes('ui/notifications/sandbox-proxy-ready'), 'the bundle is the proxy');
    assert.ok(!/\brequire\(/.test(script), 'an ESM browser bundle');
  });

  it('the playground serves the proxy page with its script inline and minified: one request per proxy load', async () => {
    const assets = await loadSandboxProxyAssets();
    const { html, script } = await inlineProxyScript(assets);
    assert.equal(script, assets.script, 'the script is still served on its own');
    assert.doesNotMatch(html, /src="\.\/sandbox-proxy\.js"/);
    const inline = /<script type="module">([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    assert.ok(inline.includes('ui/notifications/sandbox-proxy-ready'), 'the proxy runs from the page');
    assert.ok(inline.length < assets.script.length / 2, `minified (${inline.length} of ${assets.script.length} chars)`);
    assert.doesNotMatch(inline, /<\/script/i);
  });
});


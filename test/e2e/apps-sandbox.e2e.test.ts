// End to end, security of the playground's MCP Apps sandboxes in Chromium: the real proxy page (src/apps) on each
// server's own origin, driven from the real playground page the way <ahp-mcp-app> drives it, with test Views that
// report what they could reach.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { appServers } from '../fixtures/mcp-servers.js';
import { launchChromium } from '../fixtures/playground-page.js';

interface Report {
  origin: string;
  before?: string | null;
  after?: string | null;
  storageError?: string;
  parentDoc?: string;
  parentDocError?: string;
  topNavError?: string;
  fetched?: string;
  fetchError?: string;
  violation?: string;
}

/** A View that reports its origin, what it found in localStorage (then writes `write`), and what it could reach. */
function probeView(write: string, fetchUrl?: string): string {
  return `<!doctype html><html><body><script>
    (async () => {
      const r = { origin: location.origin };
      addEventListener('securitypolicyviolation', (e) => { r.violation = e.violatedDirective; });
      try { r.before = localStorage.getItem('secret'); localStorage.setItem('secret', ${JSON.stringify(write)}); r.after = localStorage.getItem('secret'); }
      catch (e) { r.storageError = String(e); }
      try { r.parentDoc = typeof window.parent.parent.document.title; } catch (e) { r.parentDocError = e.name; }
      try { window.top.location.href = 'about:blank#escaped'; } catch (e) { r.topNavError = e.name; }
      ${fetchUrl ? `try { r.fetched = await (await fetch(${JSON.stringify(fetchUrl)})).text(); } catch (e) { r.fetchError = String(e); }` : ''}
      await new Promise((res) => setTimeout(res, 50));
      window.parent.postMessage({ jsonrpc: '2.0', method: 'test/report', params: r }, '*');
    })();
  </script></body></html>`;
}

// What <ahp-mcp-app> does with the proxy: frame it with ?csp=&parent=, wait for sandbox-proxy-ready from that
// frame and origin, hand it the View HTML, then listen to what the View sends through it.
const MOUNT = `window.__mountProbe = (sandboxUrl, html, csp) => {
  const url = new URL(sandboxUrl);
  if (csp) url.searchParams.set('csp', JSON.stringify(csp));
  url.searchParams.set('parent', location.origin);
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  frame.src = url.href;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { removeEventListener('message', on); reject(new Error('no report from ' + url.origin)); }, 10000);
    function on(e) {
      if (e.source !== frame.contentWindow || e.origin !== url.origin) return;
      const method = e.data && e.data.method;
      if (method === 'ui/notifications/sandbox-proxy-ready') {
        frame.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html, ...(csp ? { csp } : {}) } }, url.origin);
      } else if (method === 'test/report') {
        clearTimeout(timer); removeEventListener('message', on); frame.remove(); resolve(e.data.params);
      }
    }
    addEventListener('message', on);
    document.body.append(frame);
  });
};`;

describe('MCP Apps sandbox security (Chromium + playground sandbox origins)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;
  let loopback: http.Server;
  let loopbackUrl: string;

  const mount = (sandboxUrl: string, html: string, csp?: Record<string, string[]>): Promise<Report> =>
    page.evaluate((u, h, c) => (window as unknown as { __mountProbe(u: string, h: string, c?: unknown): Promise<Report> }).__mountProbe(u, h, c), sandboxUrl, html, csp);
  const sandboxOf = (id: string) => {
    const s = playground.apps.sandboxes.get(id);
    assert.ok(s, `a sandbox origin for ${id}`);
    return s;
  };

  before(async () => {
    const config = parseConfig({ servers: appServers(['alpha', 'Alpha'], ['beta', 'Beta']) });
    // The sandboxes do not need the servers running.
    playground = await startPlayground({ port: 0, config, autoStart: false });
    loopback = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/framer') {
        // Another origin trying to frame a server's sandbox (and to receive its ready message).
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end(`<!doctype html><script>window.__seen = []; addEventListener('message', (e) => window.__seen.push(e.data && e.data.method));</script>
          <iframe sandbox="allow-scripts allow-same-origin" onload="window.__loaded = true" src="${url.searchParams.get('src')}"></iframe>`);
      }
      res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' });
      res.end('reachable');
    });
    await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', r));
    loopbackUrl = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}/`;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(playground.url, { waitUntil: 'load' });
    await page.evaluate(MOUNT);
  });
  after(async () => {
    await browser?.close();
    await playground?.close();
    loopback?.closeAllConnections();
    await new Promise<void>((r) => (loopback ? loopback.close(() => r()) : r()));
  });

  it('each server\'s Views run on that server\'s own origin, never the page\'s', async () => {
    const a = await mount(sandboxOf('alpha').url, probeView('a0'));
    const b = await mount(sandboxOf('beta').url, probeView('b0'));
    assert.equal(a.origin, sandboxOf('alpha').origin);
    assert.equal(b.origin, sandboxOf('beta').origin);
    assert.notEqual(a.origin, new URL(playground.url).origin);
    assert.notEqual(a.origin, b.origin);
  });

  it('the page learns each server\'s sandbox from /playground-apps.json and from the server\'s _meta', async () => {
    const info = (await (await fetch(new URL('/playground-apps.json', playground.url))).json()) as { sandboxes: Record<string, { url: string; domainUrlTemplate: string }> };
    assert.deepEqual(Object.keys(info.sandboxes), ['alpha', 'beta']);
    assert.equal(info.sandboxes.alpha!.url, sandboxOf('alpha').url);
    assert.equal(info.sandboxes.alpha!.domainUrlTemplate, sandboxOf('alpha').domainUrlTemplate);
    const state = playground.host.getSessionState(playground.sessionUri);
    const alpha = state?.customizations?.find((c) => c.id === 'alpha');
    assert.deepEqual(alpha?._meta?.['ahp-elements/sandbox'], { url: sandboxOf('alpha').url, origin: sandboxOf('alpha').origin });
  });

  it('Apps from two servers cannot see each other\'s localStorage (while one server\'s Views share theirs)', async () => {
    const first = await mount(sandboxOf('alpha').url, probeView('alpha-secret'));
    assert.equal(first.storageError, undefined);
    assert.equal(first.after, 'alpha-secret');
    const again = await mount(sandboxOf('alpha').url, probeView('alpha-secret'));
    assert.equal(again.before, 'alpha-secret', 'storage works: the same server\'s next View sees it');
    const other = await mount(sandboxOf('beta').url, probeView('beta-secret'));
    assert.notEqual(other.before, 'alpha-secret', 'the other server\'s App does not');
    const alphaAfter = await mount(sandboxOf('alpha').url, probeView('alpha-secret'));
    assert.equal(alphaAfter.before, 'alpha-secret', 'and it did not overwrite alpha\'s');
  });

  it('a View cannot read the parent document or navigate the top window', async () => {
    const before = page.url();
    const r = await mount(sandboxOf('alpha').url, probeView('x'));
    assert.equal(r.parentDoc, undefined, 'window.parent.parent.document is out of reach');
    assert.equal(r.parentDocError, 'SecurityError');
    await new Promise((res) => setTimeout(res, 100));
    assert.equal(page.url(), before, 'the top window did not navigate');
  });

  it('a fetch to a loopback origin the CSP does not declare is blocked; declaring it lets it through', async () => {
    const blocked = await mount(sandboxOf('alpha').url, probeView('x', loopbackUrl));
    assert.equal(blocked.fetched, undefined);
    assert.match(blocked.fetchError ?? '', /TypeError|Failed to fetch/);
    assert.equal(blocked.violation, 'connect-src');
    const declared = await mount(sandboxOf('alpha').url, probeView('x', loopbackUrl), { connectDomains: [loopbackUrl.replace(/\/$/, '')] });
    assert.equal(declared.fetched, 'reachable', 'the same fetch with the origin declared in _meta.ui.csp works');
    const otherDeclared = await mount(sandboxOf('alpha').url, probeView('x', loopbackUrl), { connectDomains: ['http://127.0.0.1:1'] });
    assert.equal(otherDeclared.fetched, undefined, 'declaring another loopback port does not open this one');
  });

  it('the proxy refuses to be framed by another origin than the page (frame-ancestors) and to run unframed', async () => {
    const direct = await browser.newPage();
    try {
      await direct.goto(`${sandboxOf('alpha').url}?parent=${encodeURIComponent(new URL(playground.url).origin)}`, { waitUntil: 'load' });
      await direct.waitForFunction(() => document.body.textContent?.includes('only runs inside'), { timeout: 5000 });
    } finally {
      await direct.close();
    }
    const framer = await browser.newPage();
    try {
      const origin = new URL(loopbackUrl).origin;
      const src = `${sandboxOf('alpha').url}?parent=${encodeURIComponent(origin)}`;
      await framer.goto(`${loopbackUrl}framer?src=${encodeURIComponent(src)}`, { waitUntil: 'load' });
      await framer.waitForFunction(() => (window as unknown as { __loaded?: boolean }).__loaded === true, { timeout: 10_000 });
      await new Promise((r) => setTimeout(r, 500)); // time enough for a proxy that did load to announce itself
      assert.deepEqual(await framer.evaluate(() => (window as unknown as { __seen: unknown[] }).__seen), [], 'the proxy never ran for a foreign framer');
    } finally {
      await framer.close();
    }
    // Node does not resolve *.localhost: dial the same port on 127.0.0.1 (an accepted Host for the sandbox).
    const direct127 = new URL(`${sandboxOf('alpha').url}?parent=${encodeURIComponent('http://evil.test')}`);
    direct127.hostname = '127.0.0.1';
    const policy = (await fetch(direct127)).headers.get('content-security-policy');
    assert.match(policy ?? '', new RegExp(`frame-ancestors ${new URL(playground.url).origin.replace(/[.]/g, '\\.')}$`));
  });

  it('_meta.ui.domain gets its own origin (<label>.localhost on the server\'s port) with its own storage', async () => {
    const url = sandboxOf('alpha').urlForDomain('widgets.example.com');
    const r = await mount(url, probeView('domain-secret'));
    assert.equal(r.origin, new URL(url).origin);
    assert.notEqual(r.before, 'alpha-secret', 'not the server\'s default origin storage');
    assert.equal(r.after, 'domain-secret');
  });
});

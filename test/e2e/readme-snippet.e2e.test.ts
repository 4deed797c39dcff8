// End to end: the README's plain-HTML block, taken from README.md as written, served from a second local origin that
// the playground allows with `allowOrigins` (`npm start -- --allow-origin …`). The only change is the playground's port
// (4173 in the README; a free one here). The same page from an origin that is not allowed cannot connect.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { REPO_ROOT } from '../../examples/playground/config.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { clickLanded } from '../fixtures/playground-page.js';

const WAIT_MS = 60_000;

/** The first ```html block under "## Use it in a plain HTML page". */
async function readmeSnippet(): Promise<string> {
  const readme = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use it in a plain HTML page'));
  const m = /```html\n([\s\S]*?)```/.exec(section);
  assert.ok(m, 'README has an html block in "Use it in a plain HTML page"');
  return m[1]!;
}

describe('the README plain-HTML snippet from another origin (Chromium + playground)', () => {
  let playground: Playground;
  let site: http.Server;
  let sitePort = 0;
  let browser: Browser;
  let snippet = '';
  const problems: string[] = [];

  before(async () => {
    snippet = await readmeSnippet();
    assert.match(snippet, /127\.0\.0\.1:4173/, 'the snippet names the default playground address');
    let page = '';
    site = http.createServer((req, res) => {
      if (req.url !== '/' && req.url !== '/index.html') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
    playground = await startPlayground({ port: 0, allowOrigins: [`http://localhost:${sitePort}`] });
    const port = new URL(playground.url).port;
    page = `<!doctype html><meta charset="utf-8"><title>README snippet</title>\n${snippet.replaceAll('127.0.0.1:4173', `127.0.0.1:${port}`)}`;
    browser = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await playground?.close();
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  });

  async function open(origin: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('pageerror', (err) => problems.push(`${origin} pageerror: ${err instanceof Error ? err.message : String(err)}`));
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    return page;
  }

  it('from the allowed origin: the servers go ready, the chat loads and answers /sum 1 2', async () => {
    const page = await open(`http://localhost:${sitePort}`);
    try {
      await page.waitForFunction(
        () => document.querySelector('ahp-mcp-server[server-id="everything"]')?.matches(':state(ready)'),
        { timeout: WAIT_MS },
      );
      const listed = await page.waitForFunction(
        () => {
          const ids = [...(document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelectorAll('ahp-mcp-server') ?? [])].map((s) => s.getAttribute('server-id'));
          return ids.length ? ids : false;
        },
        { timeout: WAIT_MS },
      );
      assert.deepEqual(new Set((await listed.jsonValue()) as string[]), new Set(playground.servers.keys()));
      await page.waitForFunction(() => !document.querySelector('ahp-chat')?.matches(':state(loading)'), { timeout: WAIT_MS });
      const input = await page.waitForFunction(() => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('textarea') ?? false, { timeout: WAIT_MS });
      await clickLanded(input.asElement() as ElementHandle<Element>);
      await page.keyboard.type('/sum 1 2');
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () => {
          const calls = [...(document.querySelector('ahp-chat')?.shadowRoot?.querySelectorAll('ahp-tool-call') ?? [])];
          return calls.some((c) => c.matches(':state(completed)') && /3/.test(c.shadowRoot?.querySelector('[part~="result"]')?.textContent ?? ''));
        },
        { timeout: WAIT_MS },
      );
    } finally {
      await page.close();
    }
  });

  it('from an origin that is not allowed, neither the CDN file nor the socket is available', async () => {
    const page = await open(`http://127.0.0.1:${sitePort}`);
    try {
      // After `load` every module script has run or failed: without a CORS header for this origin it failed.
      assert.equal(await page.evaluate(() => customElements.get('ahp-session')), undefined);
      const outcome = await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url);
            ws.onopen = () => (ws.close(), resolve('open'));
            ws.onerror = () => resolve('refused');
          }),
        playground.wsUrl,
      );
      assert.equal(outcome, 'refused');
    } finally {
      await page.close();
    }
  });

  it('the allowed page raised no errors', () => {
    assert.deepEqual(problems.filter((p) => p.startsWith('http://localhost')), []);
  });
});

// End to end: every usage page in examples/pages (plain HTML + the CDN file, a bundler page, React 19, React 18 with the
// @lit/react wrappers, Vue 3) loads in Chromium against the playground host, shows both servers and a completed
// `/sum 1 2` tool call — once from the page's own button, once typed into <ahp-chat> (the page's listener for
// `ahp-chat-send` must see it) — without console errors or page errors. The CDN page runs once more in worker mode with
// the CDN's one-file session worker (dist/cdn/ahp-session-worker.min.js, as the README tells CDN users to serve it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { parseConfig, REPO_ROOT } from '../../examples/playground/config.js';
import { BUNDLED_PAGES, buildExample } from '../../examples/playground/build-examples.mjs';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { publishedServer } from '../fixtures/mcp-servers.js';
import { CDN_FILE, ensureCdnBuild } from '../fixtures/cdn-build.js';
import { clickLanded } from '../fixtures/playground-page.js';

const WAIT_MS = 15_000;
/** The usage pages, and the CDN page again with `<ahp-session worker="shared">` on the minified session worker file. */
const PAGES: { name: string; page: string; workerUrl?: string }[] = [
  ...['cdn', 'bundler', 'react19', 'react18', 'vue'].map((name) => ({ name, page: name })),
  { name: 'cdn in worker mode', page: 'cdn', workerUrl: '/cdn/ahp-session-worker.min.js' },
];

/**
 * Puts the page's `<ahp-session>` in shared-worker mode on `workerUrl` as the parser inserts it, before the page's
 * module scripts define it and give it its URL (a page author writing the two attributes into the HTML).
 */
const workerModeScript = (workerUrl: string) => `new MutationObserver((_, mo) => {
  const session = document.querySelector('ahp-session');
  if (!session) return;
  session.setAttribute('worker', 'shared');
  session.setAttribute('worker-url', ${JSON.stringify(workerUrl)});
  mo.disconnect();
}).observe(document, { childList: true, subtree: true });`;
const SERVERS = ['everything', 'basic-vanillajs'];

/** What a page shows, read through the shadow roots (runs in the page). */
interface PageView {
  /** Server id → custom states of its `<ahp-mcp-server>`. */
  servers: Record<string, string[]>;
  chatLoaded: boolean;
  chatActive: boolean;
  toolCalls: { status: string; result: string }[];
  lastSent: string;
}

const readPage = (page: Page): Promise<PageView> =>
  page.evaluate((ids) => {
    const list = document.querySelector('ahp-mcp-server-list')?.shadowRoot;
    const servers: Record<string, string[]> = {};
    for (const id of ids) {
      const el = list?.querySelector(`ahp-mcp-server[server-id="${id}"]`);
      if (el?.shadowRoot) servers[id] = ['ready', 'starting', 'error', 'stopped'].filter((s) => el.matches(`:state(${s})`));
    }
    const chat = document.querySelector('ahp-chat');
    const root = chat?.shadowRoot;
    return {
      servers,
      chatLoaded: !!root?.querySelector('[part="transcript"]') && !chat!.matches(':state(loading)'),
      chatActive: !!chat?.matches(':state(active)'),
      toolCalls: [...(root?.querySelectorAll('ahp-tool-call') ?? [])].map((tc) => ({
        status: tc.shadowRoot?.querySelector<HTMLElement>('[part="status"]')?.dataset.status ?? '',
        result: tc.shadowRoot?.querySelector('[part="result"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      })),
      lastSent: document.getElementById('last-sent')?.textContent ?? '',
    };
  }, SERVERS);

/** Polls `read` until `ok` holds; fails with what it saw last. */
async function waitFor<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, problems: string[]): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    const thrown = problems.find((p) => p.startsWith('pageerror'));
    if (thrown) throw new Error(`${what}: the page threw: ${thrown}`);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_MS} ms; last seen ${JSON.stringify(v)}; problems ${JSON.stringify(problems)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

describe('example pages end to end (Chromium + playground host)', () => {
  let playground: Playground;
  let browser: Browser;

  before(async () => {
    // The CDN page must run the real rollup output; build it once when this checkout has none.
    await ensureCdnBuild();
    const config = parseConfig({
      containers: [{ id: 'demo-plugin', type: 'plugin', name: 'Demo plugin' }],
      servers: [
        publishedServer('server-everything', 'everything', 'Everything'),
        publishedServer('server-basic-vanillajs', 'basic-vanillajs', 'Basic App (vanilla JS)', { container: 'demo-plugin' }),
      ],
    });
    playground = await startPlayground({ port: 0, config });
    const bundles = (async () => {
      for (const name of Object.keys(BUNDLED_PAGES)) await buildExample(name);
    })();
    const [, launched] = await Promise.all([playground.startServers(), puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, protocolTimeout: WAIT_MS }), bundles]);
    browser = launched;
  });

  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('/cdn/ahp-elements.min.js is the rollup CDN file', async () => {
    const res = await fetch(new URL('/cdn/ahp-elements.min.js', playground.url));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ahp-elements-build'), null, 'not the esbuild stand-in');
    assert.equal(await res.text(), readFileSync(CDN_FILE, 'utf8'));
  });

  it('the pages type-check (examples/pages/tsconfig.json: ahp-elements by name, React 19 JSX typings, Vue)', async () => {
    const tsc = path.join(REPO_ROOT, 'node_modules/.bin/tsc');
    const run = await promisify(execFile)(tsc, ['--noEmit', '-p', 'examples/pages/tsconfig.json'], { cwd: REPO_ROOT }).then(
      () => '',
      (err: { stdout?: string; message: string }) => err.stdout || err.message,
    );
    assert.equal(run, '');
  });

  it('the React pages bundle the React they are named after', async () => {
    for (const [name, major] of [['react18', '18'], ['react19', '19']] as const) {
      const js = await (await fetch(new URL(`/examples/${name}/main.js`, playground.url))).text();
      const versions = new Set([...js.matchAll(/ReactVersion = "(\d+)\./g), ...js.matchAll(/exports\.version = "(\d+)\./g)].map((m) => m[1]));
      assert.deepEqual([...versions], [major], `${name} bundles React ${[...versions].join(', ')}`);
    }
  });

  for (const { name, page: pageName, workerUrl } of PAGES) {
    it(`${name}: both servers and a completed /sum 1 2 tool call, no console errors/warnings or page errors`, async () => {
      const problems: string[] = [];
      const page = await browser.newPage();
      page.on('pageerror', (err) => problems.push(`pageerror: ${err instanceof Error ? err.message : String(err)}`));
      page.on('console', (msg) => {
        // Warnings count too: Vue reports an unresolved custom element and React misused props this way. No filter needed.
        if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`console.${msg.type()}: ${msg.text()}`);
      });
      page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
      try {
        if (workerUrl) await page.evaluateOnNewDocument(workerModeScript(workerUrl));
        const socketsBefore = playground.webSockets().accepted;
        const res = await page.goto(new URL(`/examples/${pageName}/`, playground.url).href, { waitUntil: 'load' });
        assert.equal(res?.status(), 200);
        const read = () => readPage(page);
        const loaded = await waitFor(
          `${name}: both servers ready and the chat loaded`,
          read,
          (v) => SERVERS.every((id) => v.servers[id]?.includes('ready')) && v.chatLoaded && !v.chatActive,
          problems,
        );
        const before = loaded.toolCalls.length;
        if (workerUrl) {
          // The chat and the servers above came through the worker: the page's handle says so, and one WebSocket opened.
          const mode = await page.evaluate(() => (document.querySelector('ahp-session') as unknown as { currentHandle?: { mode?: string } }).currentHandle?.mode);
          assert.equal(mode, 'shared', 'the session runs in the minified shared worker');
          assert.equal(playground.webSockets().accepted - socketsBefore, 1, 'one WebSocket, opened by the worker');
        }

        // The page's own button (it dispatches chat/turnStarted through the session's store).
        await clickLanded(await page.$('#send-sum'));
        const byButton = await waitFor(`${name}: the button's tool call completes`, read, (v) => v.toolCalls[before]?.status === 'completed' && !v.chatActive, problems);
        assert.match(byButton.toolCalls[before]!.result, /\b3\b/, `sum result ${JSON.stringify(byButton.toolCalls[before])}`);

        // Typed into <ahp-chat>: the page's ahp-chat-send listener reports it.
        const input = (await page.evaluateHandle(() => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('textarea[part="input"]') ?? null)).asElement() as ElementHandle<HTMLTextAreaElement> | null;
        assert.ok(input, 'the chat has its input');
        await input.type('/sum 1 2');
        await input.press('Enter');
        const typed = await waitFor(`${name}: the typed tool call completes`, read, (v) => v.toolCalls[before + 1]?.status === 'completed', problems);
        assert.match(typed.toolCalls[before + 1]!.result, /\b3\b/, `sum result ${JSON.stringify(typed.toolCalls[before + 1])}`);
        assert.match(typed.lastSent, /\/sum 1 2/, "the page's ahp-chat-send listener ran");
        await waitFor(`${name}: the turn ends`, read, (v) => !v.chatActive, problems);
        assert.deepEqual(problems, [], 'no console errors, page errors or failed requests');
      } finally {
        await page.close();
      }
    });
  }
});

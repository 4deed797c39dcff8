// End to end: an MCP App through the minified CDN build. The plain-HTML example page (examples/pages/cdn, only the CDN
// file) shows a real View (server-basic-vanillajs) for a tool call the playground agent runs in its chat: the chat,
// tool-call and App elements load from their chunks, the View starts on the server's sandbox origin, shows the result
// and calls a server tool through the mcp:// channel, with no console errors. It is the test of what the minified
// builds change (private member names shortened, scripts/private-members.mjs) in the App chunk.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { publishedServer } from '../fixtures/mcp-servers.js';
import { ensureCdnBuild } from '../fixtures/cdn-build.js';
import { clickInFrame, frameEval, inFrame, KEEP_NAMES_SHIM, clickUntil, launchChromium, recordMcpTraffic, sayInPage, toolCallIn, untilWithin, type McpTraffic } from '../fixtures/playground-page.js';

const until = untilWithin(30_000);

/** The states of the first `<ahp-mcp-app>` anywhere in the page's shadow trees, and its status text. */
const appInPage = (page: Page) =>
  page.evaluate(() => {
    const find = (root: Document | ShadowRoot): Element | undefined => {
      const hit = root.querySelector('ahp-mcp-app');
      if (hit) return hit;
      for (const el of root.querySelectorAll('*')) {
        const inner = el.shadowRoot && find(el.shadowRoot);
        if (inner) return inner;
      }
      return undefined;
    };
    const app = find(document);
    if (!app) return null;
    return {
      states: ['loading', 'ready', 'error', 'closed'].filter((s) => app.matches(`:state(${s})`)),
      status: app.shadowRoot?.querySelector('[part~="status"]')?.textContent?.trim() ?? '',
    };
  });

describe('an MCP App through the CDN build (Chromium + playground host)', () => {
  let playground: Playground;
  let browser: Browser;
  let traffic: McpTraffic;

  before(async () => {
    // The page must run the real rollup output; build it when this checkout has none.
    await ensureCdnBuild();
    const config = parseConfig({ servers: [publishedServer('server-basic-vanillajs', 'basic-vanillajs', 'Basic App (vanilla JS)')] });
    playground = await startPlayground({ port: 0, config });
    traffic = recordMcpTraffic(playground);
    [, browser] = await Promise.all([playground.startServers(), launchChromium()]);
  });

  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('the View starts from the lazy App chunk, shows the result and calls a server tool', async () => {
    const problems: string[] = [];
    const page = await browser.newPage();
    page.on('pageerror', (err) => problems.push(`pageerror: ${err instanceof Error ? err.message : String(err)}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`console.${msg.type()}: ${msg.text()}`);
    });
    try {
      await page.evaluateOnNewDocument(KEEP_NAMES_SHIM);
      const res = await page.goto(new URL('/examples/cdn/', playground.url).href, { waitUntil: 'load' });
      assert.equal(res?.status(), 200);
      // The page names the sandbox origin through the App class, which only the CDN's loader can hand out here.
      const sandbox = playground.apps.sandboxes.get('basic-vanillajs')!;
      await page.evaluate(async (url: string) => {
        const cdn = (await import('/cdn/ahp-elements.min.js' as string)) as { loadElement(tag: string): Promise<{ sandboxUrlFor?: unknown }> };
        (await cdn.loadElement('ahp-mcp-app')).sandboxUrlFor = () => url;
      }, sandbox.url);
      // Open, not just a store: an action dispatched while the socket still connects is dropped (the store says so).
      await until('the session connected', () =>
        page.evaluate(() => (document.querySelector('ahp-session') as unknown as { connectionState?: { kind: string } } | null)?.connectionState?.kind === 'open'));

      const turnId = await sayInPage(page, playground, '/call basic-vanillajs get-time {}', until);
      const chat = () => playground.host.getChatState(playground.chatUri);
      const call = await until('get-time completed', () => {
        const tc = toolCallIn(chat(), turnId);
        return tc?.status === 'completed' ? tc : undefined;
      }, () => toolCallIn(chat(), turnId));

      await until('the App in the chat is ready', async () => {
        const app = await appInPage(page);
        if (app?.states.includes('error')) throw new Error(`the App failed: ${app.status}`);
        return app?.states.includes('ready');
      }, () => appInPage(page));

      const frame = await until('the View frame', async (): Promise<Frame | undefined> => {
        for (const f of page.frames()) {
          if (!f.parentFrame()?.url().startsWith(sandbox.origin)) continue;
          if (await inFrame(f, () => !!document.body?.childElementCount).catch(() => false)) return f;
        }
        return undefined;
      }, () => page.frames().map((f) => f.url()));
      const resultText = (call.content?.find((c) => c.type === 'text') as { text?: string } | undefined)?.text ?? '';
      const shown = await until('the time shown', () =>
        frameEval(frame, '#server-time', (e) => e.textContent?.trim()).catch(() => undefined).then((t) => (t && t !== 'Loading...' ? t : undefined)));
      assert.ok(resultText.includes(shown) || shown.includes(resultText), `the View shows the result (${shown} vs ${resultText})`);

      const calls = traffic.toolCalls('basic-vanillajs', 'get-time').length;
      // Clicked again while nothing reached the server: the View wires its button some time after its document shows.
      await clickUntil('get-time relayed to the server', () => clickInFrame(frame, '#get-time-btn'), () => traffic.toolCalls('basic-vanillajs', 'get-time').length > calls, () => problems);
      assert.deepEqual(problems, [], 'no console errors or page errors');
    } finally {
      await page.close();
    }
  });
});

// End to end: two tabs of the playground page with <ahp-session worker="shared"> in Chromium share one session
// worker and one WebSocket (counted at the host). Sign-in from tab A through the playground's real authorization
// server (popup); tab B sees the server turn ready. Each tab shows a real MCP App (server-basic-vanillajs in A,
// server-debug in B) whose View calls its server through mcp:// (forwarded by the worker). Closing tab A leaves B
// working. The same test runs with SharedWorker unavailable (dedicated-worker fallback) and with neither
// SharedWorker nor Worker (page fallback), each in a fresh browser context.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, ElementHandle, Frame, Page, Target } from 'puppeteer-core';
import { parseConfig } from '../../examples/playground/config.js';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { clickInFrame, inFrame, KEEP_NAMES_SHIM, answerConsent, appendMcpApp, clickUntil, launchChromium, recordMcpTraffic, sayInPage, toolCallIn, untilWithin, type McpTraffic } from '../fixtures/playground-page.js';
import { publishedServer } from '../fixtures/mcp-servers.js';

const WAIT_MS = 30_000;
const PROTECTED = 'protected';
const BASIC = 'basic-vanillajs';
const DEBUG = 'debug';

const until = untilWithin(WAIT_MS);

/**
 * Clicks a View's button until `done` (the View wires its handlers some time after its document shows; a click
 * before that does nothing, as for a user, who clicks again).
 */
async function clickInView(page: Page, frame: Frame, selector: string, what: string, done: () => boolean, now: () => unknown): Promise<void> {
  await page.bringToFront();
  await clickUntil(what, () => clickInFrame(frame, selector), done, now, WAIT_MS);
}

/** How a mode takes worker support away before the page's scripts run. */
const MODES = [
  { name: 'shared worker', expectMode: 'shared', sharedSocket: true, hide: '' },
  { name: 'SharedWorker unavailable: dedicated-worker fallback', expectMode: 'dedicated', sharedSocket: false, hide: 'delete globalThis.SharedWorker;' },
  { name: 'SharedWorker and Worker unavailable: page fallback', expectMode: 'page', sharedSocket: false, hide: 'delete globalThis.SharedWorker; delete globalThis.Worker;' },
] as const;

const T = { timeout: 120_000 };

describe('worker mode end to end: two tabs, one session worker', () => {
  let playground: Playground;
  let browser: Browser;
  let logDir: string;
  /** JSON-RPC the playground's MCP clients sent to each server. */
  let traffic: McpTraffic;
  const sentCalls = (serverId: string, tool: string) => traffic.toolCalls(serverId, tool).length;

  const chat = () => playground.host.getChatState(playground.chatUri);
  const toolCallOfTurn = (turnId: string) => toolCallIn(chat(), turnId);

  before(async () => {
    logDir = mkdtempSync(path.join(tmpdir(), 'ahp-worker-e2e-'));
    const config = parseConfig({
      servers: [
        { id: PROTECTED, name: 'Protected', transport: 'http', builtin: 'oauth-demo', tokenLifetimeSeconds: 600 },
        publishedServer('server-basic-vanillajs', BASIC, 'Basic'),
        { id: DEBUG, name: 'Debug', transport: 'stdio', command: 'node', args: ['test/fixtures/apps/debug-server-plus.mjs', '--stdio'], env: { DEBUG_LOG_FILE: path.join(logDir, 'debug.log'), PATH: process.env.PATH ?? '' } },
      ],
    });
    playground = await startPlayground({ port: 0, config });
    traffic = recordMcpTraffic(playground);
    await playground.startServers();
    browser = await launchChromium();
  }, T);
  after(async () => {
    await browser?.close();
    await playground?.close();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  for (const mode of MODES.filter((m) => !process.env.WORKER_E2E_MODE || m.expectMode === process.env.WORKER_E2E_MODE)) {
    describe(mode.name, () => {
      let context: BrowserContext;
      let tabA: Page;
      let tabB: Page;
      const pageErrors: string[] = [];
      const consoleLines: string[] = [];
      const socketsBefore = { accepted: 0 };

      /** A tab of the playground page in worker mode, without the chat (its embedded Apps would be other Views). */
      async function openTab(): Promise<Page> {
        const page = await context.newPage();
        page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
        page.on('console', (m) => consoleLines.push(m.text()));
        await page.evaluateOnNewDocument(`${KEEP_NAMES_SHIM} ${mode.hide}`);
        await page.goto(new URL('/?worker=shared', playground.url).href, { waitUntil: 'load' });
        await page.waitForFunction(() => (document.querySelector('ahp-session') as unknown as { connectionState?: { kind: string } } | null)?.connectionState?.kind === 'open', { timeout: WAIT_MS });
        await page.evaluate(() => document.querySelectorAll('ahp-chat').forEach((c) => c.remove()));
        return page;
      }

      const handleMode = (page: Page) => page.evaluate(() => (document.querySelector('ahp-session') as unknown as { currentHandle?: { mode: string } }).currentHandle?.mode);

      /** The protected server's card in a tab: its state and its sign-in button. */
      const serverKind = (page: Page, id: string) =>
        page.evaluate((id) => {
          const el = document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelector(`ahp-mcp-server[server-id="${id}"]`);
          return ['starting', 'ready', 'authRequired', 'error', 'stopped'].find((k) => el?.matches(`:state(${k})`)) ?? null;
        }, id);

      /** Sends a user message into the main chat through a tab's store (as <ahp-chat> does); returns the turn id. */
      const say = (page: Page, text: string) => sayInPage(page, playground, text, until);

      /** Runs a tool call in the chat and shows its App in `page` (an <ahp-mcp-app> inside the tab's session); returns the View frame. */
      async function showApp(page: Page, serverId: string, command: string): Promise<Frame> {
        const turnId = await say(page, command);
        const tc = await until(`${serverId} tool call completed`, () => {
          const t = toolCallOfTurn(turnId);
          return t?.status === 'completed' ? t : undefined;
        }, () => toolCallOfTurn(turnId)?.status);
        const id = `app-${serverId}`;
        await appendMcpApp(page, playground, { id, toolCallId: tc.toolCallId, serverId });
        const state = () =>
          page.evaluate((id) => {
            const el = document.getElementById(id)!;
            return { ready: el.matches(':state(ready)'), error: el.matches(':state(error)'), status: el.shadowRoot?.querySelector('[part~="status"]')?.textContent?.trim() ?? '' };
          }, id);
        await until(`the ${serverId} App ready`, async () => {
          const s = await state();
          if (s.error) throw new Error(`the ${serverId} App failed: ${s.status}`);
          return s.ready;
        }, state);
        // The View is the document the sandbox proxy (this element's iframe) wrote the App's HTML into.
        const iframe = (await page.evaluateHandle((id) => document.getElementById(id)!.shadowRoot!.querySelector('iframe'), id)).asElement() as ElementHandle<HTMLIFrameElement>;
        const proxy = await iframe.contentFrame();
        return until(`the ${serverId} View document`, async () => {
          for (const f of proxy!.childFrames()) {
            if (await inFrame(f, () => document.readyState !== 'loading' && !!document.body?.childElementCount).catch(() => false)) return f;
          }
          return undefined;
        });
      }

      before(async () => {
        // Sign-in happens again in every mode: the host forgets the token, the fresh context has no stored one.
        const rt = playground.servers.get(PROTECTED)!;
        rt.auth.setToken('');
        await rt.reconnect();
        context = await browser.createBrowserContext();
        socketsBefore.accepted = playground.webSockets().accepted;
        tabA = await openTab();
        tabB = await openTab();
      }, T);
      after(async () => {
        await context?.close();
      });

      it(`both tabs run in ${mode.expectMode} mode; the host counts ${mode.sharedSocket ? 'one WebSocket' : 'one WebSocket per tab'}`, T, async () => {
        assert.equal(await handleMode(tabA), mode.expectMode);
        assert.equal(await handleMode(tabB), mode.expectMode);
        const opened = playground.webSockets().accepted - socketsBefore.accepted;
        assert.equal(opened, mode.sharedSocket ? 1 : 2, `WebSockets opened for the two tabs: ${opened}`);
      });

      it('sign-in from tab A through the real authorization server (popup); tab B sees the server turn ready', T, async () => {
        await until('authRequired in both tabs', async () => (await serverKind(tabA, PROTECTED)) === 'authRequired' && (await serverKind(tabB, PROTECTED)) === 'authRequired', async () => [await serverKind(tabA, PROTECTED), await serverKind(tabB, PROTECTED)]);
        await tabA.evaluate(() => {
          const w = window as unknown as { __auth: string[] };
          w.__auth = [];
          for (const type of ['ahp-auth-start', 'ahp-auth-complete', 'ahp-auth-error']) {
            document.addEventListener(type, (e) => w.__auth.push(`${type}${(e as CustomEvent).detail?.error ? `: ${(e as CustomEvent).detail.error.message}` : ''}`), true);
          }
        });
        const authEvents = () => tabA.evaluate(() => (window as unknown as { __auth: string[] }).__auth);
        let popup: Page | undefined;
        /** What every failure of this test says: the auth events and server cards of both tabs, the host's state, page errors, the popup. */
        const diagnostics = async () => ({
          authEventsA: await authEvents().catch((e: Error) => e.message),
          tabs: [await serverKind(tabA, PROTECTED).catch((e: Error) => e.message), await serverKind(tabB, PROTECTED).catch((e: Error) => e.message)],
          host: playground.servers.get(PROTECTED)!.state.kind,
          pageErrors,
          popup: popup ? (popup.isClosed() ? 'closed' : popup.url()) : 'none',
          console: consoleLines.slice(-6),
        });
        const known = new Set(context.targets());
        const opened = context.waitForTarget((t: Target) => t.type() === 'page' && !known.has(t), { timeout: WAIT_MS });
        opened.catch(() => undefined);
        // A real click (the popup needs the user's activation), found afresh and clicked again until the flow starts:
        // the card may re-render or move between puppeteer's aim and the click. Input goes to the tab in front.
        await tabA.bringToFront();
        await clickUntil(
          'the sign-in to start in tab A (ahp-auth-start)',
          async () => {
            const button = (await tabA.evaluateHandle((id) => document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelector(`ahp-mcp-server[server-id="${id}"]`)?.shadowRoot?.querySelector('button[data-auth]') ?? null, PROTECTED)).asElement() as ElementHandle<HTMLButtonElement> | null;
            if (!button) throw new Error('no sign-in button');
            await button.click();
          },
          async () => (await authEvents()).some((e) => e.startsWith('ahp-auth-start')),
          diagnostics,
          WAIT_MS,
        );
        const target = await opened.catch(async (err: Error) => {
          throw new Error(`no sign-in popup (${err.message}); ${JSON.stringify(await diagnostics())}`);
        });
        popup = (await target.page()) ?? undefined;
        if (!popup) throw new Error(`the popup target has no page; ${JSON.stringify(await diagnostics())}`);
        await answerConsent(popup, 'allow', diagnostics, WAIT_MS);
        await until('ready in tab B', async () => (await serverKind(tabB, PROTECTED)) === 'ready', diagnostics);
        assert.equal(playground.servers.get(PROTECTED)!.state.kind, 'ready', JSON.stringify(await diagnostics()));
        assert.equal(await serverKind(tabA, PROTECTED), 'ready', JSON.stringify(await diagnostics()));
      });

      let viewA: Frame;
      let viewB: Frame;
      it('each tab shows an App whose View calls its server through mcp:// (basic-vanillajs in A, server-debug in B)', T, async () => {
        viewA = await showApp(tabA, BASIC, `/call ${BASIC} get-time {}`);
        viewB = await showApp(tabB, DEBUG, `/call ${DEBUG} debug-tool {"contentType":"text"}`);
        const diagnostics = () => ({ console: consoleLines.slice(-8), errors: pageErrors });
        const basicBefore = sentCalls(BASIC, 'get-time');
        await clickInView(tabA, viewA, '#get-time-btn', 'get-time from tab A’s View at the server', () => sentCalls(BASIC, 'get-time') > basicBefore, diagnostics);
        const debugBefore = sentCalls(DEBUG, 'debug-refresh');
        await clickInView(tabB, viewB, '#call-debug-refresh-btn', 'debug-refresh from tab B’s View at the server', () => sentCalls(DEBUG, 'debug-refresh') > debugBefore, diagnostics);
      });

      it('closing tab A leaves tab B working (its View still reaches its server, its store still follows the host)', T, async () => {
        const accepted = playground.webSockets().accepted;
        await tabA.close();
        const debugBefore = sentCalls(DEBUG, 'debug-refresh');
        await clickInView(tabB, viewB, '#call-debug-refresh-btn', 'debug-refresh after tab A closed', () => sentCalls(DEBUG, 'debug-refresh') > debugBefore, () => consoleLines.slice(-8));
        const title = `after A closed ${Date.now()}`;
        playground.host.dispatchServerAction(playground.sessionUri, { type: 'session/titleChanged', title });
        await until('tab B follows the host', () =>
          tabB.evaluate(() => (document.querySelector('ahp-session') as unknown as { currentStore: { getState(): { title?: string } | undefined } }).currentStore.getState()?.title).then((t) => t === title),
        );
        // The worker let tab A go (its Web Lock was released) and kept serving tab B on the same socket.
        assert.equal(playground.webSockets().accepted, accepted, 'no new WebSocket');
        if (mode.sharedSocket) assert.equal(playground.webSockets().open, 1, 'the one WebSocket is still open');
        assert.deepEqual(pageErrors, []);
        await tabB.close();
      });
    });
  }
});

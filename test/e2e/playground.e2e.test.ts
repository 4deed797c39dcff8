// End to end: the playground (host + real MCP servers) in-process, its demo page in headless Chromium.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { processExists } from '../../examples/playground/mcp-runtime.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { clickLanded } from '../fixtures/playground-page.js';

const WAIT_MS = 20_000;
const KINDS = ['starting', 'ready', 'authRequired', 'error', 'stopped', 'unknown', 'disabled', 'loading', 'not-found'];

/** What the page shows for one server, read through the shadow roots. */
interface ServerView {
  /** Custom states (`:state(x)`) the element has. */
  states: string[];
  /** Visible text of the state badge. */
  badge: string | null;
  badgeVisible: boolean;
  error: string | null;
  /** aria-checked of the enable switch. */
  enabled: string | null;
}

describe('playground end to end (Chromium + real MCP servers)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const view = (id: string): Promise<ServerView | null> =>
    page.evaluate(
      (id, kinds) => {
        const list = document.querySelector('ahp-mcp-server-list');
        const el = list?.shadowRoot?.querySelector(`ahp-mcp-server[server-id="${id}"]`);
        const root = el?.shadowRoot;
        if (!el || !root) return null;
        const badge = root.querySelector<HTMLElement>('[part~="status"]');
        return {
          states: kinds.filter((k) => el.matches(`:state(${k})`)),
          badge: badge?.textContent?.trim() ?? null,
          badgeVisible: badge?.checkVisibility() ?? false,
          error: root.querySelector('[part~="error"]')?.textContent?.trim() ?? null,
          enabled: root.querySelector('[data-action="toggle"]')?.getAttribute('aria-checked') ?? null,
        };
      },
      id,
      KINDS,
    );

  /** Waits until the server shows `kind` both as custom state and on its visible badge. */
  async function waitForKind(id: string, kind: string, timeoutMs = WAIT_MS): Promise<ServerView> {
    const deadline = Date.now() + timeoutMs;
    let last: ServerView | null = null;
    for (;;) {
      last = await view(id);
      if (last && last.states.includes(kind) && last.badgeVisible && last.badge?.toLowerCase().includes(kind.toLowerCase())) return last;
      if (Date.now() > deadline) {
        throw new Error(`"${id}" did not show ${kind} within ${timeoutMs} ms; page shows ${JSON.stringify(last)}; page errors: ${JSON.stringify(pageErrors)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function waitForExit(pid: number): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (processExists(pid)) {
      if (Date.now() > deadline) throw new Error(`server process ${pid} still runs ${WAIT_MS} ms later`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function button(id: string, action: string): Promise<ElementHandle<HTMLButtonElement>> {
    const handle = await page.evaluateHandle(
      (id, action) =>
        document
          .querySelector('ahp-mcp-server-list')
          ?.shadowRoot?.querySelector(`ahp-mcp-server[server-id="${id}"]`)
          ?.shadowRoot?.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`) ?? null,
      id,
      action,
    );
    const el = handle.asElement() as ElementHandle<HTMLButtonElement> | null;
    if (!el) throw new Error(`no "${action}" button for "${id}"; page shows ${JSON.stringify(await view(id))}`);
    return el;
  }

  /** Clicks like a user (a click that reached the button), then reads the server right after the element re-rendered (before any waiting). */
  async function clickAndRead(id: string, action: string): Promise<ServerView | null> {
    await clickLanded(await button(id, action));
    await page.evaluate(async (id) => {
      const el = document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelector(`ahp-mcp-server[server-id="${id}"]`);
      await (el as unknown as { updateComplete?: Promise<unknown> } | null)?.updateComplete;
    }, id);
    return view(id);
  }

  const pidOf = (id: string): number => {
    const pid = playground.servers.get(id)?.pid;
    assert.ok(pid, `"${id}" has a running process`);
    return pid;
  };

  before(async () => {
    // Servers start only once the page watches, so it sees starting → ready.
    playground = await startPlayground({ port: 0, autoStart: false });
    browser = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
    await page.goto(playground.url, { waitUntil: 'load' });
  });

  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('both servers go from starting to ready', async () => {
    await waitForKind('everything', 'starting');
    await waitForKind('basic-vanillajs', 'starting');
    const starting = playground.startServers();
    await waitForKind('everything', 'ready');
    await waitForKind('basic-vanillajs', 'ready');
    await starting;
    assert.ok(processExists(pidOf('everything')));
    assert.ok(processExists(pidOf('basic-vanillajs')));
  });

  it('stop shows stopped at once and the server process exits', async () => {
    const pid = pidOf('everything');
    const right = await clickAndRead('everything', 'stop');
    assert.ok(right?.states.includes('stopped'), `stopped right after the click, got ${JSON.stringify(right)}`);
    await waitForKind('everything', 'stopped', 1000);
    await waitForExit(pid);
    assert.equal(playground.servers.get('everything')?.pid, null);
  });

  it('start brings it back to ready with a new process', async () => {
    const right = await clickAndRead('everything', 'start');
    assert.ok(right?.states.includes('starting') || right?.states.includes('ready'), `starting right after the click, got ${JSON.stringify(right)}`);
    await waitForKind('everything', 'ready');
    assert.ok(processExists(pidOf('everything')));
  });

  it('switching a server off stops its process; switching it on starts it', async () => {
    const pid = pidOf('basic-vanillajs');
    await clickLanded(await button('basic-vanillajs', 'toggle'));
    await waitForExit(pid);
    const off = await waitForKind('basic-vanillajs', 'stopped');
    assert.equal(off.enabled, 'false');
    assert.ok(off.states.includes('disabled'), `shown as disabled, got ${JSON.stringify(off)}`);
    assert.ok(processExists(pidOf('everything')), 'the other server keeps running');

    await clickLanded(await button('basic-vanillajs', 'toggle'));
    const on = await waitForKind('basic-vanillajs', 'ready');
    assert.equal(on.enabled, 'true');
    assert.notEqual(pidOf('basic-vanillajs'), pid);
  });

  it('restart replaces the server process and comes back ready', async () => {
    const pid = pidOf('everything');
    await clickLanded(await button('everything', 'restart'));
    await waitForExit(pid);
    await waitForKind('everything', 'ready');
    assert.notEqual(pidOf('everything'), pid);
  });

  it('killing a server process from outside shows error with a message', async () => {
    const pid = pidOf('everything');
    process.kill(pid);
    const shown = await waitForKind('everything', 'error');
    assert.match(shown.error ?? '', new RegExp(`pid ${pid}\\) exited unexpectedly: killed by SIGTERM`), `error text, got ${JSON.stringify(shown)}`);
    assert.ok(processExists(pidOf('basic-vanillajs')), 'the other server keeps running');
  });

  it('the page raised no errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});

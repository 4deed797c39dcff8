// End to end: a page with <ahp-session url> and no session attribute finds the playground's session through the
// root channel and listSessions, and works (servers listed, a chat turn runs). Also: a host with several sessions and
// no default shows a choice.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { WebSocketServer } from 'ws';
import { HostCore, attachWebSocket } from '../../src/host.js';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { launchChromium, untilWithin } from '../fixtures/playground-page.js';

const WAIT_MS = 20_000;

const poll = untilWithin(WAIT_MS);
/** The first value of `read` that is `ok` (any value, falsy ones too). */
const until = <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> =>
  poll(what, async () => {
    const v = await read();
    return ok(v) ? { v } : undefined;
  }, read).then((r) => r.v);

describe('session discovery end to end (Chromium + the playground host)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    playground = await startPlayground({ port: 0 });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
    // A page of the playground's origin (the host accepts WebSockets from it), emptied and rebuilt by hand.
    await page.goto(new URL('/examples/', playground.url).href, { waitUntil: 'load' });
  });

  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('<ahp-session url> without session opens the host default session: servers show and a chat turn runs', async () => {
    await page.evaluate(async (wsUrl) => {
      const bundle = '/ahp-elements.js';
      await import(bundle);
      document.body.innerHTML = `<ahp-session url="${wsUrl}"><ahp-mcp-server-list></ahp-mcp-server-list><ahp-chat chat="ahp-chat:/playground-main"></ahp-chat></ahp-session>`;
    }, playground.wsUrl);
    const ids = await until(
      () => page.evaluate(() => [...(document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelectorAll('ahp-mcp-server') ?? [])].map((e) => e.getAttribute('server-id'))),
      (v) => v.length > 0,
      'the server list of the discovered session',
    );
    assert.ok(ids.includes('everything'), `servers: ${ids.join(', ')}`);
    assert.equal(await page.evaluate(() => document.querySelector('ahp-session')?.matches(':state(open)')), true);
    assert.equal(await page.evaluate(() => document.querySelector('ahp-session')?.shadowRoot?.querySelector('[part="sessions"]') ?? null), null, 'no choice shown');

    // It works: a message to the agent starts a turn that the host answers.
    await page.evaluate(() => {
      const chat = document.querySelector('ahp-chat')!.shadowRoot!;
      (chat.querySelector('textarea') as HTMLTextAreaElement).value = 'hello';
      (chat.querySelector('[part="send"]') as HTMLButtonElement).click();
    });
    await until(
      () => page.evaluate(() => [...(document.querySelector('ahp-chat')?.shadowRoot?.querySelectorAll('[part="turn"]') ?? [])].map((t) => (t as HTMLElement).dataset.state)),
      (states) => states.length > 0 && states.at(-1) === 'complete',
      'the agent to finish the turn',
    );
    assert.deepEqual(pageErrors, []);
  });

  it('with several sessions and no default, the element shows them and opens the one chosen', async () => {
    const host = new HostCore({ log: () => {} });
    const state = (title: string) => ({ provider: 'p', title, status: 1, lifecycle: 'ready', activeClients: [], chats: [] });
    host.createSession('ahp-session:/one', state('First'));
    host.createSession('ahp-session:/two', state('Second'));
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    wss.on('connection', (socket) => attachWebSocket(host, socket));
    try {
      const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
      await page.evaluate((url) => {
        document.body.innerHTML = `<ahp-session url="${url}"></ahp-session>`;
      }, url);
      const choice = await until(
        () => page.evaluate(() => [...(document.querySelector('ahp-session')?.shadowRoot?.querySelectorAll('[part="sessions"] button') ?? [])].map((b) => [b.getAttribute('data-session'), b.textContent])),
        (v) => v.length === 2,
        'the choice',
      );
      assert.deepEqual(choice, [['ahp-session:/one', 'First'], ['ahp-session:/two', 'Second']]);
      assert.equal(await page.evaluate(() => document.querySelector('ahp-session')?.matches(':state(open)')), false, 'nothing opened before the choice');
      await page.evaluate(() => (document.querySelector('ahp-session')!.shadowRoot!.querySelector('[data-session="ahp-session:/two"]') as HTMLButtonElement).click());
      await until(() => page.evaluate(() => document.querySelector('ahp-session')?.matches(':state(open)') ?? false), (v) => v, 'the chosen session to open');
      assert.equal(await page.evaluate(() => (document.querySelector('ahp-session') as unknown as { currentStore?: { getState(): { title?: string } | undefined } }).currentStore?.getState()?.title), 'Second');
      assert.equal(await page.evaluate(() => document.querySelector('ahp-session')?.shadowRoot?.querySelector('[part="sessions"]') ?? null), null, 'the choice is gone');
    } finally {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
    }
  });
});

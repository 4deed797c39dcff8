// Chaos end to end: a TCP proxy between the playground host and both a Chromium page and a Node client
// kills WebSocket connections at random (at least 100 times) while tool calls stream, the Node client
// dispatches numbered actions and the page's user types messages and clicks Send. Afterwards every client's
// state deep-equals the host's, no action was lost or applied twice, every intent the host never received
// was surfaced (event, and the composer shows it back), and no typed text was lost.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import puppeteer, { type Browser } from 'puppeteer-core';
import WebSocket from 'ws';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { connectSession } from '../../src/connection/connect-session.js';
import type { ActionFailure, ChatState, SessionState } from '../../src/index.js';
import { createRandom } from '../node/fuzz-helpers.js';

const KILLS = Number(process.env.AHP_CHAOS_KILLS ?? 100);
const SEED = Number(process.env.AHP_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 32));
const WAIT_MS = 60_000;
const RETRY = { initialDelayMs: 10, maxDelayMs: 100 };

/** Forwards every TCP connection to `target`; kills WebSocket connections on request. */
class ChaosProxy {
  readonly server = net.createServer((client) => this.#accept(client));
  readonly live = new Set<{ client: net.Socket; upstream: net.Socket; ws: boolean; born: number }>();
  kills = 0;
  constructor(readonly target: number) {}

  listen(): Promise<number> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as net.AddressInfo).port)));
  }

  #accept(client: net.Socket): void {
    const upstream = net.connect(this.target, '127.0.0.1');
    const pair = { client, upstream, ws: false, born: Date.now() };
    this.live.add(pair);
    client.once('data', (chunk) => void (pair.ws = /upgrade: websocket/i.test(chunk.toString('latin1'))));
    for (const s of [client, upstream]) {
      s.on('error', () => {});
      s.on('close', () => {
        this.live.delete(pair);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** Resets one WebSocket connection that has lived at least `minAgeMs`; false if none has. */
  killOne(rnd: () => number, minAgeMs: number): boolean {
    const candidates = [...this.live].filter((p) => p.ws && Date.now() - p.born >= minAgeMs);
    if (!candidates.length) return false;
    const victim = candidates[Math.floor(rnd() * candidates.length)]!;
    victim.client.resetAndDestroy();
    victim.upstream.resetAndDestroy();
    this.kills++;
    return true;
  }

  close(): Promise<void> {
    for (const p of this.live) (p.client.destroy(), p.upstream.destroy());
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const userTexts = (chat: ChatState | undefined): string[] =>
  [...(chat?.turns ?? []), ...(chat?.activeTurn ? [chat.activeTurn] : [])].map((t) => t.message.text);

/**
 * Whether `text` (a typed `/echo page-N`) is in `within`, not as the start of a longer number. A message the host never
 * got goes back into the box in front of what was typed since, so one later send can carry several typed texts.
 */
const holds = (within: string, text: string): boolean => new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\d)`).test(within);

async function until<T>(what: string, read: () => T | undefined | false | Promise<T | undefined | false>, detail: () => unknown = () => ''): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(await detail())?.slice(0, 3000)}`);
    await sleep(25);
  }
}

describe(`chaos: random connection kills between the playground and a page + a Node client (seed ${SEED})`, () => {
  let browser: Browser;
  let playground: Playground;
  let proxy: ChaosProxy;

  before(async () => {
    console.log(`chaos: seed ${SEED} (replay the kill order with AHP_CHAOS_SEED=${SEED}), ${KILLS} kills`);
    playground = await startPlayground({ port: 0 });
    await playground.startServers();
    proxy = new ChaosProxy(Number(new URL(playground.url).port));
    await proxy.listen();
    browser = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await proxy?.close();
    await playground?.close();
  });

  it(`>= ${KILLS} kills while tool calls stream and the user types: states equal, nothing lost or doubled, text kept`, async (t) => {
    const port = (proxy.server.address() as net.AddressInfo).port;
    const wsUrl = `ws://127.0.0.1:${port}/ahp`;
    const session = playground.sessionUri;
    const rnd = createRandom(SEED);

    // What the host applied, by the unique key each client put into its actions.
    const applied = new Map<string, number>();
    playground.host.afterClientAction(({ action }) => {
      const a = action as { type: string; title?: string; message?: { text?: string } };
      const key = a.type === 'session/titleChanged' ? a.title : a.type === 'chat/turnStarted' ? a.message?.text : undefined;
      if (key) applied.set(key, (applied.get(key) ?? 0) + 1);
    });

    // The Node client: numbered titles, and tool-call turns in its own chat.
    const node = connectSession({ url: wsUrl, session, WebSocket: WebSocket as never, reconnect: RETRY });
    t.after(() => node.close());
    const nodeFailures: ActionFailure[] = [];
    node.store.onActionFailed((f) => nodeFailures.push(f));
    await node.ready;
    const nodeChat = await node.handle.createChat();
    node.store.watchChat(nodeChat);
    const nodeSent: string[] = [];

    // The page: loaded through the proxy, its own <ahp-session> through the proxy too.
    const page = await browser.newPage();
    t.after(() => page.close().catch(() => {}));
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
    await page.evaluate(
      (url, s, chat, retry) => {
        document.body.innerHTML = '';
        const el = document.createElement('ahp-session') as HTMLElement & { reconnect: unknown; currentStore: { onActionFailed(l: (f: unknown) => void): void } };
        el.reconnect = retry;
        el.setAttribute('url', url);
        el.setAttribute('session', s);
        el.innerHTML = `<ahp-mcp-server-list></ahp-mcp-server-list><ahp-chat chat="${chat}"></ahp-chat>`;
        document.body.append(el);
        const w = window as unknown as { __failures: unknown[] };
        w.__failures = [];
        // (no named functions in here: the test's transpiler would wrap them in a helper the page lacks)
        const timer = setInterval(() => {
          if (!el.currentStore) return;
          clearInterval(timer);
          el.currentStore.onActionFailed((f) => w.__failures.push(f));
        }, 5);
      },
      wsUrl,
      session,
      playground.chatUri,
      RETRY,
    );
    await page.waitForFunction(() => document.querySelector('ahp-session')?.matches(':state(open)'), { timeout: WAIT_MS });
    const typed: string[] = [];

    /** One step of the page's user: type a new message when the box is empty, press Send when it can. */
    const userStep = async (): Promise<void> => {
      const { value, canSend } = await page.evaluate(() => {
        const chat = document.querySelector('ahp-chat')!.shadowRoot!;
        const box = chat.querySelector('textarea')!;
        return { value: box.value, canSend: !(chat.querySelector('[data-action="send"]') as HTMLButtonElement).disabled };
      });
      if (!value) {
        const text = `/echo page-${typed.length}`;
        typed.push(text);
        const box = await page.$('ahp-chat >>> textarea');
        await box!.type(text, { delay: 0 });
      } else if (canSend) {
        // The chat may re-render between the read above and the click (an echo, a reconnect): the button is then
        // briefly not clickable, and the user simply tries again on the next step.
        await (await page.$('ahp-chat >>> [data-action="send"]'))!.click().catch((err: unknown) => {
          if (!/not clickable|detached/i.test(String(err))) throw err;
        });
      }
    };

    /** One step of the Node client: a numbered title; a tool call when its chat is idle. */
    const nodeStep = (): void => {
      if (node.handle.getConnectionState().kind !== 'open') return;
      const title = `node-${nodeSent.length}`;
      nodeSent.push(title);
      node.store.dispatch({ type: 'session/titleChanged', title });
      const chat = node.store.getChatState(nodeChat);
      if (chat && !chat.activeTurn && node.store.getPendingCount(nodeChat) === 0) {
        const text = `/call everything get-sum {"a":${nodeSent.length},"b":1}`;
        nodeSent.push(text);
        node.store.dispatch({ type: 'chat/turnStarted', turnId: randomUUID(), startedAt: new Date().toISOString(), message: { text, origin: { kind: 'user' } } }, nodeChat);
      }
    };

    let nextKillAge = 30 + rnd() * 300;
    while (proxy.kills < KILLS) {
      nodeStep();
      await userStep();
      if (proxy.killOne(rnd, nextKillAge)) nextKillAge = 30 + rnd() * 300;
      await sleep(5); // the user's pace; nothing below waits on time
    }
    const kills = proxy.kills;

    // Calm: no more kills. Everyone reconnects, the user sends what is still in the box, everything settles.
    await until('the Node client to be open with nothing pending', () => node.handle.getConnectionState().kind === 'open' && node.store.getPendingCount() === 0, () => node.handle.getConnectionState());
    await page.waitForFunction(() => document.querySelector('ahp-session')?.matches(':state(open)'), { timeout: WAIT_MS });
    const readPage = () =>
      page.evaluate((chat) => {
        const el = document.querySelector('ahp-session') as unknown as { currentStore: { getState(): unknown; getChatState(c: string): unknown } };
        const root = document.querySelector('ahp-chat')!.shadowRoot!;
        return {
          state: el.currentStore.getState(),
          chat: el.currentStore.getChatState(chat),
          box: root.querySelector('textarea')!.value,
          hint: root.querySelector('[part="composer-hint"]')?.textContent ?? '',
          failures: (window as unknown as { __failures: { kind: string; reason: string; action: { type: string; message?: { text: string } } }[] }).__failures,
        };
      }, playground.chatUri);
    await until(
      'every client to show exactly the host state',
      async () => {
        const p = await readPage();
        const host = json(playground.host.getSessionState(session));
        const hostChat = json(playground.host.getChatState(playground.chatUri));
        const idle = !hostChat?.activeTurn && !playground.host.getChatState(nodeChat)?.activeTurn;
        return (
          idle &&
          JSON.stringify(p.state) === JSON.stringify(host) &&
          JSON.stringify(p.chat) === JSON.stringify(hostChat) &&
          JSON.stringify(node.store.getState()) === JSON.stringify(host) &&
          JSON.stringify(node.store.getChatState(nodeChat)) === JSON.stringify(json(playground.host.getChatState(nodeChat)))
        );
      },
      async () => ({ page: (await readPage()).state === undefined, node: node.handle.getConnectionState() }),
    );
    const p = await readPage();
    assert.deepEqual(p.state, json(playground.host.getSessionState(session)), "the page's session equals the host's");
    assert.deepEqual(p.chat, json(playground.host.getChatState(playground.chatUri)), "the page's chat equals the host's");
    // Compared as on the wire (JSON): a reducer may leave a field `undefined` where the host's copy has none.
    assert.deepEqual(json(node.store.getState()), json(playground.host.getSessionState(session)), "the Node client's session equals the host's");
    assert.deepEqual(json(node.store.getChatState(nodeChat)), json(playground.host.getChatState(nodeChat)), "the Node client's chat equals the host's");

    // 0 applied twice.
    const twice = [...applied].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'no action was applied twice');
    // 0 lost: every Node intent was applied or surfaced as a failure; every surfaced one was really not applied.
    const nodeFailed = new Set(nodeFailures.map((f) => (f.action as { title?: string; message?: { text: string } }).title ?? (f.action as { message?: { text: string } }).message?.text));
    const lost = nodeSent.filter((k) => !applied.has(k) && !nodeFailed.has(k));
    assert.deepEqual(lost, [], 'every Node intent the host never applied was reported');
    const falselyFailed = nodeFailures.filter((f) => f.kind !== 'rejected' && applied.has((f.action as { title?: string }).title ?? (f.action as { message?: { text: string } }).message?.text ?? ''));
    assert.deepEqual(falselyFailed, [], 'no applied action was reported as dropped or timed out');
    // The page: every typed message reached the host once, or is still in the box; nothing vanished.
    const hostTexts = userTexts(playground.host.getChatState(playground.chatUri));
    const vanished = typed.filter((t) => !hostTexts.some((h) => holds(h, t)) && !holds(p.box, t));
    assert.deepEqual(vanished, [], 'no typed text was lost');
    for (const f of p.failures.filter((f) => f.action.type === 'chat/turnStarted')) {
      assert.ok(!applied.has(f.action.message!.text) || hostTexts.some((h) => holds(h, f.action.message!.text)), `a surfaced message ${f.action.message!.text} was resent or kept`);
    }
    assert.deepEqual(pageErrors, []);
    console.log(
      `chaos: ${kills} kills; node sent ${nodeSent.length} (failures surfaced ${nodeFailures.length}), page typed ${typed.length} (failures surfaced ${p.failures.length}, ${hostTexts.filter((t) => t.startsWith('/echo page-')).length} reached the host)`,
    );
    assert.ok(kills >= KILLS);
  });
});

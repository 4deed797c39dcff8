// End to end: the playground's WebSocket listener is killed and restarted while the host streams server
// actions; the demo page in headless Chromium must come back with exactly the host's state, every streamed
// action applied once and in order (replay), or the gap covered by one snapshot.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { selectMcpServer, type ActionEnvelope, type ActionFailure, type AnyAction, type ConnectionState, type SessionState } from '../../src/index.js';

const WAIT_MS = 20_000;
/** The server whose state the stream toggles. */
const TOGGLED = 'everything';
/** The server the page asks to stop (just before the kill) and to start (while disconnected). */
const OWN = 'basic-vanillajs';
const STOP: AnyAction = { type: 'session/mcpServerStopRequested', id: OWN };
const START: AnyAction = { type: 'session/mcpServerStartRequested', id: OWN };

/** What the page records from the moment it is installed (before the kill). */
interface Probe {
  /** Counter of every distinct streamed title the page's store showed, in order. */
  titles: number[];
  /** Connection states, e.g. `reconnecting 2`. */
  connection: string[];
  failures: { kind: ActionFailure['kind']; type: string; reason: string }[];
}

/** The store the page's `<ahp-session>` provides, as the page sees it. */
interface PageStore {
  getState(): SessionState | undefined;
  subscribe(listener: () => void): () => void;
  onActionFailed(listener: (f: ActionFailure) => void): () => void;
  dispatch(action: AnyAction): number;
  readonly channel: string;
  getCursor(): number;
  receive(env: ActionEnvelope): void;
  receiveAll(envs: readonly ActionEnvelope[]): void;
}
type ProbeWindow = Window & { __probe?: Probe };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Server actions every 2 ms: a numbered title, and every third tick the toggled server's state flips. */
function streamServerActions(playground: Playground): { stop(): void; readonly count: number } {
  let n = 0;
  const timer = setInterval(() => {
    n++;
    playground.host.dispatchServerAction(playground.sessionUri, { type: 'session/titleChanged', title: `stream ${n}` });
    if (n % 3 === 0) {
      const state = n % 2 ? { kind: 'starting' as const } : { kind: 'ready' as const };
      playground.host.dispatchServerAction(playground.sessionUri, { type: 'session/mcpServerStateChanged', id: TOGGLED, state });
    }
  }, 2);
  return {
    stop: () => clearInterval(timer),
    get count() {
      return n;
    },
  };
}

/** Counters missing between consecutive seen titles, as [from, to] ranges. */
function gaps(titles: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 1; i < titles.length; i++) if (titles[i]! > titles[i - 1]! + 1) out.push([titles[i - 1]! + 1, titles[i]! - 1]);
  return out;
}

describe('playground end to end: WebSocket listener killed and restarted while actions stream', () => {
  let browser: Browser;

  before(async () => {
    browser = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
  });

  /**
   * Runs the scenario against a fresh playground and page; returns everything the assertions need.
   * The kill happens inside the host, right after it accepted the page's stop request and before the
   * echo went out, so that echo is lost with the socket every time.
   */
  async function killAndRestart(actionLogLimit: number) {
    const playground = await startPlayground({ port: 0, autoStart: false, actionLogLimit });
    const page = await browser.newPage();
    let stream: ReturnType<typeof streamServerActions> | undefined;
    try {
      const pageErrors: string[] = [];
      page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
      // The reconnect answers the page receives, read off the wire.
      const recoveries: { channel: string; kind: string }[] = [];
      const cdp = await page.createCDPSession();
      await cdp.send('Network.enable');
      cdp.on('Network.webSocketFrameReceived', ({ response }) => {
        if (!response.payloadData.includes('"channels"')) return;
        const msg = JSON.parse(response.payloadData) as { result?: { channels?: { channel: string; kind: string }[] } };
        for (const c of msg.result?.channels ?? []) recoveries.push({ channel: c.channel, kind: c.kind });
      });

      const readProbe = () => page.evaluate(() => (window as ProbeWindow).__probe!);
      const waitForState = async (kind: string, why: string) => {
        try {
          await page.waitForFunction((k) => document.querySelector('ahp-session')?.matches(`:state(${k})`) === true, { timeout: WAIT_MS, polling: 10 }, kind);
        } catch {
          const probe = await page.evaluate(() => (window as ProbeWindow).__probe ?? null);
          assert.fail(`<ahp-session> did not reach :state(${kind}) ${why} within ${WAIT_MS} ms; connection states ${JSON.stringify(probe?.connection)}; page errors ${JSON.stringify(pageErrors)}`);
        }
      };
      async function until(what: string, cond: () => boolean | Promise<boolean>, ms = WAIT_MS): Promise<void> {
        const deadline = Date.now() + ms;
        while (!(await cond())) {
          if (Date.now() > deadline) assert.fail(`timed out after ${ms} ms waiting for ${what}; page recorded ${JSON.stringify(await readProbe().catch(() => null))?.slice(0, 2000)}`);
          await sleep(10);
        }
      }

      await page.goto(playground.url, { waitUntil: 'load' });
      await waitForState('open', 'after loading the page');
      await page.evaluate(() => {
        const store = (document.querySelector('ahp-session') as unknown as { currentStore: PageStore }).currentStore;
        const probe: Probe = { titles: [], connection: [], failures: [] };
        (window as ProbeWindow).__probe = probe;
        // (No named helpers in here: the test's TypeScript build would wrap them with a `__name` the page lacks.)
        store.subscribe(() => {
          const m = /^stream (\d+)$/.exec(store.getState()?.title ?? '');
          const n = m ? Number(m[1]) : undefined;
          if (n !== undefined && n !== probe.titles.at(-1)) probe.titles.push(n);
        });
        // A burst (a replay, one read of the socket) is folded at once and listeners hear only its end: the titles
        // inside it are the ones the store applies, i.e. its session envelopes above the cursor, in ascending order.
        const receiveAll = store.receiveAll.bind(store);
        store.receiveAll = (envs) => {
          let cursor = store.getCursor();
          for (const env of envs) {
            if (env.channel !== store.channel || env.serverSeq <= cursor) continue;
            cursor = env.serverSeq;
            const title = env.action.type === 'session/titleChanged' && !env.rejectionReason ? (env.action as { title?: unknown }).title : undefined;
            const m = /^stream (\d+)$/.exec(typeof title === 'string' ? title : '');
            const n = m ? Number(m[1]) : undefined;
            if (n !== undefined && n !== probe.titles.at(-1)) probe.titles.push(n);
          }
          receiveAll(envs);
        };
        // <ahp-session> tells listeners once per animation frame: the titles between two frames are the envelopes
        // the store applies one by one (its cursor moves to them), observed the same way.
        const receive = store.receive.bind(store);
        store.receive = (env) => {
          const before = store.getCursor();
          receive(env);
          if (env.channel !== store.channel || env.serverSeq <= before || store.getCursor() !== env.serverSeq || env.rejectionReason) return;
          const title = env.action.type === 'session/titleChanged' ? (env.action as { title?: unknown }).title : undefined;
          const m = /^stream (\d+)$/.exec(typeof title === 'string' ? title : '');
          const n = m ? Number(m[1]) : undefined;
          if (n !== undefined && n !== probe.titles.at(-1)) probe.titles.push(n);
        };
        const handle = (document.querySelector('ahp-session') as unknown as { currentHandle: { subscribeConnection(listener: (s: ConnectionState) => void): () => void } }).currentHandle;
        handle.subscribeConnection((s) => probe.connection.push(s.kind === 'reconnecting' ? `reconnecting ${s.attempt}` : s.kind));
        store.onActionFailed((f) => probe.failures.push({ kind: f.kind, type: f.action.type, reason: f.reason }));
      });

      // Every client action the host accepts from now on; the kill is triggered by the stop request.
      const hostSaw: string[] = [];
      let killed: { done: Promise<void>; atCount: number } | undefined;
      playground.host.onClientAction(({ action }) => {
        hostSaw.push(action.type);
        if (action.type === STOP.type && !killed) killed = { done: playground.killWebSocket(), atCount: stream?.count ?? 0 };
      });

      stream = streamServerActions(playground);
      await until('the page to show 20 streamed titles', async () => (await readProbe()).titles.length >= 20);

      await page.evaluate((action) => {
        (document.querySelector('ahp-session') as unknown as { currentStore: PageStore }).currentStore.dispatch(action);
      }, STOP);
      await until('the host to accept the stop request and kill the WebSocket', () => killed !== undefined, 5_000);
      await killed!.done;
      await waitForState('reconnecting', 'after the kill');

      // While disconnected: the page's own action cannot be sent.
      await page.evaluate((action) => {
        (document.querySelector('ahp-session') as unknown as { currentStore: PageStore }).currentStore.dispatch(action);
      }, START);
      await sleep(400); // down for a few reconnect attempts; the stream goes on
      const atRestart = stream.count;
      playground.restartWebSocket();
      await waitForState('open', 'after restarting the listener');
      await sleep(100); // streaming on the recovered connection
      stream.stop();
      const last = stream.count;
      await until(`the page to show the last title "stream ${last}"`, async () => (await readProbe()).titles.at(-1) === last, 5_000);

      const pageState = await page.evaluate(
        () => (document.querySelector('ahp-session') as unknown as { currentStore: PageStore }).currentStore.getState(),
      );
      return {
        pageState,
        hostState: JSON.parse(JSON.stringify(playground.host.getSessionState(playground.sessionUri))) as SessionState,
        probe: await readProbe(),
        recoveries: recoveries.filter((r) => r.channel === playground.sessionUri).map((r) => r.kind),
        hostSaw,
        killedAt: killed!.atCount,
        atRestart,
        last,
        pageErrors,
      };
    } finally {
      stream?.stop();
      await page.close().catch(() => {});
      await playground.close();
    }
  }

  /** What both recovery paths must show. */
  function assertCommon(r: Awaited<ReturnType<typeof killAndRestart>>): void {
    assert.deepEqual(r.pageState, r.hostState, "the page's state equals the host's");
    assert.ok(r.atRestart - r.killedAt >= 20, `the stream went on while the listener was down (${r.killedAt} → ${r.atRestart})`);
    const titles = r.probe.titles;
    assert.ok(
      titles.every((n, i) => i === 0 || n > titles[i - 1]!),
      `streamed titles are strictly increasing, nothing applied twice or out of order: ${JSON.stringify(titles)}`,
    );
    assert.equal(titles.at(-1), r.last, 'the page ends at the last streamed title');
    const kinds = r.probe.connection;
    assert.ok(kinds.length >= 2 && kinds[0] === 'reconnecting 1' && kinds.at(-1) === 'open', `reconnecting, then open: ${kinds.join(', ')}`);
    assert.deepEqual(kinds.slice(0, -1), kinds.slice(0, -1).map((_, i) => `reconnecting ${i + 1}`), `only reconnect attempts in between: ${kinds.join(', ')}`);
    assert.deepEqual(r.hostSaw, [STOP.type], 'the host got the stop request once and never the start sent while disconnected');
    assert.equal(selectMcpServer(r.hostState, OWN)?.server.state.kind, 'stopped', 'the host applied the stop request');
    assert.deepEqual(r.pageErrors, []);
  }

  it('within the action log: the reconnect replays every missed action once, the lost echo included', async () => {
    const r = await killAndRestart(100_000);
    assertCommon(r);
    assert.deepEqual(r.recoveries, ['replay']);
    assert.deepEqual(gaps(r.probe.titles), [], 'no streamed title is missing');
    // The stop request's echo came with the replay, so only the action sent while disconnected failed.
    assert.deepEqual(r.probe.failures.map((f) => [f.kind, f.type]), [['dropped', START.type]], JSON.stringify(r.probe.failures));
    assert.match(r.probe.failures[0]!.reason, /send failed: .*not connected/);
  });

  it('beyond a tiny action log: one snapshot covers the gap, nothing applied twice, the applied stop (echo lost) not reported', async () => {
    const r = await killAndRestart(3);
    assertCommon(r);
    assert.deepEqual(r.recoveries, ['snapshot']);
    const missing = gaps(r.probe.titles);
    assert.equal(missing.length, 1, `exactly one gap, the outage covered by the snapshot: ${JSON.stringify(missing)}`);
    const [from, to] = missing[0]!;
    assert.ok(from <= r.killedAt + 1 && to >= r.atRestart - 1, `the gap [${from}, ${to}] spans the outage (${r.killedAt} → ${r.atRestart})`);
    // The snapshot carries no echoes, but the page asked the host about its pending stop request: the host
    // applied it (the snapshot shows it stopped), so only the action sent while disconnected failed.
    assert.deepEqual(r.probe.failures.map((f) => [f.kind, f.type]), [['dropped', START.type]], JSON.stringify(r.probe.failures));
    assert.match(r.probe.failures[0]!.reason, /send failed: .*not connected/);
  });
});

// End to end: connectSession over a real `ws` WebSocket into HostCore; the listener is killed and restarted
// while server actions stream and own actions are pending.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket } from 'ws';
import { connectSession, type SessionConnection } from '../../src/connection/connect-session.js';
import { HostCore } from '../../src/host.js';
import { observeApplied } from './fixtures/applied-envelopes.js';
import type { ActionEnvelope, ActionFailure, ConnectionState, McpServerCustomization, SessionState } from '../../src/index.js';

const SESSION = 'ahp-session:/reconnect';

function fixtureState(): SessionState {
  const server: McpServerCustomization = { type: 'mcpServer', id: 'srv', uri: 'mcp-config:/srv', name: 'Server', state: { kind: 'ready' } };
  return { provider: 't', title: 'start', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [server] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

/** A WebSocket listener into a host that can lose frames in either direction, be killed, and come back on the same port. */
class Listener {
  mute = false; // host → client frames are lost
  deaf = false; // client → host frames are lost
  #wss: WebSocketServer | undefined;
  port = 0;
  constructor(private readonly host: HostCore) {}

  async start(): Promise<void> {
    const wss = new WebSocketServer({ port: this.port, host: '127.0.0.1' });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    this.port = (wss.address() as AddressInfo).port;
    wss.on('connection', (socket) => {
      const conn = this.host.connect({
        send: (msg) => {
          if (!this.mute) socket.send(JSON.stringify(msg));
        },
        close: (reason) => socket.close(1000, reason),
      });
      socket.on('message', (data) => {
        if (!this.deaf) conn.receive(data);
      });
      socket.on('close', () => conn.closed());
    });
    this.#wss = wss;
    this.mute = this.deaf = false;
  }

  /** Terminates every server-side socket and stops listening. */
  async kill(): Promise<void> {
    const wss = this.#wss;
    this.#wss = undefined;
    if (!wss) return;
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }
}

/** Counts, per serverSeq, the envelopes the store really applied (its cursor moved to them), and the snapshots it loaded. */
function watchStore(conn: SessionConnection): { applied: Map<number, number>; snapshots: number[] } {
  const applied = new Map<number, number>();
  const snapshots: number[] = [];
  const store = conn.store;
  observeApplied(store, SESSION, (seq) => applied.set(seq, (applied.get(seq) ?? 0) + 1));
  const loadSnapshot = store.loadSnapshot.bind(store);
  store.loadSnapshot = (snapshot) => {
    snapshots.push(snapshot.fromSeq);
    loadSnapshot(snapshot);
  };
  return { applied, snapshots };
}

/** Every serverSeq the host publishes on the session, seen by a raw connection that never drops. */
function observe(host: HostCore): number[] {
  const seqs: number[] = [];
  const conn = host.connect({
    send: (m) => {
      const msg = m as { method?: string; params?: ActionEnvelope };
      if (msg.method === 'action') seqs.push(msg.params!.serverSeq);
    },
    close: () => {},
  });
  conn.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'observer', initialSubscriptions: [SESSION] } });
  return seqs;
}

function streamServerActions(host: HostCore): { stop(): void; count(): number } {
  let n = 0;
  const timer = setInterval(() => {
    n++;
    host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: `server ${n}` });
    if (n % 3 === 0) host.dispatchServerAction(SESSION, { type: 'session/mcpServerStateChanged', id: 'srv', state: n % 2 ? { kind: 'starting' } : { kind: 'ready' } });
  }, 1);
  return { stop: () => clearInterval(timer), count: () => n };
}

interface Scenario {
  conn: SessionConnection;
  host: HostCore;
  applied: Map<number, number>;
  snapshots: number[];
  published: number[];
  cursorAtKill: number;
  failures: ActionFailure[];
  states: ConnectionState[];
  fromSeq: number;
  accepted: number;
  lost: number;
}

async function killWhileStreaming(actionLogLimit: number): Promise<Scenario & { done(): Promise<void> }> {
  const host = new HostCore({ log: () => {}, actionLogLimit });
  host.createSession(SESSION, fixtureState());
  const listener = new Listener(host);
  await listener.start();
  const conn = connectSession({ url: listener.url, session: SESSION, WebSocket, clientId: 'page', reconnect: { initialDelayMs: 20, maxDelayMs: 80 } });
  const states: ConnectionState[] = [conn.handle.getConnectionState()];
  conn.handle.subscribeConnection((s) => states.push(s));
  const failures: ActionFailure[] = [];
  conn.store.onActionFailed((f) => failures.push(f));
  const { applied, snapshots } = watchStore(conn);
  const published = observe(host);
  await conn.ready;
  const fromSeq = conn.store.getCursor();

  const stream = streamServerActions(host);
  await sleep(15);
  // An own action that completes normally.
  conn.store.dispatch({ type: 'session/titleChanged', title: 'mine 1' });
  await until(() => conn.store.getPendingCount() === 0, 'the first echo');
  await sleep(10);
  // The host accepts this one but its echo (and the live stream after it) never reaches the page.
  listener.mute = true;
  const accepted = conn.store.dispatch({ type: 'session/isReadChanged', isRead: true });
  await until(() => host.getSessionState(SESSION)!.status !== fixtureState().status, 'the host to apply the muted action');
  await sleep(10);
  // This one never reaches the host.
  listener.deaf = true;
  const lost = conn.store.dispatch({ type: 'session/isArchivedChanged', isArchived: true });
  await sleep(5);
  assert.equal(conn.store.getPendingCount(), 2);
  const cursorAtKill = conn.store.getCursor();
  await listener.kill();
  // Down for a few failed attempts while the stream goes on (waited for, not timed: a loaded machine may run late).
  await until(
    () => states.some((st) => st.kind === 'reconnecting' && st.attempt >= 3) && host.serverSeq > cursorAtKill + 10,
    'a few failed attempts while the stream goes on',
    30_000,
  );
  await listener.start();
  await until(() => conn.handle.getConnectionState().kind === 'open', 'the reconnect');
  await sleep(20);
  stream.stop();
  await until(() => conn.store.getCursor() === host.serverSeq, 'the last streamed envelope');
  return {
    conn,
    host,
    applied,
    snapshots,
    published,
    cursorAtKill,
    failures,
    states,
    fromSeq,
    accepted,
    lost,
    done: async () => {
      conn.close();
      await listener.kill();
    },
  };
}

function assertStatesInOrder(states: ConnectionState[]): void {
  const kinds = states.map((s) => (s.kind === 'reconnecting' ? `reconnecting ${s.attempt}` : s.kind));
  assert.deepEqual(kinds.slice(0, 3), ['connecting', 'open', 'reconnecting 1'], kinds.join(', '));
  assert.equal(kinds.at(-1), 'open');
  const attempts = states.filter((s): s is { kind: 'reconnecting'; attempt: number } => s.kind === 'reconnecting').map((s) => s.attempt);
  assert.deepEqual(attempts, attempts.map((_, i) => i + 1), 'attempts count up by one');
  assert.ok(attempts.length >= 2, `the listener was down for several attempts (${kinds.join(', ')})`);
  assert.equal(kinds.filter((k) => k === 'open').length, 2);
}

/** After recovery only the action that never reached the host is reported (dropped), nothing is pending, and the
 * connection states ran in order. */
function assertOnlyLostDropped(s: Awaited<ReturnType<typeof killWhileStreaming>>, message: string): void {
  assert.deepEqual(
    s.failures.map((f) => [f.kind, f.clientSeq, f.reason]),
    [['dropped', s.lost, 'not accepted before reconnect']],
    message,
  );
  assert.equal(s.conn.store.getPendingCount(), 0);
  assertStatesInOrder(s.states);
}

test('killed and restarted listener: replay recovers everything exactly once; the lost action is dropped and reported', async () => {
  const s = await killWhileStreaming(100_000);
  try {
    assert.deepEqual(s.conn.store.getState(), s.host.getSessionState(SESSION), 'page state equals host state');
    assert.deepEqual(s.conn.store.getConfirmedState(), s.host.getSessionState(SESSION));
    const expected = s.published.filter((q) => q > s.fromSeq);
    assert.ok(expected.length > 20, `enough streamed (${expected.length})`);
    assert.ok(s.published.some((q) => q > s.cursorAtKill + 5), 'the page missed envelopes while down');
    assert.deepEqual([...s.applied.keys()].sort((a, b) => a - b), expected, 'nothing lost');
    assert.deepEqual(s.snapshots, [s.fromSeq], 'recovered by replay, no second snapshot');
    assert.deepEqual([...s.applied.values()].filter((n) => n !== 1), [], 'nothing applied twice');
    assert.equal(s.conn.store.getState()!.status & 32, 32, 'the accepted action (echo lost) took effect via the replay');
    assertOnlyLostDropped(s, 'only the action that never reached the host is dropped; the replayed echo cleared the other');

    // clientSeq keeps counting after the reconnect, and dispatch works again.
    const echoed = new Promise<ActionEnvelope>((r) => s.conn.client.onAction((env) => env.origin?.clientId === 'page' && r(env)));
    const next = s.conn.store.dispatch({ type: 'session/titleChanged', title: 'after' });
    assert.deepEqual([s.accepted, s.lost, next], [2, 3, 4]);
    assert.deepEqual((await echoed).origin, { clientId: 'page', clientSeq: 4 });
    await until(() => s.conn.store.getPendingCount() === 0, 'the echo after reconnect');
    assert.equal(s.host.getSessionState(SESSION)!.title, 'after');
  } finally {
    await s.done();
  }
});

test('killed and restarted listener with a short action log: a snapshot recovers the state, nothing applied twice, the applied action (echo lost) is not reported', async () => {
  const s = await killWhileStreaming(5);
  try {
    assert.deepEqual(s.conn.store.getState(), s.host.getSessionState(SESSION), 'page state equals host state');
    assert.deepEqual([...s.applied.values()].filter((n) => n !== 1), [], 'nothing applied twice');
    assert.equal(s.snapshots.length, 2, 'the reconnect answered with a snapshot');
    const snapSeq = s.snapshots[1]!;
    assert.ok(snapSeq > s.cursorAtKill + 5, 'the snapshot skipped the gap');
    const expected = s.published.filter((q) => (q > s.fromSeq && q <= s.cursorAtKill) || q > snapSeq);
    assert.deepEqual([...s.applied.keys()].sort((a, b) => a - b), expected, 'everything before the drop and after the snapshot, nothing in between');
    assert.ok(s.conn.store.getState()!.status & 32, 'the accepted action is in the snapshot');
    // The snapshot holds no echoes, so the page asked the host about its pending actions: the accepted one
    // (echo lost) is applied and reported as nothing; only the one that never reached the host is dropped.
    assertOnlyLostDropped(s, 'only the action the host never got is reported');
  } finally {
    await s.done();
  }
});

test('snapshot recovery with lost echoes: applied actions are not reported, a rejected one is reported with the host reason', async () => {
  const host = new HostCore({ log: () => {}, actionLogLimit: 2 });
  host.createSession(SESSION, fixtureState());
  const listener = new Listener(host);
  await listener.start();
  const conn = connectSession({ url: listener.url, session: SESSION, WebSocket, clientId: 'page', reconnect: { initialDelayMs: 20, maxDelayMs: 80 } });
  const failures: ActionFailure[] = [];
  conn.store.onActionFailed((f) => failures.push(f));
  const { snapshots } = watchStore(conn);
  try {
    await conn.ready;
    listener.mute = true; // from here on the page sees no echo at all
    const applied = conn.store.dispatch({ type: 'session/titleChanged', title: 'mine' });
    const rejected = conn.store.dispatch({ type: 'session/customizationToggled', id: 'no-such-server', enabled: false });
    const last = conn.store.dispatch({ type: 'session/isReadChanged', isRead: true });
    // The host handles one connection's messages in order: once the last took effect, all three were handled.
    await until(() => (host.getSessionState(SESSION)!.status & 32) === 32, 'the host to handle all three');
    assert.equal(host.getSessionState(SESSION)!.title, 'mine');
    for (let i = 0; i < 5; i++) host.dispatchServerAction(SESSION, { type: 'session/mcpServerStateChanged', id: 'srv', state: i % 2 ? { kind: 'starting' } : { kind: 'ready' } });
    assert.equal(conn.store.getPendingCount(), 3);
    await listener.kill();
    await listener.start();
    await until(() => conn.handle.getConnectionState().kind === 'open' && conn.store.getPendingCount() === 0, 'the reconnect to settle every pending action');
    assert.equal(snapshots.length, 2, 'recovered by a snapshot (the short log no longer reaches back)');
    assert.deepEqual(conn.store.getState(), host.getSessionState(SESSION), 'page state equals host state');
    assert.deepEqual(
      failures.map((f) => [f.kind, f.clientSeq, f.reason]),
      [['rejected', rejected, 'No customization with id "no-such-server" in this session']],
      `applied ${applied} and ${last} are not reported; the rejection is, with the host's reason`,
    );
  } finally {
    conn.close();
    await listener.kill();
  }
});

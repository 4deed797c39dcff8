// connectSession's reconnect against stub hosts (legacy shapes, no `reconnect`, restarted host) over in-memory transports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectSession, type ConnectSessionOptions } from '../../src/connection/connect-session.js';
import { JsonRpcPeer, RpcError, createInMemoryPair, type Transport } from '../../src/client/index.js';
import { HostCore, attachTransport } from '../../src/host.js';
import { chatReducer, sessionReducer } from '../../src/reducers/index.js';
import { observeApplied } from './fixtures/applied-envelopes.js';
import type { ActionEnvelope, ActionFailure, AnyAction, ChatState, ConnectionState, SessionState } from '../../src/index.js';
import { until as pollUntil } from './fixtures/host.js';

const S = 'ahp-session:/stub';
const CHAT = 'ahp-chat:/stub-chat';
const quiet = () => {};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = (cond: () => boolean, what: string) => pollUntil(cond, what, 1000);
const kindsOf = (states: ConnectionState[]) => states.map((s) => (s.kind === 'reconnecting' ? `reconnecting ${s.attempt}` : s.kind));
const base = (title: string): SessionState => ({ provider: 'p', title, status: 1, lifecycle: 'ready', activeClients: [], chats: [] });

type Mode = 'legacy-lenient' | 'legacy-strict' | 'legacy-snapshot' | 'no-reconnect' | 'missing';

/** A hand-written host that speaks only what a test needs. */
class StubHost {
  seq = 10;
  title = 'stub';
  log: ActionEnvelope[] = [];
  reconnects: Record<string, unknown>[] = [];
  initializes = 0;
  listSessions = 0;
  echo = true;
  /** Every method the client sent, in order. */
  methods: string[] = [];
  /** Runs right after a reconnect answer went out, before the client could process it. */
  onAnswer: (() => void) | undefined;
  #current: { peer: JsonRpcPeer; transport: Transport } | undefined;
  constructor(public mode: Mode) {}

  connect = async (): Promise<Transport> => {
    const [client, server] = createInMemoryPair();
    const send = client.send.bind(client);
    client.send = (msg) => {
      if ('method' in msg) this.methods.push(msg.method);
      send(msg);
    };
    const serverSend = server.send.bind(server);
    server.send = (msg) => {
      serverSend(msg);
      const result = (msg as { result?: unknown }).result;
      if (typeof result === 'object' && result !== null && ('type' in result || 'channels' in result)) this.onAnswer?.();
    };
    const peer = new JsonRpcPeer(server, { log: quiet });
    peer.onRequest('initialize', () => {
      this.initializes++;
      return { protocolVersion: '1.0.0', serverSeq: this.seq, snapshots: [] };
    });
    peer.onRequest('subscribe', () => ({ snapshot: this.#snapshot() }));
    peer.onRequest('listSessions', () => {
      this.listSessions++;
      return { items: [{ resource: S, title: this.title }] };
    });
    peer.onNotification('dispatchAction', (p) => {
      const { clientSeq, action } = p as { clientSeq: number; action: { type: string; title: string } };
      this.#apply(action.title, { clientId: 'page', clientSeq }, this.echo);
    });
    if (this.mode !== 'no-reconnect') peer.onRequest('reconnect', (p) => this.#reconnect(p as Record<string, unknown>));
    this.#current = { peer, transport: server };
    return client;
  };

  emit(title: string): void {
    this.#apply(title, undefined, true);
  }

  drop(): void {
    this.#current?.transport.close();
  }

  #snapshot() {
    return { resource: S, state: base(this.title), fromSeq: this.seq };
  }

  #apply(title: string, origin: ActionEnvelope['origin'], send: boolean): void {
    this.title = title;
    const env: ActionEnvelope = { channel: S, serverSeq: ++this.seq, action: { type: 'session/titleChanged', title }, ...(origin && { origin }) };
    this.log.push(env);
    if (send) this.#current?.peer.notify('action', env);
  }

  #reconnect(params: Record<string, unknown>): unknown {
    this.reconnects.push(params);
    const subs = params.subscriptions as unknown[];
    if (this.mode === 'missing') return { channels: [{ kind: 'missing', channel: S }] };
    if (this.mode === 'legacy-strict' && typeof subs[0] !== 'string') throw new RpcError(-32602, 'subscriptions must be URIs');
    if (this.mode === 'legacy-snapshot') return { type: 'snapshot', snapshots: [this.#snapshot()] };
    const since = typeof params.lastSeenServerSeq === 'number' ? params.lastSeenServerSeq : (subs[0] as { lastSeenServerSeq: number }).lastSeenServerSeq;
    return { type: 'replay', actions: this.log.filter((e) => e.serverSeq > since), missing: [] };
  }
}

function open(stub: StubHost, extra: Partial<ConnectSessionOptions> = {}) {
  const conn = connectSession({ session: S, clientId: 'page', createTransport: stub.connect, reconnect: { initialDelayMs: 1, maxDelayMs: 5 }, log: quiet, ...extra });
  const states: ConnectionState[] = [conn.handle.getConnectionState()];
  conn.handle.subscribeConnection((s) => states.push(s));
  const failures: ActionFailure[] = [];
  conn.store.onActionFailed((f) => failures.push(f));
  return { conn, states, failures };
}

test('a host answering the legacy replay shape: missed envelopes and the own lost echo are applied from it', async () => {
  const stub = new StubHost('legacy-lenient');
  const { conn, states, failures } = open(stub);
  await conn.ready;
  stub.emit('live 1');
  await until(() => conn.store.getState()?.title === 'live 1', 'live envelope');
  stub.echo = false;
  const mine = conn.store.dispatch({ type: 'session/titleChanged', title: 'mine' });
  await until(() => stub.title === 'mine', 'the stub to take the action');
  stub.drop();
  stub.emit('while down');
  await until(() => conn.handle.getConnectionState().kind === 'open' && states.length > 3, 'reconnected');
  assert.deepEqual(stub.reconnects.map((p) => p.subscriptions), [[{ channel: S, lastSeenServerSeq: 11 }]], 'per-channel cursor from the store');
  assert.equal(conn.store.getState()?.title, 'while down');
  assert.equal(conn.store.getCursor(), 13);
  assert.deepEqual(failures, [], `own echo in the replay cleared clientSeq ${mine}`);
  assert.equal(stub.initializes, 1, 'no second initialize');
  assert.deepEqual(kindsOf(states), ['connecting', 'open', 'reconnecting 1', 'open']);
  conn.close();
});

test('a live envelope right behind the reconnect answer waits until the replay is applied', async () => {
  const stub = new StubHost('legacy-lenient');
  const { conn } = open(stub);
  const arrived: number[] = [];
  conn.client.onAction((e) => arrived.push(e.serverSeq));
  const applied: number[] = [];
  observeApplied(conn.store, S, (seq) => applied.push(seq));
  await conn.ready;
  stub.drop();
  stub.emit('missed');
  stub.onAnswer = () => {
    stub.onAnswer = undefined;
    stub.emit('raced');
  };
  await until(() => conn.handle.getConnectionState().kind === 'open' && conn.store.getCursor() === 12, 'replay and live');
  assert.deepEqual(arrived, [12], 'the live one reached the client before the answer was applied');
  assert.deepEqual(applied, [11, 12], 'the replayed envelope was not skipped');
  assert.equal(conn.store.getState()?.title, 'raced');
  conn.close();
});

test('a legacy host refusing per-channel cursors with -32602 gets the legacy request shape', async () => {
  const stub = new StubHost('legacy-strict');
  const { conn } = open(stub);
  await conn.ready;
  stub.emit('a');
  await until(() => conn.store.getCursor() === 11, 'live');
  stub.drop();
  stub.emit('b');
  stub.emit('c');
  await until(() => conn.handle.getConnectionState().kind === 'open' && stub.reconnects.length === 2, 'reconnected');
  assert.deepEqual(stub.reconnects[1], { channel: 'ahp-root://', clientId: 'page', lastSeenServerSeq: 11, subscriptions: [S] });
  assert.equal(conn.store.getState()?.title, 'c');
  assert.equal(conn.store.getCursor(), 13);
  conn.close();
});

/** A connection to a stub host in `mode`, open, with the stub no longer echoing actions (they stay pending). */
async function openWithoutEchoes(mode: ConstructorParameters<typeof StubHost>[0]) {
  const stub = new StubHost(mode);
  const opened = open(stub);
  await opened.conn.ready;
  stub.echo = false;
  return { stub, ...opened };
}

test('a legacy snapshot answer resets the store and drops what was pending', async () => {
  const { stub, conn, failures } = await openWithoutEchoes('legacy-snapshot');
  const seq = conn.store.dispatch({ type: 'session/titleChanged', title: 'optimistic' });
  await until(() => stub.title === 'optimistic', 'the stub to take it');
  stub.drop();
  stub.emit('server wins');
  await until(() => conn.handle.getConnectionState().kind === 'open' && stub.reconnects.length === 1, 'reconnected');
  assert.equal(conn.store.getState()?.title, 'server wins');
  assert.equal(conn.store.getCursor(), 12);
  assert.deepEqual(failures.map((f) => [f.kind, f.clientSeq, f.reason]), [['dropped', seq, 'not accepted before reconnect']]);
  // The client asked what became of it; this host does not know the ahp-elements extension, so the client falls back to dropped.
  assert.deepEqual(stub.reconnects[0]!._meta, { 'ahp-elements/pendingClientSeqs': [seq] });
  conn.close();
});

test('a host without reconnect (-32601): initialize + subscribe for a fresh snapshot, and reconnect is not tried again', async () => {
  const stub = new StubHost('no-reconnect');
  const { conn, states } = open(stub);
  await conn.ready;
  for (const title of ['x', 'y']) {
    stub.drop();
    stub.emit(title);
    const before = stub.initializes;
    await until(() => stub.initializes === before + 1 && conn.handle.getConnectionState().kind === 'open', `reconnect ${title}`);
    assert.equal(conn.store.getState()?.title, title);
  }
  assert.deepEqual(kindsOf(states), ['connecting', 'open', 'reconnecting 1', 'open', 'reconnecting 1', 'open']);
  const handshakes = stub.methods.filter((m) => m === 'initialize' || m === 'reconnect');
  assert.deepEqual(handshakes, ['initialize', 'reconnect', 'initialize', 'initialize']);
  conn.close();
});

test('the session list is fetched after connecting and re-fetched after every reconnect', async () => {
  const stub = new StubHost('legacy-lenient');
  const { conn } = open(stub);
  const seen: string[] = [];
  conn.onSessions((s) => seen.push(String(s.items[0]?.title)));
  await conn.ready;
  await until(() => seen.length === 1, 'first list');
  stub.drop();
  stub.emit('renamed');
  await until(() => seen.length === 2, 'list after reconnect');
  assert.deepEqual(seen, ['stub', 'renamed']);
  assert.deepEqual(conn.sessions, { items: [{ resource: S, title: 'renamed' }] });
  conn.close();
});

test('a restarted host (unknown clientId, -32600) is recovered by initialize + subscribe: the page equals the new host', async () => {
  let host = new HostCore({ log: quiet });
  host.createSession(S, base('first host'));
  const createTransport = async () => {
    const [c, s] = createInMemoryPair();
    attachTransport(host, s);
    return c;
  };
  const { conn } = open(new StubHost('no-reconnect'), { createTransport });
  await conn.ready;
  for (let i = 0; i < 5; i++) host.dispatchServerAction(S, { type: 'session/titleChanged', title: `old ${i}` });
  await until(() => conn.store.getCursor() === 5, 'old envelopes');
  const oldHost = host;
  host = new HostCore({ log: quiet });
  host.createSession(S, base('second host'));
  host.dispatchServerAction(S, { type: 'session/isReadChanged', isRead: true });
  oldHost.close();
  await until(() => conn.handle.getConnectionState().kind === 'open' && conn.store.getCursor() === 1, 'recovered from the new host');
  assert.deepEqual(conn.store.getState(), host.getSessionState(S));
  conn.close();
});

test('a session the host no longer has ends the connection with a reason', async () => {
  const { stub, conn, failures } = await openWithoutEchoes('missing');
  conn.store.dispatch({ type: 'session/titleChanged', title: 'pending' });
  await sleep(5);
  stub.drop();
  await until(() => conn.handle.getConnectionState().kind === 'closed', 'closed');
  assert.match((conn.handle.getConnectionState() as { reason?: string }).reason ?? '', /no longer has ahp-session:\/stub/);
  assert.deepEqual(failures.map((f) => f.kind), ['dropped']);
});

test('maxAttempts gives up with a reason; reconnectNow starts again; close() stops a pending reconnect for good', async () => {
  const stub = new StubHost('legacy-lenient');
  let down = false;
  let opened = 0;
  const createTransport = async () => {
    opened++;
    if (down) throw new Error('connection refused');
    return stub.connect();
  };
  const { conn, states } = open(stub, { createTransport, reconnect: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 } });
  await conn.ready;
  down = true;
  stub.drop();
  await until(() => conn.handle.getConnectionState().kind === 'closed', 'giving up');
  assert.match((conn.handle.getConnectionState() as { reason?: string }).reason ?? '', /gave up reconnecting after 3 attempts: connection refused/);
  assert.equal(opened, 1 + 3);
  assert.deepEqual(kindsOf(states).slice(2), ['reconnecting 1', 'reconnecting 2', 'reconnecting 3', 'closed']);

  down = false;
  conn.reconnectNow();
  await until(() => conn.handle.getConnectionState().kind === 'open', 'open again after reconnectNow');
  assert.equal(stub.reconnects.length, 1);

  // A long wait that reconnectNow cuts short, then close() during the next wait stops everything.
  conn.close();
  const slow = open(stub, { reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000, jitter: 0 } });
  await slow.conn.ready;
  stub.drop();
  await until(() => slow.conn.handle.getConnectionState().kind === 'reconnecting', 'waiting');
  const t0 = Date.now();
  slow.conn.reconnectNow();
  await until(() => slow.conn.handle.getConnectionState().kind === 'open', 'reconnectNow skips the wait');
  assert.ok(Date.now() - t0 < 5000);
  stub.drop();
  await until(() => slow.conn.handle.getConnectionState().kind === 'reconnecting', 'waiting again');
  const attemptsBefore = stub.reconnects.length;
  slow.conn.close();
  assert.deepEqual(slow.conn.handle.getConnectionState(), { kind: 'closed', reason: 'closed by client' });
  slow.conn.reconnectNow();
  await sleep(20);
  assert.equal(stub.reconnects.length, attemptsBefore, 'nothing after close()');
});

test('reconnect: false, or a fixed transport without createTransport, ends in closed on a drop; dispatch while not open is dropped at once', async () => {
  const stub = new StubHost('legacy-lenient');
  const off = open(stub, { reconnect: false });
  await off.conn.ready;
  stub.drop();
  await until(() => off.conn.handle.getConnectionState().kind === 'closed', 'closed');
  assert.deepEqual(off.conn.handle.getConnectionState(), { kind: 'closed', reason: 'closed by peer' });
  assert.equal(stub.reconnects.length, 0);

  const fixed = connectSession({ session: S, transport: await stub.connect(), log: quiet });
  await fixed.ready;
  stub.drop();
  await until(() => fixed.handle.getConnectionState().kind === 'closed', 'closed');

  const waiting = open(stub, { reconnect: { initialDelayMs: 60_000, jitter: 0 } });
  await waiting.conn.ready;
  stub.drop();
  await until(() => waiting.conn.handle.getConnectionState().kind === 'reconnecting', 'reconnecting');
  waiting.conn.store.dispatch({ type: 'session/titleChanged', title: 'while down' });
  assert.deepEqual(waiting.failures.map((f) => f.kind), ['dropped']);
  assert.match(waiting.failures[0]!.reason, /not connected/);
  waiting.conn.close();
});

/** A host with one session and one chat channel, reducing with the real reducers; `reconnect` optional. */
class ChatHost {
  seq = 10;
  session: SessionState = base('chat host');
  chat: ChatState = { resource: CHAT, title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] };
  log: ActionEnvelope[] = [];
  reconnects: Record<string, unknown>[] = [];
  subscribes: string[] = [];
  #current: { peer: JsonRpcPeer; transport: Transport } | undefined;
  constructor(readonly withReconnect: boolean) {}

  connect = async (): Promise<Transport> => {
    const [client, server] = createInMemoryPair();
    const peer = new JsonRpcPeer(server, { log: quiet });
    peer.onRequest('initialize', () => ({ protocolVersion: '1.0.0', serverSeq: this.seq, snapshots: [] }));
    peer.onRequest('subscribe', (p) => {
      const channel = (p as { channel: string }).channel;
      this.subscribes.push(channel);
      return { snapshot: this.#snapshot(channel) };
    });
    if (this.withReconnect) {
      peer.onRequest('reconnect', (p) => {
        const params = p as { subscriptions: { channel: string; lastSeenServerSeq: number }[] };
        this.reconnects.push(params);
        return {
          channels: params.subscriptions.map(({ channel, lastSeenServerSeq }) =>
            lastSeenServerSeq <= 0
              ? { kind: 'snapshot', channel, snapshot: this.#snapshot(channel) }
              : { kind: 'replay', channel, actions: this.log.filter((e) => e.channel === channel && e.serverSeq > lastSeenServerSeq) },
          ),
        };
      });
    }
    this.#current = { peer, transport: server };
    return client;
  };

  emit(channel: string, action: AnyAction): void {
    if (channel === CHAT) this.chat = chatReducer(this.chat, action);
    else this.session = sessionReducer(this.session, action);
    const env: ActionEnvelope = { channel, serverSeq: ++this.seq, action };
    this.log.push(env);
    this.#current?.peer.notify('action', env);
  }

  drop(): void {
    this.#current?.transport.close();
  }

  #snapshot(channel: string) {
    return { resource: channel, state: channel === CHAT ? this.chat : this.session, fromSeq: this.seq };
  }
}

const started: AnyAction = { type: 'chat/turnStarted', turnId: 't1', startedAt: '2026-02-01T00:00:00.000Z', message: { text: 'hi', origin: { kind: 'user' } } };
const completed: AnyAction = { type: 'chat/turnComplete', turnId: 't1', duration: 5 };

for (const withReconnect of [true, false]) {
  test(`watched chats are recovered too (${withReconnect ? 'per-channel reconnect cursors' : 'initialize + subscribe fallback'})`, async () => {
    const host = new ChatHost(withReconnect);
    const { conn } = open(new StubHost('no-reconnect'), { createTransport: host.connect });
    const release = conn.store.watchChat(CHAT); // before ready: subscribed once the session is open
    await conn.ready;
    await until(() => conn.store.getChatState(CHAT) !== undefined, 'the chat snapshot');
    host.emit(CHAT, started);
    await until(() => conn.store.getChatState(CHAT)?.activeTurn !== undefined, 'live chat action');
    host.drop();
    host.emit(CHAT, completed);
    host.emit(S, { type: 'session/titleChanged', title: 'while down' });
    await until(() => conn.handle.getConnectionState().kind === 'open' && conn.store.getChatState(CHAT)?.turns.length === 1, 'recovered chat');
    const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T; // snapshots travel as JSON (no undefined fields)
    assert.deepEqual(wire(conn.store.getChatState(CHAT)), wire(host.chat));
    assert.deepEqual(wire(conn.store.getState()), wire(host.session));
    if (withReconnect) {
      assert.deepEqual(host.reconnects[0]!.subscriptions, [
        { channel: S, lastSeenServerSeq: 10 },
        { channel: CHAT, lastSeenServerSeq: 11 },
      ]);
      assert.deepEqual(host.subscribes, [S, CHAT]);
    } else {
      assert.deepEqual(host.subscribes, [S, CHAT, S, CHAT]);
    }
    release();
    conn.close();
  });
}

test('a chat watched while reconnecting is subscribed once the connection is open again', async () => {
  const host = new ChatHost(true);
  const { conn } = open(new StubHost('no-reconnect'), { createTransport: host.connect, reconnect: { initialDelayMs: 60_000, jitter: 0 } });
  await conn.ready;
  host.drop();
  await until(() => conn.handle.getConnectionState().kind === 'reconnecting', 'reconnecting');
  const release = conn.store.watchChat(CHAT);
  await sleep(5);
  assert.equal(conn.store.getChatState(CHAT), undefined);
  conn.reconnectNow();
  await until(() => conn.store.getChatState(CHAT) !== undefined, 'the chat after reconnect');
  assert.equal(conn.handle.getConnectionState().kind, 'open');
  release();
  conn.close();
});

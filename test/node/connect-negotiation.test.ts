// Strict version acceptance and the reconnect fallback, against a stub host that answers exactly what each test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectSession } from '../../src/connection/connect-session.js';
import { AhpClient, JsonRpcPeer, ProtocolVersionMismatchError, createInMemoryPair, type Transport } from '../../src/client/index.js';
import { RpcError } from '../../src/client/index.js';
import type { ActionEnvelope, ActionFailure, SessionState } from '../../src/index.js';
import { until as pollUntil } from './fixtures/host.js';

const S = 'ahp-session:/stub';
const quiet = () => {};
const until = (cond: () => boolean, what: string) => pollUntil(cond, what, 2000);
const base = (title: string): SessionState => ({ provider: 'p', title, status: 1, lifecycle: 'ready', activeClients: [], chats: [] });

/** A host whose `initialize` and `reconnect` answers are whatever the test puts in `initializeAnswer` / `reconnectAnswer`. */
class StubHost {
  seq = 10;
  title = 'stub';
  methods: string[] = [];
  closedByClient = 0;
  initializeAnswer: (call: number) => unknown = () => ({ protocolVersion: '1.0.0', serverSeq: this.seq, snapshots: [] });
  reconnectAnswer: () => unknown = () => ({ channels: [] });
  #initialized = false;
  #initializes = 0;
  #current: { peer: JsonRpcPeer; transport: Transport } | undefined;

  connect = async (): Promise<Transport> => {
    const [client, server] = createInMemoryPair();
    this.#initialized = false;
    const peer = new JsonRpcPeer(server, { log: quiet });
    server.onclose = () => void this.closedByClient++;
    const track = (method: string, fn: (p: unknown) => unknown) => peer.onRequest(method, (p) => (this.methods.push(method), fn(p)));
    track('initialize', () => {
      // Like HostCore: a connection set up by `reconnect` refuses a second handshake.
      if (this.#initialized) throw new RpcError(-32600, 'Already initialized');
      this.#initialized = true;
      return this.initializeAnswer(++this.#initializes);
    });
    track('reconnect', () => {
      const answer = this.reconnectAnswer();
      this.#initialized = true;
      return answer;
    });
    track('subscribe', () => ({ snapshot: this.snapshot() }));
    track('listSessions', () => ({ items: [] }));
    peer.onNotification('dispatchAction', () => {});
    this.#current = { peer, transport: server };
    return client;
  };

  snapshot() {
    return { resource: S, state: base(this.title), fromSeq: this.seq };
  }

  emitWhileDown(title: string): void {
    this.title = title;
    this.seq++;
  }

  drop(): void {
    this.#current?.transport.close();
  }

  envelope(title: string): ActionEnvelope {
    return { channel: S, serverSeq: this.seq, action: { type: 'session/titleChanged', title } };
  }
}

function open(stub: StubHost) {
  const conn = connectSession({ session: S, clientId: 'page', createTransport: stub.connect, reconnect: { initialDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 }, log: quiet });
  const failures: ActionFailure[] = [];
  conn.store.onActionFailed((f) => failures.push(f));
  return { conn, failures };
}

for (const [what, answer] of [
  ['a version it never offered', { protocolVersion: '2.0.0', serverSeq: 1, snapshots: [] }],
  ['no version at all', { serverSeq: 1, snapshots: [] }],
  ['a null result', null],
] as const) {
  test(`initialize answered with ${what}: a clear error naming both sides' versions, and the connection closes`, async () => {
    const stub = new StubHost();
    stub.initializeAnswer = () => answer;
    const { conn } = open(stub);
    const err = await conn.ready.then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof ProtocolVersionMismatchError, String(err));
    assert.match(err.message, /1\.1\.0, 1\.0\.0, 0\.9\.0/, 'names what the client offered');
    if (what === 'a version it never offered') {
      assert.equal(err.hostVersion, '2.0.0');
      assert.match(err.message, /2\.0\.0/, 'names what the host answered');
    } else {
      assert.equal(err.hostVersion, undefined);
      assert.match(err.message, /without a protocol version/);
    }
    const state = conn.handle.getConnectionState();
    assert.equal(state.kind, 'closed');
    assert.match(state.kind === 'closed' ? state.reason ?? '' : '', /protocol version mismatch/);
    await until(() => stub.closedByClient === 1, 'the client to hang up');
    assert.ok(!stub.methods.includes('subscribe'), 'nothing is subscribed over a version nobody agreed on');
  });
}

test('AhpClient.initialize accepts exactly an offered version (the one the host chose)', async () => {
  const stub = new StubHost();
  stub.initializeAnswer = () => ({ protocolVersion: '0.9.0', serverSeq: 1, snapshots: [] });
  const client = new AhpClient({ transport: await stub.connect(), log: quiet });
  const result = await client.initialize({ protocolVersions: ['1.1.0', '0.9.0'] });
  assert.equal(result.protocolVersion, '0.9.0');
  assert.equal(client.closed, false);
  client.close();
});

const UNUSABLE: [string, (stub: StubHost) => unknown][] = [
  ['an empty object', () => ({})],
  ['null', () => null],
  ['an unknown legacy type', () => ({ type: 'delta', actions: [] })],
  ['a replay holding a malformed envelope', (stub) => ({ channels: [{ kind: 'replay', channel: S, actions: [stub.envelope(stub.title), { serverSeq: 'x' }] }] })],
  ['a snapshot of another resource', (stub) => ({ channels: [{ kind: 'snapshot', channel: S, snapshot: { ...stub.snapshot(), resource: 'ahp-session:/other' } }] })],
  ['contradicting answers for the session', (stub) => ({ channels: [{ kind: 'missing', channel: S }, { kind: 'snapshot', channel: S, snapshot: stub.snapshot() }] })],
  ['a per-channel answer that leaves the session out', () => ({ channels: [] })],
  ['a legacy snapshot answer without the session', () => ({ type: 'snapshot', snapshots: [] })],
  ['a legacy replay whose actions are not a list', () => ({ type: 'replay', actions: 'none', missing: [] })],
];

for (const [what, answer] of UNUSABLE) {
  test(`reconnect answered with ${what}: falls back to a fresh snapshot, reports pending actions as not accepted, and stays open`, async () => {
    const stub = new StubHost();
    const { conn, failures } = open(stub);
    await conn.ready;
    const seq = conn.store.dispatch({ type: 'session/titleChanged', title: 'optimistic' });
    stub.reconnectAnswer = () => answer(stub);
    stub.drop();
    stub.emitWhileDown('while down');
    await until(() => conn.handle.getConnectionState().kind === 'open' && stub.methods.includes('reconnect'), 'reconnected');
    assert.equal(conn.store.getState()?.title, 'while down', 'the store equals the host');
    assert.equal(conn.store.getCursor(), stub.seq);
    assert.deepEqual(failures.map((f) => [f.kind, f.clientSeq, f.reason]), [['dropped', seq, 'not accepted before reconnect']]);
    const after = stub.methods.slice(stub.methods.indexOf('reconnect'));
    assert.ok(after.includes('subscribe'), `resubscribed (${after.join(', ')})`);
    conn.close();
  });
}

test('a fallback initialize answered with an unoffered version ends the connection for good (no retry loop)', async () => {
  const stub = new StubHost();
  const { conn } = open(stub);
  await conn.ready;
  stub.reconnectAnswer = () => {
    throw new RpcError(-32600, 'Unknown clientId');
  };
  stub.initializeAnswer = (call) => (call === 1 ? { protocolVersion: '1.0.0', serverSeq: 1, snapshots: [] } : { protocolVersion: '3.0.0', serverSeq: 1, snapshots: [] });
  stub.drop();
  await until(() => conn.handle.getConnectionState().kind === 'closed', 'closed');
  const state = conn.handle.getConnectionState();
  assert.match(state.kind === 'closed' ? state.reason ?? '' : '', /3\.0\.0/);
  assert.equal(stub.methods.filter((m) => m === 'reconnect').length, 1, 'gave up after the first mismatch');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AhpClient, JsonRpcPeer, RpcError, UnusableReconnectResultError, backoffDelay, createInMemoryPair, normalizeReconnectResult, type Transport } from '../../src/client/index.js';
import { HostCore, attachTransport } from '../../src/host.js';
import type { ActionEnvelope, SessionState } from '../../src/protocol/index.js';

const S = 'ahp-session:/s';
const T = 'ahp-session:/t';
const env = (channel: string, serverSeq: number): ActionEnvelope => ({ channel, serverSeq, action: { type: 'session/titleChanged', title: String(serverSeq) } });
const state = (title: string): SessionState => ({ provider: 'p', title, status: 1, lifecycle: 'ready', activeClients: [], chats: [] });
const quiet = () => {};

test('normalizeReconnectResult: per-channel answers in request order, foreign envelopes skipped, unusable and omitted channels left out', () => {
  const logged: string[] = [];
  const U = 'ahp-session:/u';
  const out = normalizeReconnectResult(
    {
      channels: [
        { kind: 'snapshot', channel: T, snapshot: { resource: T, state: state('t'), fromSeq: 9 } },
        { kind: 'replay', channel: S, actions: [env(S, 7), env(T, 6), env(S, 5)] },
        { kind: 'replay', channel: U, actions: [env(U, 7), { junk: true }] },
        { kind: 'snapshot', channel: 'ahp-session:/other', snapshot: { resource: T, state: state('t'), fromSeq: 9 } },
        { kind: 'missing', channel: 'ahp-session:/twice' },
        { kind: 'replay', channel: 'ahp-session:/twice', actions: [] },
        { kind: 'weird', channel: 'ahp-session:/x' },
      ],
    },
    [S, T, U, 'ahp-session:/omitted', 'ahp-session:/other', 'ahp-session:/twice', 'ahp-session:/x'].map((channel) => ({ channel, lastSeenServerSeq: 1 })),
    (m) => logged.push(m),
  );
  assert.equal(out.shape, 'per-channel');
  // A replay with a malformed envelope may hide a missed action, a snapshot of another resource or two answers for one
  // channel contradict: those channels are left out so the caller resubscribes them (never reported missing).
  assert.deepEqual(out.channels.map((r) => [r.kind, r.channel]), [['replay', S], ['snapshot', T]]);
  assert.deepEqual(out.channels[0]!.kind === 'replay' && out.channels[0]!.actions.map((e) => e.serverSeq), [5, 7]);
  assert.ok(logged.length >= 3, 'the unusable recoveries are logged');
});

test('normalizeReconnectResult: legacy replay splits by channel; legacy snapshot leaves channels without one out (not missing); unrecognisable answers throw UnusableReconnectResultError', () => {
  const cursors = [
    { channel: S, lastSeenServerSeq: 3 },
    { channel: T, lastSeenServerSeq: 3 },
    { channel: 'ahp-session:/gone', lastSeenServerSeq: 3 },
  ];
  const replay = normalizeReconnectResult({ type: 'replay', actions: [env(T, 5), env(S, 4), env(S, 6)], missing: ['ahp-session:/gone'] }, cursors, quiet);
  assert.equal(replay.shape, 'legacy');
  assert.deepEqual(
    replay.channels.map((r) => [r.kind, r.channel, r.kind === 'replay' ? r.actions.map((e) => e.serverSeq) : null]),
    [
      ['replay', S, [4, 6]],
      ['replay', T, [5]],
      ['missing', 'ahp-session:/gone', null],
    ],
  );
  const broken = normalizeReconnectResult({ type: 'replay', actions: [env(S, 4), 'junk'], missing: ['ahp-session:/gone'] }, cursors, quiet);
  assert.deepEqual(broken.channels.map((r) => [r.kind, r.channel]), [['missing', 'ahp-session:/gone']]);
  const snap = normalizeReconnectResult({ type: 'snapshot', snapshots: [{ resource: S, state: state('s'), fromSeq: 8 }] }, cursors, quiet);
  assert.deepEqual(snap.channels.map((r) => [r.kind, r.channel]), [['snapshot', S]]);
  for (const bad of [{ type: 'other' }, null, {}, [], 'replay', { channels: 'x' }, { type: 'replay' }, { type: 'snapshot', snapshots: {} }]) {
    assert.throws(() => normalizeReconnectResult(bad, cursors, quiet), UnusableReconnectResultError, JSON.stringify(bad));
  }
});

test('AhpClient.reconnect sends either request shape and recovers from HostCore; the connection is subscribed afterwards', async () => {
  const host = new HostCore({ log: quiet });
  host.createSession(S, state('s'));
  const connect = () => {
    const [c, s] = createInMemoryPair();
    attachTransport(host, s);
    return c;
  };
  const client = new AhpClient({ transport: connect(), clientId: 'me', log: quiet });
  await client.initialize({ initialSubscriptions: [S] });
  host.dispatchServerAction(S, { type: 'session/titleChanged', title: 'one' });
  client.close();
  host.dispatchServerAction(S, { type: 'session/titleChanged', title: 'two' });

  client.replaceTransport(connect());
  const live: number[] = [];
  client.onAction((e) => live.push(e.serverSeq));
  const outcome = await client.reconnect([{ channel: S, lastSeenServerSeq: 1 }]);
  assert.deepEqual(outcome.shape, 'per-channel');
  assert.deepEqual(outcome.channels[0]!.kind === 'replay' && outcome.channels[0]!.actions.map((e) => e.serverSeq), [2]);
  host.dispatchServerAction(S, { type: 'session/titleChanged', title: 'three' });
  await client.ping();
  assert.deepEqual(live, [3]);
  client.close();

  client.replaceTransport(connect());
  const legacy = await client.reconnect([{ channel: S, lastSeenServerSeq: 2 }], { shape: 'legacy' });
  assert.deepEqual(legacy.shape, 'legacy');
  assert.deepEqual(legacy.channels[0]!.kind === 'replay' && legacy.channels[0]!.actions.map((e) => e.serverSeq), [3]);
  client.close();
});

test('replaceTransport keeps clientId, the clientSeq counter and every listener; refuses while still open', async () => {
  const [c1, s1] = createInMemoryPair();
  const client = new AhpClient({ transport: c1, clientId: 'me', log: quiet });
  assert.throws(() => client.replaceTransport(createInMemoryPair()[0]), /still open/);
  const got: string[] = [];
  client.onAction((e) => got.push(`action ${e.serverSeq}`));
  client.onNotification('root/sessionAdded', () => got.push('sessionAdded'));
  client.onRequest('resourceRead', () => ({ data: 'x', encoding: 'utf-8' }));
  const closes: (string | undefined)[] = [];
  client.onClose((r) => closes.push(r));
  assert.deepEqual([client.nextClientSeq(), client.nextClientSeq()], [1, 2]);
  s1.close();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(client.closed, true);

  const [c2, s2] = createInMemoryPair();
  const server = new JsonRpcPeer(s2, { log: quiet });
  client.replaceTransport(c2);
  assert.equal(client.closed, false);
  assert.equal(client.nextClientSeq(), 3, 'clientSeq never restarts');
  server.notify('action', env(S, 1));
  server.notify('root/sessionAdded', { channel: 'ahp-root://', summary: {} });
  assert.deepEqual(await server.request('resourceRead', { channel: 'ahp-root://', uri: 'file:///x' }), { data: 'x', encoding: 'utf-8' });
  assert.deepEqual(got, ['action 1', 'sessionAdded']);
  client.close();
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(closes, ['closed by peer', 'closed by client']);
});

test('malformed frames are logged and skipped, the connection survives; unhandled server requests get -32601', async () => {
  const [clientSide, serverSide] = createInMemoryPair();
  const logged: string[] = [];
  const client = new AhpClient({ transport: clientSide, clientId: 'me', log: (m) => logged.push(m) });
  const envelopes: ActionEnvelope[] = [];
  client.onAction((e) => envelopes.push(e));
  const fromClient: unknown[] = [];
  serverSide.onmessage = (m) => fromClient.push(m);
  const raw = (msg: unknown) => (serverSide as Transport).send(msg as never);
  for (const junk of [null, 42, 'text', [1], { jsonrpc: '1.0', method: 'x' }, { jsonrpc: '2.0' }, { jsonrpc: '2.0', id: 99, result: 1 }]) raw(junk);
  raw({ jsonrpc: '2.0', method: 'action', params: { channel: S } }); // malformed envelope
  raw({ jsonrpc: '2.0', method: 'action', params: env(S, 1) });
  raw({ jsonrpc: '2.0', id: 7, method: 'resourceList', params: { channel: 'ahp-root://', uri: 'file:///' } });
  raw({ jsonrpc: '2.0', id: 8, method: 'createResourceWatch', params: { channel: 'ahp-root://' } });
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(envelopes.map((e) => e.serverSeq), [1], 'the good envelope after the junk still arrives');
  assert.ok(logged.length >= 8, `junk is logged (${logged.length})`);
  assert.deepEqual(
    fromClient.map((m) => [(m as { id: number }).id, (m as { error: { code: number } }).error.code]),
    [
      [7, -32601],
      [8, -32601],
    ],
  );
  assert.equal(client.closed, false);
  client.close();
});

test('listSessions passes summaries through and keeps nextCursor; hosts without it reject with -32601', async () => {
  const [c, s] = createInMemoryPair();
  const server = new JsonRpcPeer(s, { log: quiet });
  const params: unknown[] = [];
  server.onRequest('listSessions', (p) => {
    params.push(p);
    return { items: [{ resource: S, title: 'S' }, { bogus: 1 }], nextCursor: 'n' };
  });
  const client = new AhpClient({ transport: c, log: quiet });
  assert.deepEqual(await client.listSessions({ limit: 5 }), { items: [{ resource: S, title: 'S' }], nextCursor: 'n' });
  assert.deepEqual(params, [{ limit: 5, channel: 'ahp-root://' }]);
  client.close();

  // A host that does not implement listSessions (a JSON-RPC peer with no handler for it) answers -32601.
  const [c2, s2] = createInMemoryPair();
  new JsonRpcPeer(s2, { log: quiet });
  const plain = new AhpClient({ transport: c2, log: quiet });
  await assert.rejects(plain.listSessions(), (err: unknown) => err instanceof RpcError && err.code === -32601);
  plain.close();
});

test('backoffDelay grows exponentially, is capped, and jitter only shortens it', () => {
  const noJitter = { initialDelayMs: 250, maxDelayMs: 5000, random: () => 1, jitter: 0 };
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 50].map((a) => backoffDelay(a, noJitter)), [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
  assert.equal(backoffDelay(3, { random: () => 0.999999 }), 500, 'jitter 0.5 by default: down to half');
  assert.equal(backoffDelay(3, { random: () => 0 }), 1000);
  for (let i = 0; i < 200; i++) {
    const d = backoffDelay(1 + (i % 10));
    assert.ok(d >= 125 && d <= 5000, String(d));
  }
  assert.equal(backoffDelay(2, { initialDelayMs: 10, factor: 3, jitter: 0 }), 30);
  assert.equal(backoffDelay(2, { initialDelayMs: 100, maxDelayMs: 50, jitter: 0 }), 100, 'max never below initial');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostCore } from '../../src/host.js';
import type { ActionEnvelope, ChannelRecovery, McpServerCustomization, SessionState, Snapshot } from '../../src/protocol/index.js';
import { mcpServer, rawConnection, sessionState, type Msg } from './fixtures/host.js';

const A = 'ahp-session:/a';
const B = 'ahp-session:/b';
const GONE = 'ahp-session:/gone';

function state(title: string): SessionState {
  const server = mcpServer('srv', { name: 'Server', channel: 'mcp://srv', mcpApp: { capabilities: { serverTools: {} } } });
  return sessionState({ title, customizations: [server] });
}

function open(host: HostCore) {
  const { conn, sent, request } = rawConnection(host);
  const notifications = () => sent.filter((m) => m.method === 'action').map((m) => m.params as ActionEnvelope);
  return { conn, sent, request, notifications };
}

function hostWithHistory(options: { actionLogLimit?: number } = {}) {
  const host = new HostCore({ log: () => {}, ...options });
  host.createSession(A, state('a0'));
  host.createSession(B, state('b0'));
  const first = open(host);
  const init = first.request('initialize', { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'me', capabilities: { mcpApps: {} }, initialSubscriptions: [A, B] });
  assert.equal((init.result as { snapshots: Snapshot[] }).snapshots.length, 2);
  // 1:A 2:B 3:A 4:A 5:B
  for (const [ch, t] of [[A, 'a1'], [B, 'b1'], [A, 'a2'], [A, 'a3'], [B, 'b2']] as const) host.dispatchServerAction(ch, { type: 'session/titleChanged', title: t });
  first.conn.closed();
  return host;
}

const recoveries = (m: Msg) => (m.result as { channels: ChannelRecovery[] }).channels;

test('per-channel reconnect replays each channel from its own cursor, only that channel, ascending', () => {
  const host = hostWithHistory();
  const c = open(host);
  const answer = c.request('reconnect', {
    channel: 'ahp-root://',
    clientId: 'me',
    subscriptions: [
      { channel: A, lastSeenServerSeq: 1 },
      { channel: B, lastSeenServerSeq: 5 },
    ],
  });
  const [a, b] = recoveries(answer);
  assert.equal(a!.kind, 'replay');
  assert.deepEqual(a!.kind === 'replay' && a!.actions.map((e) => [e.channel, e.serverSeq]), [[A, 3], [A, 4]]);
  assert.deepEqual(b, { kind: 'replay', channel: B, actions: [] });
  // The connection is initialized and subscribed to both channels.
  host.dispatchServerAction(B, { type: 'session/titleChanged', title: 'b3' });
  assert.deepEqual(c.notifications().map((e) => [e.channel, e.serverSeq]), [[B, 6]]);
  assert.equal(c.request('ping', { channel: 'ahp-root://' }).result, null);
  assert.equal(c.request('x-anything', {}).error?.code, -32601, 'initialized: ordinary method routing');
});

test('per-channel reconnect sends a snapshot when the gap is too large, and missing for unknown channels', () => {
  const host = hostWithHistory({ actionLogLimit: 2 });
  const c = open(host);
  const answer = c.request('reconnect', {
    channel: 'ahp-root://',
    clientId: 'me',
    subscriptions: [
      { channel: A, lastSeenServerSeq: 1 }, // the log evicted only 1 itself: 3 and 4 remain
      { channel: B, lastSeenServerSeq: 0 }, // no baseline
      { channel: GONE, lastSeenServerSeq: 3 },
    ],
  });
  const [a, b, gone] = recoveries(answer);
  assert.equal(a!.kind, 'replay', 'the log still holds everything after 1');
  assert.equal(b!.kind, 'snapshot');
  assert.deepEqual(b!.kind === 'snapshot' && [b!.snapshot.resource, b!.snapshot.fromSeq, (b!.snapshot.state as SessionState).title], [B, 5, 'b2']);
  assert.deepEqual(gone, { kind: 'missing', channel: GONE });

  for (let i = 0; i < 5; i++) host.dispatchServerAction(A, { type: 'session/titleChanged', title: `x${i}` });
  const later = open(host);
  const [a2] = recoveries(later.request('reconnect', { channel: 'ahp-root://', clientId: 'me', subscriptions: [{ channel: A, lastSeenServerSeq: 4 }] }));
  assert.equal(a2!.kind, 'snapshot', 'the log no longer reaches back to 4');
  assert.equal(a2!.kind === 'snapshot' && (a2!.snapshot.state as SessionState).title, 'x4');
  const [a3] = recoveries(open(host).request('reconnect', { channel: 'ahp-root://', clientId: 'me', subscriptions: [{ channel: A, lastSeenServerSeq: 999 }] }));
  assert.equal(a3!.kind, 'snapshot', 'a cursor from the future (host restarted) gets a snapshot');
});

test('a channel missing on reconnect is not subscribed; snapshot and replay channels are', () => {
  const host = hostWithHistory({ actionLogLimit: 1 });
  const c = open(host);
  c.request('reconnect', { channel: 'ahp-root://', clientId: 'me', subscriptions: [{ channel: A, lastSeenServerSeq: 1 }, { channel: GONE, lastSeenServerSeq: 1 }] });
  host.createSession(GONE, state('late'));
  host.dispatchServerAction(GONE, { type: 'session/titleChanged', title: 'unseen' });
  host.dispatchServerAction(A, { type: 'session/titleChanged', title: 'seen' });
  assert.deepEqual(c.notifications().map((e) => e.channel), [A]);
});

test('legacy reconnect: one merged replay with missing, or snapshots of all when any channel cannot replay', () => {
  const host = hostWithHistory({ actionLogLimit: 2 });
  const c = open(host);
  const replay = c.request('reconnect', { channel: 'ahp-root://', clientId: 'me', lastSeenServerSeq: 2, subscriptions: [A, B, GONE] }).result as {
    type: string;
    actions: ActionEnvelope[];
    missing: string[];
  };
  assert.equal(replay.type, 'replay');
  assert.deepEqual(replay.actions.map((e) => [e.channel, e.serverSeq]), [[A, 3], [A, 4], [B, 5]]);
  assert.deepEqual(replay.missing, [GONE]);

  const tight = hostWithHistory({ actionLogLimit: 1 }); // A keeps only 4, B only 5
  const d = open(tight);
  const snap = d.request('reconnect', { channel: 'ahp-root://', clientId: 'me', lastSeenServerSeq: 2, subscriptions: [A, B, GONE] }).result as {
    type: string;
    snapshots: Snapshot[];
  };
  assert.equal(snap.type, 'snapshot', "A's log no longer reaches back to 2");
  assert.deepEqual(snap.snapshots.map((s) => [s.resource, s.fromSeq, (s.state as SessionState).title]), [[A, 5, 'a3'], [B, 5, 'b2']]);
  tight.dispatchServerAction(B, { type: 'session/titleChanged', title: 'live' });
  assert.deepEqual(d.notifications().map((e) => e.channel), [B], 'legacy reconnect subscribes the known channels');
});

test('reconnect keeps the capabilities the clientId negotiated; mcpApps fields stay stripped for plain clients', () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(A, state('a0'));
  const plain = open(host);
  plain.request('initialize', { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'plain', initialSubscriptions: [A] });
  plain.conn.closed();
  host.dispatchServerAction(A, { type: 'session/mcpServerStateChanged', id: 'srv', state: { kind: 'ready' }, channel: 'mcp://moved' });
  const again = open(host);
  const [r] = recoveries(again.request('reconnect', { channel: 'ahp-root://', clientId: 'plain', subscriptions: [{ channel: A, lastSeenServerSeq: 0 }, { channel: A, lastSeenServerSeq: 0 }] }));
  const server = (r!.kind === 'snapshot' && (r!.snapshot.state as SessionState).customizations![0]) as McpServerCustomization;
  assert.equal('channel' in server || 'mcpApp' in server, false);
  const third = open(host);
  const [replay] = recoveries(third.request('reconnect', { channel: 'ahp-root://', clientId: 'plain', subscriptions: [{ channel: A, lastSeenServerSeq: 0.5 }] }));
  assert.ok(replay!.kind === 'replay');
  assert.equal('channel' in replay!.actions[0]!.action, false, 'replayed envelopes are stripped too');
});

test('reconnect errors: unknown clientId is -32600, bad params -32602, after initialize -32600', () => {
  const host = hostWithHistory();
  assert.equal(open(host).request('reconnect', { channel: 'ahp-root://', clientId: 'stranger', subscriptions: [] }).error?.code, -32600);
  assert.match(open(host).request('reconnect', { channel: 'ahp-root://', clientId: 'stranger', subscriptions: [] }).error!.message, /initialize/);
  for (const bad of [
    null,
    { clientId: 'me' },
    { clientId: '', subscriptions: [] },
    { clientId: 'me', subscriptions: [{ channel: A }] },
    { clientId: 'me', subscriptions: [A] }, // legacy without lastSeenServerSeq
    { clientId: 'me', subscriptions: [A, { channel: B, lastSeenServerSeq: 1 }], lastSeenServerSeq: 1 },
  ]) {
    assert.equal(open(host).request('reconnect', bad).error?.code, -32602, JSON.stringify(bad));
  }
  const c = open(host);
  c.request('initialize', { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'me' });
  assert.equal(c.request('reconnect', { channel: 'ahp-root://', clientId: 'me', subscriptions: [] }).error?.code, -32600);
  const d = open(host);
  assert.deepEqual(d.request('reconnect', { channel: 'ahp-root://', clientId: 'me', subscriptions: [] }).result, { channels: [] });
  assert.equal(d.request('initialize', { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'me' }).error?.code, -32600, 'reconnect counts as the handshake');
});

test('the host forgets the oldest clientIds beyond rememberedClients', () => {
  const host = new HostCore({ log: () => {}, rememberedClients: 2 });
  for (const id of ['c1', 'c2', 'c3']) open(host).request('initialize', { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: id });
  const codes = ['c1', 'c2', 'c3'].map((id) => open(host).request('reconnect', { channel: 'ahp-root://', clientId: id, subscriptions: [] }).error?.code ?? 'ok');
  assert.deepEqual(codes, [-32600, 'ok', 'ok']);
});

test('reconnect answers what became of the pending clientSeqs it is asked about (ahp-elements _meta extension), in both shapes', () => {
  const host = new HostCore({ log: () => {}, actionLogLimit: 1 });
  host.createSession(A, state('a0'));
  const first = open(host);
  first.request('initialize', { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'me', initialSubscriptions: [A] });
  const dispatch = (clientSeq: number, channel: string, action: Record<string, unknown>) =>
    first.conn.receive({ jsonrpc: '2.0', method: 'dispatchAction', params: { channel, clientSeq, action } });
  dispatch(1, A, { type: 'session/titleChanged', title: 'mine' });
  dispatch(2, A, { type: 'session/ready' }); // not client-dispatchable: rejected
  dispatch(3, GONE, { type: 'session/titleChanged', title: 'nowhere' }); // unknown channel: no echo at all
  first.conn.closed();
  for (let i = 0; i < 3; i++) host.dispatchServerAction(A, { type: 'session/titleChanged', title: `server ${i}` });

  const asked = { _meta: { 'ahp-elements/pendingClientSeqs': [3, 1, 2, 4, 1, 'x', -1, 2.5] } };
  const answer = open(host).request('reconnect', { channel: 'ahp-root://', clientId: 'me', subscriptions: [{ channel: A, lastSeenServerSeq: 1 }], ...asked });
  const result = answer.result as { channels: ChannelRecovery[]; _meta: Record<string, unknown> };
  assert.equal(result.channels[0]!.kind, 'snapshot', 'the log no longer reaches back: no echoes to see');
  assert.deepEqual(result._meta['ahp-elements/clientActionOutcomes'], [
    { clientSeq: 3, outcome: 'ignored', reason: `The host has no channel ${GONE}` },
    { clientSeq: 1, outcome: 'applied' },
    { clientSeq: 2, outcome: 'rejected', reason: "'session/ready' is not a client-dispatchable action" },
  ], 'one outcome per clientSeq the host handled, in the order asked; 4 (never received) and garbage left out');

  const legacy = open(host).request('reconnect', { channel: 'ahp-root://', clientId: 'me', lastSeenServerSeq: 1, subscriptions: [A], ...asked }).result as Record<string, unknown>;
  assert.equal(legacy.type, 'snapshot');
  assert.deepEqual((legacy._meta as Record<string, unknown[]>)['ahp-elements/clientActionOutcomes']!.map((o) => (o as { clientSeq: number }).clientSeq), [3, 1, 2]);

  const notAsked = open(host).request('reconnect', { channel: 'ahp-root://', clientId: 'me', subscriptions: [{ channel: A, lastSeenServerSeq: 1 }] }).result as Record<string, unknown>;
  assert.equal('_meta' in notAsked, false, 'nothing asked, nothing added: other clients see the plain AHP result');
  const otherClient = open(host);
  otherClient.request('initialize', { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'other' });
  otherClient.conn.closed();
  const foreign = open(host).request('reconnect', { channel: 'ahp-root://', clientId: 'other', subscriptions: [], ...asked }).result as Record<string, unknown>;
  assert.deepEqual(foreign._meta, { 'ahp-elements/clientActionOutcomes': [] }, "another client's clientSeqs are not answered");
});

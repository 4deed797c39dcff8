// The root channel over a real WebSocket: root state, listSessions, root/* notifications, root in
// initialSubscriptions, subscribe and reconnect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket } from 'ws';
import { AhpClient, RpcError, WebSocketTransport } from '../../src/client/index.js';
import { HostCore, attachWebSocket } from '../../src/host.js';
import { ROOT_CHANNEL, type ActionEnvelope, type RootState, type SessionState, type SessionSummary } from '../../src/protocol/index.js';
import { discoverSessions, pickDefaultSession, watchRoot } from '../../src/discovery/root-catalog.js';
import { until as pollUntil } from './fixtures/host.js';

const A = 'ahp-session:/a';
const B = 'ahp-session:/b';
const quiet = () => {};
const session = (title: string): SessionState => ({ provider: 'play', title, status: 1, lifecycle: 'ready', activeClients: [], chats: [], workingDirectories: ['file:///w'] });
const agent = { provider: 'play', displayName: 'Playground agent', description: 'Runs the demo', models: [] };
const until = (cond: () => boolean, what: string) => pollUntil(cond, what, 5000);

async function serve(host: HostCore) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (socket) => attachWebSocket(host, socket));
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  const clients: AhpClient[] = [];
  const connect = async (clientId: string) => {
    const client = new AhpClient({ transport: await WebSocketTransport.connect(url, { WebSocket }), clientId, log: quiet });
    const notes: [string, Record<string, unknown>][] = [];
    for (const m of ['root/sessionAdded', 'root/sessionRemoved', 'root/sessionSummaryChanged']) client.onNotification(m, (p) => notes.push([m, p as Record<string, unknown>]));
    const envelopes: ActionEnvelope[] = [];
    client.onAction((e) => envelopes.push(e));
    clients.push(client);
    return { client, notes, envelopes };
  };
  const close = async () => {
    for (const c of clients) c.close();
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
  };
  return { url, connect, close };
}

let tick = 0;
const clock = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)).toISOString();

test('root in initialSubscriptions and subscribe: agents and the default session; listSessions lists summaries in creation order, paged', async () => {
  const host = new HostCore({ log: quiet, agents: [agent], defaultSession: B, now: clock });
  host.createSession(A, session('Alpha'));
  host.createSession(B, session('Beta'));
  const net = await serve(host);
  try {
    const { client } = await net.connect('c1');
    const init = await client.initialize({ initialSubscriptions: [ROOT_CHANNEL, A] });
    assert.deepEqual(init.snapshots.map((s) => s.resource), [ROOT_CHANNEL, A]);
    const root = init.snapshots[0]!.state as RootState;
    assert.deepEqual(root.agents, [agent]);
    assert.equal(root._meta?.defaultSession, B);
    assert.deepEqual((await client.subscribe(ROOT_CHANNEL)).snapshot?.state, root);

    const page = await client.listSessions();
    assert.deepEqual(page.items.map((s) => s.resource), [A, B]);
    const alpha = page.items[0] as unknown as SessionSummary;
    assert.equal(alpha.provider, 'play');
    assert.equal(alpha.title, 'Alpha');
    assert.equal(alpha.status, 1);
    assert.deepEqual(alpha.workingDirectories, ['file:///w']);
    assert.match(alpha.createdAt, /^2026-01-01T/);
    assert.equal(alpha.modifiedAt, alpha.createdAt);
    assert.equal(page.nextCursor, undefined);

    const first = await client.listSessions({ limit: 1 });
    assert.deepEqual(first.items.map((s) => s.resource), [A]);
    assert.equal(typeof first.nextCursor, 'string');
    const second = await client.listSessions({ limit: 1, cursor: first.nextCursor! });
    assert.deepEqual(second.items.map((s) => s.resource), [B]);
    assert.equal(second.nextCursor, undefined);
    for (const bad of [{ limit: 0 }, { limit: 1.5 }, { cursor: 'not-ours' }]) {
      await assert.rejects(client.listSessions(bad as never), (e: unknown) => e instanceof RpcError && e.code === -32602, JSON.stringify(bad));
    }
  } finally {
    await net.close();
  }
});

test('root/* notifications reach root subscribers only: sessionAdded, sessionSummaryChanged after a change, sessionRemoved on dispose', async () => {
  const host = new HostCore({ log: quiet, now: clock });
  host.createSession(A, session('Alpha'));
  const net = await serve(host);
  try {
    const watcher = await net.connect('watcher');
    await watcher.client.initialize({ initialSubscriptions: [ROOT_CHANNEL, A] });
    const other = await net.connect('other');
    await other.client.initialize({ initialSubscriptions: [A] });

    host.createSession(B, session('Beta'));
    await until(() => watcher.notes.length === 1, 'sessionAdded');
    assert.equal(watcher.notes[0]![0], 'root/sessionAdded');
    assert.equal(watcher.notes[0]![1].channel, ROOT_CHANNEL);
    assert.equal((watcher.notes[0]![1].summary as SessionSummary).resource, B);
    assert.equal((watcher.notes[0]![1].summary as SessionSummary).title, 'Beta');

    // A client's own session action changes what the catalogue shows.
    other.client.dispatch({ channel: A, clientSeq: other.client.nextClientSeq(), action: { type: 'session/titleChanged', title: 'Alpha 2' } });
    await until(() => watcher.notes.length === 2, 'sessionSummaryChanged');
    const [method, params] = watcher.notes[1]!;
    assert.equal(method, 'root/sessionSummaryChanged');
    assert.equal(params.session, A);
    const changes = params.changes as Record<string, unknown>;
    assert.equal(changes.title, 'Alpha 2');
    assert.equal(typeof changes.modifiedAt, 'string');
    assert.equal('resource' in changes || 'provider' in changes || 'createdAt' in changes, false, 'identity fields are never sent');
    // A change the catalogue does not show (customizations) sends nothing; a cleared field is sent as null.
    host.dispatchServerAction(A, { type: 'session/customizationsChanged', customizations: [] });
    host.dispatchServerAction(A, { type: 'session/activityChanged', activity: 'Reading' });
    host.dispatchServerAction(A, { type: 'session/activityChanged' });
    await until(() => watcher.notes.length === 4, 'activity set and cleared');
    assert.deepEqual(watcher.notes.slice(2).map(([, p]) => (p.changes as Record<string, unknown>).activity), ['Reading', null]);
    assert.equal((await watcher.client.listSessions()).items.find((s) => s.resource === A)?.title, 'Alpha 2');

    assert.equal(host.disposeSession(B), true);
    assert.equal(host.disposeSession(B), false);
    await until(() => watcher.notes.length === 5, 'sessionRemoved');
    assert.deepEqual(watcher.notes[4], ['root/sessionRemoved', { channel: ROOT_CHANNEL, session: B }]);
    assert.deepEqual((await watcher.client.listSessions()).items.map((s) => s.resource), [A]);
    await assert.rejects(watcher.client.subscribe(B), (e: unknown) => e instanceof RpcError && e.code === -32001);
    assert.deepEqual(other.notes, [], 'a connection not subscribed to the root gets no root notifications');
    // Unsubscribing stops them.
    watcher.client.unsubscribe(ROOT_CHANNEL);
    await watcher.client.ping();
    host.createSession('ahp-session:/c', session('Gamma'));
    await other.client.ping();
    await watcher.client.ping();
    assert.equal(watcher.notes.length, 5);
  } finally {
    await net.close();
  }
});

test('root actions: setAgents is sequenced on the root channel; reconnect replays it from the root cursor; client actions on root are refused', async () => {
  const host = new HostCore({ log: quiet, agents: [agent], now: clock });
  host.createSession(A, session('Alpha'));
  // A cursor of 0 means "no baseline" (a snapshot); give the host some history first.
  host.dispatchServerAction(A, { type: 'session/titleChanged', title: 'Alpha 1' });
  const net = await serve(host);
  try {
    const first = await net.connect('roamer');
    const init = await first.client.initialize({ initialSubscriptions: [ROOT_CHANNEL] });
    const cursor = init.snapshots[0]!.fromSeq;
    host.setAgents([agent, { ...agent, provider: 'other', displayName: 'Other' }]);
    await until(() => first.envelopes.length === 1, 'agentsChanged');
    assert.equal(first.envelopes[0]!.channel, ROOT_CHANNEL);
    assert.equal(first.envelopes[0]!.action.type, 'root/agentsChanged');
    first.client.dispatch({ channel: ROOT_CHANNEL, clientSeq: first.client.nextClientSeq(), action: { type: 'root/configChanged', config: { x: 1 } } as never });
    await until(() => first.envelopes.length === 2, 'the refusal');
    assert.match(first.envelopes[1]!.rejectionReason ?? '', /not a client-dispatchable|root channel/);
    first.client.close();

    const again = await net.connect('roamer');
    const outcome = await again.client.reconnect([{ channel: ROOT_CHANNEL, lastSeenServerSeq: cursor }]);
    const root = outcome.channels[0]!;
    assert.equal(root.kind, 'replay');
    assert.deepEqual(root.kind === 'replay' && root.actions.map((e) => e.action.type), ['root/agentsChanged', 'root/configChanged']);
    assert.deepEqual(host.getRootState().agents.map((a) => a.provider), ['play', 'other']);
    // After reconnect the connection is subscribed to the root again.
    host.createSession(B, session('Beta'));
    await until(() => again.notes.length === 1, 'sessionAdded after reconnect');
  } finally {
    await net.close();
  }
});

test('discoverSessions: the host default, else the only session, else none (a choice); watchRoot follows the root live', async () => {
  const withDefault = new HostCore({ log: quiet, defaultSession: B, now: clock });
  withDefault.createSession(A, session('Alpha'));
  withDefault.createSession(B, session('Beta'));
  const net = await serve(withDefault);
  try {
    const found = await discoverSessions({ url: net.url, WebSocket });
    assert.deepEqual(found.sessions.map((s) => s.resource), [A, B]);
    assert.equal(found.defaultSession, B);
    assert.equal(found.root?._meta?.defaultSession, B);
    // A default the host does not list is ignored; one session is the default; several without one are a choice.
    assert.equal(pickDefaultSession({ agents: [], _meta: { defaultSession: 'ahp-session:/gone' } }, found.sessions), undefined);
    assert.equal(pickDefaultSession({ agents: [] }, found.sessions.slice(0, 1)), A);
    assert.equal(pickDefaultSession(undefined, []), undefined);

    const { client } = await net.connect('watcher');
    await client.initialize();
    const watch = await watchRoot(client);
    const seen: string[][] = [];
    watch.subscribe((c) => seen.push(c.sessions.map((s) => `${s.resource}=${s.title}`)));
    withDefault.createSession('ahp-session:/c', session('Gamma'));
    withDefault.dispatchServerAction(A, { type: 'session/titleChanged', title: 'Alpha 2' });
    withDefault.disposeSession(B);
    withDefault.setAgents([agent]);
    await until(() => watch.getCatalog().root?.agents.length === 1, 'agentsChanged applied');
    assert.deepEqual(watch.getCatalog().sessions.map((s) => `${s.resource}=${s.title}`), [`${A}=Alpha 2`, 'ahp-session:/c=Gamma']);
    assert.equal(watch.getCatalog().defaultSession, undefined, 'the default session is gone and two remain: a choice');
    assert.equal(seen.length >= 3, true);
    watch.dispose();
  } finally {
    await net.close();
  }
});

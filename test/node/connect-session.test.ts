import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer, WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { connectSession, RpcError, UnsupportedProtocolVersionError, listMcpServers } from '../../src/index.js';
import { JsonRpcPeer } from '../../src/client/json-rpc-peer.js';
import { createInMemoryPair } from '../../src/testing.js';
import type { ActionFailure, ConnectionState, McpServerCustomization, SessionState } from '../../src/index.js';
import { HostCore, attachTransport, attachWebSocket } from '../../src/host.js';
import { until as pollUntil } from './fixtures/host.js';

const SESSION = 'ahp-session:/connect';

function fixtureState(): SessionState {
  const server: McpServerCustomization = { type: 'mcpServer', id: 'srv', uri: 'mcp-config:/srv', name: 'Server', state: { kind: 'ready' } };
  return { provider: 't', title: 't', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [server] };
}

const until = (cond: () => boolean, what: string) => pollUntil(cond, what, 5000);

const serverKind = (state: SessionState | undefined) => (state?.customizations?.[0] as McpServerCustomization | undefined)?.state.kind;

test('connectSession over a real WebSocket: snapshot, dispatch echoed into the store, host reacts, close', async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, fixtureState());
  // Like the playground: after a stop request, the host really stops the server and reports it. The report is sent
  // once the test has seen the echo: sent on a timer, a loaded machine delivered both before the test looked, and the
  // confirmed state went ready → error without the test ever seeing `stopped`.
  const stopRequests: string[] = [];
  host.afterClientAction(({ action, channel }) => {
    if (action.type === 'session/mcpServerStopRequested') stopRequests.push(channel);
  });
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (socket) => attachWebSocket(host, socket));
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  let opened: ReturnType<typeof connectSession> | undefined;
  try {
    const conn = (opened = connectSession({ url, session: SESSION, WebSocket, clientId: 'page' }));
    const states: ConnectionState['kind'][] = [conn.handle.getConnectionState().kind];
    conn.handle.subscribeConnection((s) => states.push(s.kind));
    assert.equal(conn.store.getState(), undefined);
    await conn.ready;
    assert.deepEqual(states, ['connecting', 'open']);
    assert.deepEqual(listMcpServers(conn.store.getState()!).map((e) => e.server.id), ['srv']);

    conn.store.dispatch({ type: 'session/mcpServerStopRequested', id: 'srv' });
    assert.equal(serverKind(conn.store.getState()), 'stopped', 'optimistic');
    assert.equal(serverKind(conn.store.getConfirmedState()), 'ready');
    await until(() => serverKind(conn.store.getConfirmedState()) === 'stopped', 'the echo');
    assert.equal(conn.store.getPendingCount(), 0);
    assert.deepEqual(stopRequests, [SESSION], 'the host applied the request once');
    host.dispatchServerAction(SESSION, { type: 'session/mcpServerStateChanged', id: 'srv', state: { kind: 'error', error: { errorType: 'exit', message: 'exited' } } });
    await until(() => serverKind(conn.store.getState()) === 'error', 'the server action');
    assert.equal(serverKind(host.getSessionState(SESSION)), 'error');

    conn.close();
    assert.deepEqual(conn.handle.getConnectionState(), { kind: 'closed', reason: 'closed by client' });
    const failures: ActionFailure[] = [];
    conn.store.onActionFailed((f) => failures.push(f));
    conn.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'srv' });
    assert.equal(failures[0]?.kind, 'dropped', 'dispatch after close fails at once');
  } finally {
    // A failed step must not leave the client reconnecting (the test process would never end).
    opened?.close();
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
  }
});

test('connectSession over an in-memory transport; the host hanging up shows closed with a reason', async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, fixtureState());
  const [clientSide, serverSide] = createInMemoryPair();
  attachTransport(host, serverSide);
  const conn = connectSession({ session: SESSION, transport: clientSide });
  await conn.ready;
  assert.equal(conn.handle.getConnectionState().kind, 'open');
  host.dispatchServerAction(SESSION, { type: 'session/titleChanged', title: 'live' });
  await until(() => conn.store.getState()?.title === 'live', 'server action');
  host.close();
  await until(() => conn.handle.getConnectionState().kind === 'closed', 'closed');
  assert.deepEqual(conn.handle.getConnectionState(), { kind: 'closed', reason: 'closed by peer' });
});

test('ready rejects with a clear error when the host supports none of the offered versions', async () => {
  const [clientSide, serverSide] = createInMemoryPair();
  const fakeHost = new JsonRpcPeer(serverSide, { log: () => {} });
  fakeHost.onRequest('initialize', () => {
    throw new RpcError(-32005, 'Unsupported', { supportedVersions: ['^2.0.0'] });
  });
  const conn = connectSession({ session: SESSION, transport: clientSide });
  await assert.rejects(conn.ready, (err: unknown) => err instanceof UnsupportedProtocolVersionError && /\^2\.0\.0/.test(err.message));
  const state = conn.handle.getConnectionState();
  assert.equal(state.kind, 'closed');
  assert.match((state as { reason?: string }).reason ?? '', /host supports \^2\.0\.0/);
});

test('ready rejects with -32001 for an unknown session', async () => {
  const host = new HostCore({ log: () => {} });
  const [clientSide, serverSide] = createInMemoryPair();
  attachTransport(host, serverSide);
  const conn = connectSession({ session: 'ahp-session:/missing', transport: clientSide });
  await assert.rejects(conn.ready, (err: unknown) => err instanceof RpcError && err.code === -32001);
  assert.equal(conn.handle.getConnectionState().kind, 'closed');
});

async function freePort(): Promise<number> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const { port } = wss.address() as AddressInfo;
  await new Promise<void>((r) => wss.close(() => r()));
  return port;
}

test('an unreachable host is retried with growing backoff, reported as reconnecting with the next attempt time, and given up with the reason', async () => {
  const url = `ws://127.0.0.1:${await freePort()}`;
  const conn = connectSession({ url, session: SESSION, WebSocket, reconnect: { initialDelayMs: 20, maxDelayMs: 80, jitter: 0, maxAttempts: 4 } });
  const states: ConnectionState[] = [];
  conn.handle.subscribeConnection((s) => states.push(s));
  const started = Date.now();
  await assert.rejects(conn.ready, /gave up reconnecting after 4 attempts: .*failed/);
  const waits = states.filter((s): s is Extract<ConnectionState, { kind: 'reconnecting' }> => s.kind === 'reconnecting');
  assert.deepEqual(waits.map((s) => s.attempt), [1, 2, 3, 4]);
  for (const s of waits) assert.ok(typeof s.nextAttemptAt === 'number' && s.nextAttemptAt >= started);
  // Never a tight loop: 20 + 40 + 80 + 80 ms of backoff at least.
  assert.ok(Date.now() - started >= 220, `gave up after ${Date.now() - started} ms`);
  const last = conn.handle.getConnectionState();
  assert.equal(last.kind, 'closed');
  assert.match((last as { reason?: string }).reason ?? '', /gave up reconnecting after 4 attempts: WebSocket connection to ws:\/\/127\.0\.0\.1:\d+ failed/);
});

test('a host that comes up after the first attempt failed is connected to: ready resolves, the session loads', async () => {
  const port = await freePort();
  const conn = connectSession({ url: `ws://127.0.0.1:${port}`, session: SESSION, WebSocket, reconnect: { initialDelayMs: 10, maxDelayMs: 50 } });
  let resolved = false;
  void conn.ready.then(() => (resolved = true));
  // Wait until the first attempt has failed and a retry is scheduled.
  await new Promise<void>((resolve) => {
    const off = conn.handle.subscribeConnection((s) => {
      if (s.kind === 'reconnecting') {
        off();
        resolve();
      }
    });
  });
  assert.equal(resolved, false);
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, fixtureState());
  const wss = new WebSocketServer({ port, host: '127.0.0.1' });
  wss.on('connection', (socket) => attachWebSocket(host, socket));
  try {
    await conn.ready;
    assert.equal(conn.handle.getConnectionState().kind, 'open');
    assert.equal(conn.store.getState()?.title, 't');
  } finally {
    conn.close();
    await new Promise<void>((r) => wss.close(() => r()));
  }
});

test('with reconnect off, ready rejects at once when the WebSocket cannot connect', async () => {
  const conn = connectSession({ url: `ws://127.0.0.1:${await freePort()}`, session: SESSION, WebSocket, reconnect: false });
  await assert.rejects(conn.ready, /failed/);
  const state = conn.handle.getConnectionState();
  assert.equal(state.kind, 'closed');
  assert.match((state as { reason?: string }).reason ?? '', /failed/);
});

test('connectSession without url or transport is a TypeError', () => {
  assert.throws(() => connectSession({ session: SESSION }), TypeError);
});

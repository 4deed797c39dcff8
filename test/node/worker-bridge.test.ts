// The whole worker path in Node: pages talk to one session worker API over MessageChannels with comlink
// (as they would over SharedWorker ports), the worker talks to a real HostCore over a real WebSocket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { expose } from 'comlink';
import { connectSession, type SessionConnection } from '../../src/connection/connect-session.js';
import { HostCore, attachWebSocket } from '../../src/host.js';
import type { AnyAction, McpServerCustomization, SessionState, ToolCallState } from '../../src/protocol/index.js';
import { createSessionWorkerApi } from '../../src/worker/session-worker.js';
import { connectSessionOverEndpoint } from '../../src/worker/worker-store.js';
import type { WorkerActionFailure } from '../../src/worker/worker-session-store.js';

const SESSION = 'ahp-session:/bridge';
const CHAT = 'ahp-chat:/bridge-chat';

const server = (id: string, kind: string): McpServerCustomization => ({ type: 'mcpServer', id, uri: `mcp-config:/${id}`, name: id, state: { kind } as McpServerCustomization['state'] });
const initial = (): SessionState => ({ provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [server('a', 'ready'), server('b', 'stopped')] });
const kind = (s: SessionState | undefined, id: string) => (s?.customizations?.find((c) => c.id === id) as McpServerCustomization | undefined)?.state.kind;

/** What a value looks like after the JSON wire (undefined-valued keys dropped). */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(cond(), `timed out waiting for ${what}`);
}

test('two pages share one worker connection: one WebSocket, same state, actions both ways, failures to the dispatcher only', { timeout: 10_000 }, async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, initial());
  host.onClientAction(({ action }) => (action.type === 'session/mcpServerStopRequested' ? 'stopping is not allowed here' : undefined));
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  let sockets = 0;
  let openSockets = 0;
  wss.on('connection', (socket) => {
    sockets++;
    openSockets++;
    socket.on('close', () => openSockets--);
    attachWebSocket(host, socket);
  });
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;

  const connections: SessionConnection[] = [];
  const api = createSessionWorkerApi({
    connect: (options) => {
      const conn = connectSession({ ...options, WebSocket });
      connections.push(conn);
      return conn;
    },
  });
  const channels = [new MessageChannel(), new MessageChannel()];
  for (const ch of channels) expose(api, ch.port2);
  const [p1, p2] = channels.map((ch) => connectSessionOverEndpoint(ch.port1, { url, session: SESSION })) as [
    ReturnType<typeof connectSessionOverEndpoint>,
    ReturnType<typeof connectSessionOverEndpoint>,
  ];

  try {
    await Promise.all([p1.ready, p2.ready]);
    assert.equal(sockets, 1, 'one WebSocket for both pages');
    assert.deepEqual(api.stats(), { connections: 1, attachments: 2 });
    assert.deepEqual(p1.store.getState(), host.getSessionState(SESSION));
    assert.deepEqual(p2.store.getState(), host.getSessionState(SESSION));
    await until(() => p1.handle.getConnectionState().kind === 'open' && p2.handle.getConnectionState().kind === 'open', 'open on both pages');

    const wakes: string[] = [];
    for (const id of ['a', 'b']) p2.store.subscribeMcpServer(id, () => wakes.push(id));
    const f1: WorkerActionFailure[] = [];
    const f2: WorkerActionFailure[] = [];
    p1.store.onActionFailed((f) => f1.push(f as WorkerActionFailure));
    p2.store.onActionFailed((f) => f2.push(f as WorkerActionFailure));

    assert.equal(p1.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'b' }), 1);
    assert.equal(kind(p1.store.getState(), 'b'), 'starting', 'optimistic on the dispatching page');
    await until(() => kind(p2.store.getState(), 'b') === 'starting', 'the other page to see it');
    await until(() => kind(host.getSessionState(SESSION), 'b') === 'starting', 'the host to apply it');
    assert.deepEqual(wakes, ['b']);

    // Rejected by the host: only the dispatching page hears about it, by its own id.
    const rejectedId = p2.store.dispatch({ type: 'session/mcpServerStopRequested', id: 'a' });
    assert.equal(kind(p2.store.getState(), 'a'), 'stopped');
    await until(() => f2.length === 1, 'the rejection');
    assert.equal(f2[0]!.kind, 'rejected');
    assert.equal(f2[0]!.clientSeq, rejectedId);
    assert.ok(f2[0]!.wireClientSeq > 1, `wire clientSeq continues the shared client's counter (${f2[0]!.wireClientSeq})`);
    assert.equal(f2[0]!.reason, 'stopping is not allowed here');
    assert.equal(kind(p2.store.getState(), 'a'), 'ready', 'rolled back');
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(f1, []);
    assert.equal(sockets, 1);

    // Chats: the page's watch reaches the host through the worker's connection; tool-call listeners wake per call.
    host.createChat(SESSION, CHAT, { initialMessage: { text: 'hi', origin: { kind: 'user' } } });
    const turnId = host.getChatState(CHAT)!.activeTurn!.id;
    const toolCallStart = (toolCallId: string) => ({ type: 'chat/toolCallStart', turnId, toolCallId, toolName: 'read', displayName: 'Read' }) as AnyAction;
    const seen: (ToolCallState | undefined)[] = [];
    const release = p1.store.watchChat(CHAT);
    p1.store.subscribeToolCall(CHAT, 'x', (tc) => seen.push(tc));
    await until(() => p1.store.getChatState(CHAT) !== undefined, 'the chat on the page');
    assert.deepEqual(p1.store.getChatState(CHAT), wire(host.getChatState(CHAT)));
    assert.equal(p2.store.getChatState(CHAT), undefined, 'the other page did not watch it');
    host.dispatchServerAction(CHAT, toolCallStart('x'));
    await until(() => seen.length === 1, 'the tool call on the page');
    assert.equal(seen[0]?.toolCallId, 'x');
    host.dispatchServerAction(CHAT, toolCallStart('y'));
    await until(() => JSON.stringify(p1.store.getChatState(CHAT)).includes('"toolCallId":"y"'), 'the second tool call');
    assert.equal(seen.length, 1, 'another tool call does not wake x');
    assert.deepEqual(p1.store.getChatState(CHAT), wire(host.getChatState(CHAT)));
    const workerStore = connections[0]!.store;
    assert.deepEqual(workerStore.getWatchedChats(), [CHAT]);
    release();
    await until(() => workerStore.getWatchedChats().length === 0, 'the worker to release the chat');
    assert.equal(p1.store.getChatState(CHAT), undefined);

    p1.close();
    await until(() => api.stats().attachments === 1, 'the first page to detach');
    assert.equal(openSockets, 1, 'the other page still uses the socket');
    p2.close();
    await until(() => api.stats().connections === 0, 'the worker to drop the connection');
    await until(() => openSockets === 0, 'the socket to close');
    assert.deepEqual(p2.handle.getConnectionState(), { kind: 'closed', reason: 'closed by client' });
  } finally {
    // Detaching releases the comlink callback ports, which would otherwise keep Node alive.
    p1.close();
    p2.close();
    for (let i = 0; i < 200 && api.stats().attachments > 0; i++) await new Promise((r) => setTimeout(r, 5));
    for (const c of connections) c.close();
    for (const ch of channels) {
      ch.port1.close();
      ch.port2.close();
    }
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
  }
});

test('a connect failure reaches every page as a rejected ready and a closed connection', { timeout: 10_000 }, async () => {
  const connections: SessionConnection[] = [];
  const api = createSessionWorkerApi({
    connect: (options) => {
      const conn = connectSession({ ...options, WebSocket, reconnect: false });
      connections.push(conn);
      return conn;
    },
  });
  const ch = new MessageChannel();
  expose(api, ch.port2);
  const conn = connectSessionOverEndpoint(ch.port1, { url: 'ws://127.0.0.1:1', session: SESSION });
  try {
    await assert.rejects(conn.ready);
    await until(() => conn.handle.getConnectionState().kind === 'closed', 'closed');
    assert.deepEqual(api.stats(), { connections: 1, attachments: 1 }, 'the failed connection stays until its page leaves');
    // A page that comes later is not handed the dead connection: it gets a new attempt.
    const later = connectSessionOverEndpoint(ch.port1, { url: 'ws://127.0.0.1:1', session: SESSION });
    await assert.rejects(later.ready);
    assert.equal(connections.length, 2);
    assert.deepEqual(api.stats(), { connections: 2, attachments: 2 });
    later.close();
    conn.close();
    await until(() => api.stats().attachments === 0, 'the page to detach');
    assert.deepEqual(api.stats(), { connections: 0, attachments: 0 });
  } finally {
    conn.close();
    for (let i = 0; i < 200 && api.stats().attachments > 0; i++) await new Promise((r) => setTimeout(r, 5));
    for (const c of connections) c.close();
    ch.port1.close();
    ch.port2.close();
  }
});

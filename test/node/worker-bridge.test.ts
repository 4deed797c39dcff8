// The whole worker path in Node: pages talk to one session worker API over MessageChannels with comlink
// (as they would over SharedWorker ports), the worker talks to a real HostCore over a real WebSocket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostCore } from '../../src/host.js';
import type { AnyAction, McpServerCustomization, SessionState, ToolCallState } from '../../src/protocol/index.js';
import { connectSessionOverEndpoint } from '../../src/worker/worker-store.js';
import type { WorkerActionFailure } from '../../src/worker/worker-session-store.js';
import { mcpServer, serveOverWebSocket, sessionState, until, workerPages } from './fixtures/host.js';

const SESSION = 'ahp-session:/bridge';
const CHAT = 'ahp-chat:/bridge-chat';

const server = (id: string, kind: string) => mcpServer(id, { state: { kind } as McpServerCustomization['state'] });
const initial = (): SessionState => sessionState({ provider: 'p', customizations: [server('a', 'ready'), server('b', 'stopped')] });
const kind = (s: SessionState | undefined, id: string) => (s?.customizations?.find((c) => c.id === id) as McpServerCustomization | undefined)?.state.kind;

/** What a value looks like after the JSON wire (undefined-valued keys dropped). */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

test('two pages share one worker connection: one WebSocket, same state, actions both ways, failures to the dispatcher only', { timeout: 10_000 }, async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, initial());
  host.onClientAction(({ action }) => (action.type === 'session/mcpServerStopRequested' ? 'stopping is not allowed here' : undefined));
  const ws = await serveOverWebSocket(host);
  const worker = workerPages(ws.url, SESSION, 2);
  const { api, connections } = worker;
  const [p1, p2] = worker.pages as [(typeof worker.pages)[0], (typeof worker.pages)[0]];

  try {
    await Promise.all([p1.ready, p2.ready]);
    assert.equal(ws.sockets(), 1, 'one WebSocket for both pages');
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
    assert.equal(ws.sockets(), 1);

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
    assert.equal(ws.openSockets(), 1, 'the other page still uses the socket');
    p2.close();
    await until(() => api.stats().connections === 0, 'the worker to drop the connection');
    await until(() => ws.openSockets() === 0, 'the socket to close');
    assert.deepEqual(p2.handle.getConnectionState(), { kind: 'closed', reason: 'closed by client' });
  } finally {
    await worker.close();
    await ws.close();
  }
});

test('a connect failure reaches every page as a rejected ready and a closed connection', { timeout: 10_000 }, async () => {
  const worker = workerPages('ws://127.0.0.1:1', SESSION, 1, { reconnect: false });
  const { api, connections } = worker;
  const conn = worker.pages[0]!;
  const ch = worker.channels[0]!;
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
    await worker.close();
  }
});

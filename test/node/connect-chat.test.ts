// connectSession + store.watchChat against the real HostCore serving chat channels (real ws socket and in-memory pair).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer, WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { connectSession, RpcError, type Transport } from '../../src/index.js';
import { createInMemoryPair } from '../../src/testing.js';
import type { ActionFailure, AnyAction, ChannelRecovery, ChatState, McpServerCustomization, SessionState, ToolCallState } from '../../src/index.js';
import { HostCore, attachTransport, attachWebSocket, type ChatCreatedContext } from '../../src/host.js';
import { SessionStatus } from '../../src/protocol/index.js';
import { until as pollUntil } from './fixtures/host.js';

const SESSION = 'ahp-session:/connect-chat';
const CHAT = 'ahp-chat:/lifecycle';
const T = 'turn-1';

function sessionState(): SessionState {
  const server: McpServerCustomization = { type: 'mcpServer', id: 'files', uri: 'mcp-config:/files', name: 'Files', state: { kind: 'ready' } };
  return { provider: 't', title: 't', status: SessionStatus.Idle, lifecycle: 'ready', activeClients: [], chats: [], customizations: [server] };
}

const until = (cond: () => boolean, what: string) => pollUntil(cond, what, 1000);
/** States travel as JSON: no undefined-valued keys. */
const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function toolCall(chat: ChatState | undefined, id: string): ToolCallState | undefined {
  for (const part of chat?.activeTurn?.responseParts ?? chat?.turns.at(-1)?.responseParts ?? []) {
    if (part.kind === 'toolCall' && part.toolCall.toolCallId === id) return part.toolCall;
  }
  return undefined;
}

/**
 * An "agent" on the host: a user turn starts an MCP tool call that asks for confirmation (once `inputDone`
 * resolves: its input streams until then), then completes once confirmed.
 */
function agent(host: HostCore, inputDone: Promise<void> = Promise.resolve()) {
  host.afterClientAction(({ channel, kind, action }) => {
    if (kind !== 'chat') return;
    const turnId = (action as { turnId?: string }).turnId!;
    const base = { turnId, toolCallId: 'read-1' };
    if (action.type === 'chat/turnStarted') {
      host.dispatchServerAction(channel, { type: 'chat/toolCallStart', ...base, toolName: 'read_file', displayName: 'Read file', contributor: { kind: 'mcp', customizationId: 'files' }, _meta: { ui: { resourceUri: 'ui://files/view' } } });
      host.dispatchServerAction(channel, { type: 'chat/toolCallDelta', ...base, content: '{"path":' });
      host.dispatchServerAction(channel, { type: 'chat/toolCallDelta', ...base, content: '"a.txt"}' });
      void inputDone.then(() =>
        host.dispatchServerAction(channel, {
          type: 'chat/toolCallReady',
          ...base,
          invocationMessage: 'Read a.txt',
          toolInput: '{"path":"a.txt"}',
          confirmationTitle: 'Allow reading a.txt?',
          options: [{ id: 'once', label: 'Allow once', kind: 'approve' }, { id: 'no', label: 'Deny', kind: 'deny' }],
        }),
      );
    } else if (action.type === 'chat/toolCallConfirmed') {
      setTimeout(() => {
        host.dispatchServerAction(channel, { type: 'chat/toolCallComplete', ...base, result: { success: true, pastTenseMessage: 'Read a.txt', content: [{ type: 'text', text: 'hello' }] } });
        host.dispatchServerAction(channel, { type: 'chat/delta', turnId, partId: 'answer', content: 'ignored: no such part' });
        host.dispatchServerAction(channel, { type: 'chat/responsePart', turnId, part: { kind: 'markdown', id: 'answer', content: 'It says hello' } });
        host.dispatchServerAction(channel, { type: 'chat/turnComplete', turnId, duration: 1500 });
      }, 5);
    }
  });
}

const turnStarted: AnyAction = { type: 'chat/turnStarted', turnId: T, startedAt: '2026-04-01T09:00:00.000Z', message: { text: 'What is in a.txt?', origin: { kind: 'user' } } };

test('a full MCP tool-call lifecycle reaches store.watchChat over a real WebSocket, and the catalog follows', async () => {
  const host = new HostCore({ log: () => {}, now: () => '2026-04-01T08:00:00.000Z' });
  host.createSession(SESSION, sessionState());
  host.createChat(SESSION, CHAT, { title: 'Files' });
  // The tool call's input streams until the page has seen it streaming (the client folds one socket read's
  // envelopes together, so a start and its ready sent at once would reach listeners as one change).
  let inputDone!: () => void;
  agent(host, new Promise<void>((resolve) => (inputDone = resolve)));
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (socket) => attachWebSocket(host, socket));
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  const conn = connectSession({ url, session: SESSION, WebSocket, clientId: 'page', reconnect: false });
  try {
    await conn.ready;
    assert.deepEqual(conn.store.getState()!.chats.map((c) => [c.resource, c.title]), [[CHAT, 'Files']], 'clients find chats in the session catalog');
    const release = conn.store.watchChat(CHAT);
    await until(() => conn.store.getChatState(CHAT) !== undefined, 'the chat snapshot');
    assert.deepEqual(conn.store.getChatState(CHAT), host.getChatState(CHAT));

    const seen: (string | undefined)[] = [];
    conn.store.subscribeToolCall(CHAT, 'read-1', (tc) => seen.push(tc?.status));
    const failures: ActionFailure[] = [];
    conn.store.onActionFailed((f) => failures.push(f));

    conn.store.dispatch(turnStarted, CHAT);
    assert.equal(conn.store.getChatState(CHAT)!.activeTurn?.id, T, 'optimistic turn');
    await until(() => seen.includes('streaming'), 'the tool call to stream');
    inputDone();
    await until(() => toolCall(conn.store.getChatState(CHAT), 'read-1')?.status === 'pending-confirmation', 'the tool call to wait for confirmation');
    const pending = toolCall(conn.store.getChatState(CHAT), 'read-1')!;
    assert.deepEqual(pending.contributor, { kind: 'mcp', customizationId: 'files' });
    assert.equal(pending.status === 'pending-confirmation' && pending.toolInput, '{"path":"a.txt"}');
    assert.equal(conn.store.getChatState(CHAT)!.status & SessionStatus.InputNeeded, SessionStatus.InputNeeded);
    await until(() => ((conn.store.getState()!.chats[0]?.status ?? 0) & SessionStatus.InputNeeded) === SessionStatus.InputNeeded, 'the catalog to show input needed');

    conn.store.dispatch({ type: 'chat/toolCallConfirmed', turnId: T, toolCallId: 'read-1', approved: true, confirmed: 'user-action', selectedOptionId: 'once' }, CHAT);
    assert.equal(toolCall(conn.store.getChatState(CHAT), 'read-1')!.status, 'running', 'optimistic confirmation');
    await until(() => conn.store.getChatState(CHAT)!.turns.length === 1 && host.getChatState(CHAT)!.turns.length === 1, 'the turn to complete');

    const done = toolCall(conn.store.getChatState(CHAT), 'read-1')!;
    assert.equal(done.status, 'completed');
    assert.equal(done.status === 'completed' && done.selectedOption?.id, 'once');
    assert.deepEqual(done._meta, { ui: { resourceUri: 'ui://files/view' } });
    assert.deepEqual(wire(conn.store.getChatState(CHAT)), wire(host.getChatState(CHAT)));
    assert.deepEqual(failures, []);
    assert.deepEqual(seen.filter((s, i) => s !== seen[i - 1]), ['streaming', 'pending-confirmation', 'running', 'completed']);

    await until(() => conn.store.getState()!.chats[0]!.modifiedAt === host.getChatState(CHAT)!.modifiedAt, 'the catalog to follow the chat');
    assert.deepEqual(wire(conn.store.getState()), wire(host.getSessionState(SESSION)));
    assert.equal(conn.store.getState()!.chats[0]!.modifiedAt, '2026-04-01T09:00:01.500Z');
    assert.equal(conn.store.getState()!.chats[0]!.status & SessionStatus.Idle, SessionStatus.Idle);
    release();
  } finally {
    conn.close();
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
  }
});

/** connectSession over in-memory pairs, with a `drop()` that kills the current connection from the host side. */
function inMemory(host: HostCore) {
  let current: Transport | undefined;
  /** Every `reconnect` answer the host sent. */
  const recoveries: ChannelRecovery[][] = [];
  const createTransport = async (): Promise<Transport> => {
    const [client, server] = createInMemoryPair();
    const send = server.send.bind(server);
    server.send = (msg) => {
      const result = (msg as { result?: { channels?: ChannelRecovery[] } }).result;
      if (result?.channels) recoveries.push(result.channels);
      send(msg);
    };
    attachTransport(host, server);
    current = server;
    return client;
  };
  return { createTransport, recoveries, drop: () => current?.close() };
}

test('a client creates a chat with the createChat command, watches it, and a refused action surfaces its reason', async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, sessionState());
  const created: ChatCreatedContext[] = [];
  host.afterCreateChat((ctx) => void created.push(ctx));
  const { createTransport } = inMemory(host);
  const conn = connectSession({ session: SESSION, createTransport, clientId: 'page', reconnect: false });
  await conn.ready;
  const chat = 'ahp-chat:/from-client';
  assert.equal(await conn.client.request('createChat', { channel: SESSION, chat, initialMessage: { text: 'Start here' } }), null);
  await assert.rejects(conn.client.request('createChat', { channel: SESSION, chat }), (err: unknown) => err instanceof RpcError && err.code === -32010);
  await assert.rejects(conn.client.request('createChat', { channel: 'ahp-session:/nope', chat: 'ahp-chat:/x' }), (err: unknown) => err instanceof RpcError && err.code === -32001);
  await until(() => conn.store.getState()!.chats.some((c) => c.resource === chat), 'the new chat in the catalog');
  assert.equal(created[0]?.clientId, 'page');

  const release = conn.store.watchChat(chat);
  await until(() => conn.store.getChatState(chat) !== undefined, 'the chat snapshot');
  const turnId = created[0]!.turnId!;
  assert.equal(conn.store.getChatState(chat)!.activeTurn?.id, turnId, 'the initial message started a turn');
  assert.equal(conn.store.getChatState(chat)!.activeTurn?.message.text, 'Start here');

  const failures: ActionFailure[] = [];
  conn.store.onActionFailed((f) => failures.push(f));
  // Dispatchable, but the tool call is not this client's to complete.
  host.dispatchServerAction(chat, { type: 'chat/toolCallStart', turnId, toolCallId: 'x', toolName: 'x', displayName: 'X', contributor: { kind: 'mcp', customizationId: 'files' } });
  host.dispatchServerAction(chat, { type: 'chat/toolCallReady', turnId, toolCallId: 'x', invocationMessage: 'x', confirmed: 'not-needed' });
  await until(() => toolCall(conn.store.getChatState(chat), 'x')?.status === 'running', 'the running tool call');
  conn.store.dispatch({ type: 'chat/toolCallComplete', turnId, toolCallId: 'x', result: { success: true, pastTenseMessage: 'done' } }, chat);
  assert.equal(toolCall(conn.store.getChatState(chat), 'x')?.status, 'completed', 'optimistic');
  await until(() => failures.length === 1, 'the rejection');
  assert.equal(failures[0]!.kind, 'rejected');
  assert.match(failures[0]!.reason, /not contributed by client 'page'/);
  assert.equal(toolCall(conn.store.getChatState(chat), 'x')?.status, 'running', 'rolled back');
  assert.deepEqual(wire(conn.store.getChatState(chat)), wire(host.getChatState(chat)));
  release();
  conn.close();
});

test('after a drop, a watched chat is recovered by replay from the host’s action log', async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, sessionState());
  host.createChat(SESSION, CHAT);
  const { createTransport, drop, recoveries } = inMemory(host);
  const conn = connectSession({ session: SESSION, createTransport, clientId: 'page', reconnect: { initialDelayMs: 60_000, jitter: 0 } });
  await conn.ready;
  const release = conn.store.watchChat(CHAT);
  await until(() => conn.store.getChatState(CHAT) !== undefined, 'the chat snapshot');
  conn.store.dispatch(turnStarted, CHAT);
  await until(() => host.getChatState(CHAT)!.activeTurn !== undefined && conn.store.getPendingCount() === 0, 'the echo');

  drop();
  await until(() => conn.handle.getConnectionState().kind === 'reconnecting', 'reconnecting');
  host.dispatchServerAction(CHAT, { type: 'chat/responsePart', turnId: T, part: { kind: 'markdown', id: 'p', content: 'while' } });
  host.dispatchServerAction(CHAT, { type: 'chat/delta', turnId: T, partId: 'p', content: ' away' });
  host.dispatchServerAction(CHAT, { type: 'chat/turnComplete', turnId: T, duration: 20 });
  const logged = host.actionsSince(CHAT, 0)!.map((e) => e.action.type);
  assert.ok(logged.includes('chat/turnStarted'), 'the log reaches back to what the page saw');
  assert.equal(conn.store.getChatState(CHAT)!.turns.length, 0, 'nothing arrived while down');
  conn.reconnectNow();

  await until(() => conn.handle.getConnectionState().kind === 'open' && conn.store.getChatState(CHAT)!.turns.length === 1, 'recovered chat');
  const turn = conn.store.getChatState(CHAT)!.turns[0]!;
  assert.deepEqual(turn.responseParts, [{ kind: 'markdown', id: 'p', content: 'while away' }], 'each replayed delta applied exactly once');
  assert.deepEqual(wire(conn.store.getChatState(CHAT)), wire(host.getChatState(CHAT)));
  assert.deepEqual(wire(conn.store.getState()), wire(host.getSessionState(SESSION)));
  const chatRecovery = recoveries[0]?.find((r) => r.channel === CHAT);
  assert.equal(chatRecovery?.kind, 'replay');
  assert.deepEqual(chatRecovery?.kind === 'replay' && chatRecovery.actions.map((e) => e.action.type), ['chat/responsePart', 'chat/delta', 'chat/turnComplete']);
  release();
  conn.close();
});

test('an action dispatched to a chat the client never watched is echoed back to it, so it settles without a timeout', async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, sessionState());
  agent(host);
  const chat = 'ahp-chat:/unwatched';
  host.createChat(SESSION, chat, { title: 'Elsewhere' });
  const { createTransport } = inMemory(host);
  const conn = connectSession({ session: SESSION, createTransport, clientId: 'session-only', reconnect: false, pendingTimeoutMs: 60_000 });
  await conn.ready;
  // Another client drives the chat to a pending confirmation; this page only watches the session.
  host.dispatchServerAction(chat, { type: 'chat/turnStarted', turnId: T, startedAt: '2026-01-01T00:00:00.000Z', message: { text: 'go', origin: { kind: 'user' } } });
  host.dispatchServerAction(chat, { type: 'chat/toolCallStart', turnId: T, toolCallId: 'c1', toolName: 'x', displayName: 'X', contributor: { kind: 'mcp', customizationId: 'files' } });
  host.dispatchServerAction(chat, { type: 'chat/toolCallReady', turnId: T, toolCallId: 'c1', invocationMessage: 'x' });
  const failures: ActionFailure[] = [];
  conn.store.onActionFailed((f) => failures.push(f));
  conn.store.dispatch({ type: 'chat/toolCallConfirmed', turnId: T, toolCallId: 'c1', approved: true, confirmed: 'user-action' }, chat);
  assert.equal(conn.store.getPendingCount(chat), 1);
  await until(() => conn.store.getPendingCount(chat) === 0, 'the echo to clear the pending action');
  assert.deepEqual(failures, []);
  assert.equal(toolCall(host.getChatState(chat), 'c1')?.status, 'running', 'the host applied it');
  assert.equal(conn.store.getChatState(chat), undefined, 'no state for a chat the client does not watch');
  conn.close();
});

// HostCore serving chat channels, driven over raw JSON-RPC messages (no client library in between).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostCore, type ChatCreatedContext } from '../../src/host.js';
import { SessionStatus } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers/index.js';
import type { ActionEnvelope, ChatState, ChatSummary, SessionState, Snapshot } from '../../src/protocol/index.js';
import { rawConnection, type Msg } from './fixtures/host.js';

const SESSION = 'ahp-session:/chat-host';
const CHAT = 'ahp-chat:/one';
const NOW = '2026-03-01T10:00:00.000Z';
const T = 'turn-1';

function session(): SessionState {
  return { provider: 't', title: 'S', status: SessionStatus.Idle, lifecycle: 'ready', activeClients: [], chats: [] };
}

function newHost(options: { actionLogLimit?: number } = {}) {
  const host = new HostCore({ log: () => {}, now: () => NOW, ...options });
  host.createSession(SESSION, session());
  return host;
}

/** One raw connection: requests are answered synchronously by the host, notifications are collected. */
function open(host: HostCore, clientId = 'me', subscribe: string[] = []) {
  const { conn, sent, request } = rawConnection(host);
  let seq = 0;
  const dispatch = (channel: string, action: Record<string, unknown>) => conn.receive({ jsonrpc: '2.0', method: 'dispatchAction', params: { channel, clientSeq: ++seq, action } });
  const envelopes = (channel?: string) =>
    sent.filter((m) => m.method === 'action').map((m) => m.params as ActionEnvelope).filter((e) => channel === undefined || e.channel === channel);
  const init = request('initialize', { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId, initialSubscriptions: subscribe });
  assert.ok(init.result, 'initialized');
  return { conn, sent, request, dispatch, envelopes };
}

const user = (text: string) => ({ text, origin: { kind: 'user' } });
const turnStarted = (turnId = T, startedAt = '2026-03-01T10:00:05.000Z') => ({ type: 'chat/turnStarted', turnId, startedAt, message: user('hello') });
const catalog = (host: HostCore) => host.getSessionState(SESSION)!.chats;

test('createChat (embedder) makes an Idle chat without turns and announces it with session/chatAdded', () => {
  const host = newHost();
  const c = open(host, 'me', [SESSION]);
  const state = host.createChat(SESSION, CHAT, { title: 'First' });
  assert.deepEqual(state, { resource: CHAT, title: 'First', status: SessionStatus.Idle, modifiedAt: NOW, turns: [] });
  assert.equal(host.getChatState(CHAT), state);
  const summary: ChatSummary = { resource: CHAT, title: 'First', status: SessionStatus.Idle, modifiedAt: NOW };
  assert.deepEqual(catalog(host), [summary]);
  assert.deepEqual(c.envelopes(), [{ channel: SESSION, action: { type: 'session/chatAdded', summary }, serverSeq: 1 }]);
  assert.equal(host.createChat(SESSION, 'ahp-chat:/two').title, 'New chat', 'default title');
  assert.equal(host.getSessionState(SESSION)!.chats.length, 2);
});

test('createChat (embedder) refuses unknown sessions, taken URIs and non-chat URIs with coded errors', () => {
  const host = newHost();
  host.createChat(SESSION, CHAT);
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as { code?: number }).code;
    }
    return 'no error';
  };
  assert.equal(code(() => host.createChat('ahp-session:/nope', 'ahp-chat:/x')), -32001);
  assert.equal(code(() => host.createChat(CHAT, 'ahp-chat:/x')), -32001, 'a chat is not a session');
  assert.equal(code(() => host.createChat(SESSION, CHAT)), -32010);
  assert.equal(code(() => host.createChat(SESSION, SESSION)), -32602);
  assert.equal(code(() => host.createChat(SESSION, 'ahp-session:/other')), -32602);
  assert.equal(catalog(host).length, 1);
});

test('the createChat command creates the client-chosen chat and answers null; errors are -32001, -32010, -32602', () => {
  const host = newHost();
  const created: ChatCreatedContext[] = [];
  host.afterCreateChat((ctx) => void created.push(ctx));
  const c = open(host, 'creator', [SESSION]);
  assert.deepEqual(c.request('createChat', { channel: SESSION, chat: CHAT }), { jsonrpc: '2.0', id: 2, result: null });
  assert.equal(host.getChatState(CHAT)?.status, SessionStatus.Idle);
  assert.deepEqual(catalog(host).map((s) => s.resource), [CHAT]);
  assert.equal(c.envelopes(SESSION)[0]!.action.type, 'session/chatAdded');
  assert.deepEqual(created.map((x) => [x.session, x.chat, x.clientId, x.turnId]), [[SESSION, CHAT, 'creator', undefined]]);

  assert.equal(c.request('createChat', { channel: 'ahp-session:/nope', chat: 'ahp-chat:/x' }).error?.code, -32001);
  assert.equal(c.request('createChat', { channel: SESSION, chat: CHAT }).error?.code, -32010);
  assert.equal(c.request('createChat', { channel: SESSION }).error?.code, -32602);
  assert.equal(c.request('createChat', { channel: SESSION, chat: 'not-a-chat:/x' }).error?.code, -32602);
  assert.equal(c.request('createChat', { channel: SESSION, chat: 'ahp-chat:/x', initialMessage: { text: 'hi', origin: { kind: 'agent' } } }).error?.code, -32602);
  assert.equal(c.request('createChat', { channel: SESSION, chat: 'ahp-chat:/x', initialMessage: 'hi' }).error?.code, -32602);
  assert.equal(c.request('createChat', { channel: SESSION, chat: 'ahp-chat:/x', source: { kind: 'fork', chat: CHAT, turnId: 't' } }).error?.code, -32602);
  assert.equal(host.getChatState('ahp-chat:/x'), undefined, 'nothing was created by a refused command');
  assert.equal(catalog(host).length, 1);
  assert.equal(created.length, 1);
});

test('createChat before initialize is refused', () => {
  const host = newHost();
  const sent: Msg[] = [];
  const conn = host.connect({ send: (m) => void sent.push(m as Msg), close: () => {} });
  conn.receive({ jsonrpc: '2.0', id: 1, method: 'createChat', params: { channel: SESSION, chat: CHAT } });
  assert.equal(sent[0]?.error?.code, -32600);
  assert.equal(host.getChatState(CHAT), undefined);
});

test('createChat with an initialMessage starts the first turn and mirrors the busy status into the catalog', () => {
  const host = newHost();
  const created: ChatCreatedContext[] = [];
  host.afterCreateChat((ctx) => void created.push(ctx));
  const c = open(host, 'creator', [SESSION]);
  const answer = c.request('createChat', { channel: SESSION, chat: CHAT, initialMessage: { text: 'Do it' }, workingDirectories: ['file:///w'] });
  assert.equal(answer.result, null);
  const chat = host.getChatState(CHAT)!;
  assert.equal(chat.activeTurn?.message.text, 'Do it');
  assert.equal(chat.activeTurn?.message.origin.kind, 'user', 'a missing origin becomes user');
  assert.equal(chat.status & SessionStatus.InProgress, SessionStatus.InProgress);
  assert.deepEqual(chat.workingDirectories, ['file:///w']);
  assert.equal(created[0]!.turnId, chat.activeTurn!.id);
  assert.equal(created[0]!.initialMessage?.text, 'Do it');
  const [added, updated] = c.envelopes(SESSION);
  assert.equal(added!.action.type, 'session/chatAdded');
  assert.deepEqual(updated!.action, { type: 'session/chatUpdated', chat: CHAT, changes: { status: chat.status } });
  assert.deepEqual(catalog(host)[0], { resource: CHAT, title: 'New chat', status: chat.status, modifiedAt: NOW, workingDirectories: ['file:///w'] });
});

test('subscribe to a chat returns its snapshot at the current serverSeq; unknown chats are -32001', () => {
  const host = newHost();
  host.createChat(SESSION, CHAT);
  host.dispatchServerAction(CHAT, turnStarted());
  const c = open(host);
  const answer = c.request('subscribe', { channel: CHAT });
  const snapshot = (answer.result as { snapshot: Snapshot<ChatState> }).snapshot;
  assert.equal(snapshot.resource, CHAT);
  assert.equal(snapshot.fromSeq, host.serverSeq);
  assert.deepEqual(snapshot.state, host.getChatState(CHAT));
  assert.equal(c.request('subscribe', { channel: 'ahp-chat:/nope' }).error?.code, -32001);
  const init = open(host, 'other', [CHAT, SESSION]).sent[0]!.result as { snapshots: Snapshot[] };
  assert.deepEqual(init.snapshots.map((s) => s.resource), [CHAT, SESSION], 'chats work as initialSubscriptions');
});

test('a client chat/turnStarted is applied and echoed with its origin, then the catalog follows with chatUpdated', () => {
  const host = newHost();
  host.createChat(SESSION, CHAT);
  const c = open(host, 'me', [SESSION, CHAT]);
  c.dispatch(CHAT, turnStarted());
  const [echo] = c.envelopes(CHAT);
  assert.deepEqual(echo, { channel: CHAT, action: turnStarted(), serverSeq: 2, origin: { clientId: 'me', clientSeq: 1 } });
  const chat = host.getChatState(CHAT)!;
  assert.equal(chat.activeTurn?.id, T);
  const updates = c.envelopes(SESSION).filter((e) => e.action.type === 'session/chatUpdated');
  assert.deepEqual(updates.map((e) => [e.serverSeq, e.action]), [
    [3, { type: 'session/chatUpdated', chat: CHAT, changes: { status: chat.status, modifiedAt: '2026-03-01T10:00:05.000Z' } }],
  ]);
  assert.equal(catalog(host)[0]!.status, chat.status);
  assert.equal(catalog(host)[0]!.modifiedAt, '2026-03-01T10:00:05.000Z');
});

test('non-dispatchable chat actions and invalid turn starts are echoed with a rejectionReason and not applied', () => {
  const host = newHost();
  host.createChat(SESSION, CHAT);
  const c = open(host, 'me', [CHAT]);
  c.dispatch(CHAT, turnStarted());
  const before = host.getChatState(CHAT);
  c.dispatch(CHAT, { type: 'chat/toolCallStart', turnId: T, toolCallId: 'tc', toolName: 'x', displayName: 'X' });
  c.dispatch(CHAT, { type: 'chat/delta', turnId: T, partId: 'p', content: 'x' });
  c.dispatch(CHAT, turnStarted('turn-2'));
  const rejected = c.envelopes(CHAT).slice(1);
  assert.equal(rejected.length, 3);
  assert.match(rejected[0]!.rejectionReason ?? '', /'chat\/toolCallStart' is not a client-dispatchable action/);
  assert.match(rejected[1]!.rejectionReason ?? '', /not a client-dispatchable/);
  assert.match(rejected[2]!.rejectionReason ?? '', /still in progress/);
  assert.deepEqual(rejected.map((e) => e.origin?.clientSeq), [2, 3, 4]);
  assert.equal(host.getChatState(CHAT), before);

  const other = newHost();
  other.createChat(SESSION, CHAT);
  const d = open(other, 'me', [CHAT]);
  d.dispatch(CHAT, { ...turnStarted(), message: { text: 'x', origin: { kind: 'agent' } } });
  assert.match(d.envelopes(CHAT)[0]!.rejectionReason ?? '', /origin\.kind 'user'/);
  assert.equal(other.getChatState(CHAT)!.activeTurn, undefined);
});

test('an action for an unknown chat is silently dropped', () => {
  const host = newHost();
  const c = open(host, 'me', [SESSION]);
  const seq = host.serverSeq;
  c.dispatch('ahp-chat:/nope', turnStarted());
  assert.equal(c.envelopes().length, 0);
  assert.equal(host.serverSeq, seq);
});

test('tool-call completion and content come only from the contributing client, except failing an auth-required call', () => {
  const host = newHost();
  host.createChat(SESSION, CHAT);
  host.dispatchServerAction(CHAT, turnStarted());
  const start = (toolCallId: string, contributor: Record<string, unknown>) => {
    host.dispatchServerAction(CHAT, { type: 'chat/toolCallStart', turnId: T, toolCallId, toolName: 'n', displayName: 'N', contributor });
    host.dispatchServerAction(CHAT, { type: 'chat/toolCallReady', turnId: T, toolCallId, invocationMessage: 'run', confirmed: 'not-needed' });
  };
  start('mine', { kind: 'client', clientId: 'me' });
  start('theirs', { kind: 'client', clientId: 'someone-else' });
  start('mcp', { kind: 'mcp', customizationId: 'srv' });
  host.dispatchServerAction(CHAT, { type: 'chat/toolCallAuthRequired', turnId: T, toolCallId: 'mcp', auth: { reason: 'required', resource: { resource: 'https://r' } } });
  const c = open(host, 'me', [CHAT]);
  const ok = { success: true, pastTenseMessage: 'done' };
  c.dispatch(CHAT, { type: 'chat/toolCallComplete', turnId: T, toolCallId: 'theirs', result: ok });
  c.dispatch(CHAT, { type: 'chat/toolCallContentChanged', turnId: T, toolCallId: 'theirs', content: [] });
  c.dispatch(CHAT, { type: 'chat/toolCallComplete', turnId: T, toolCallId: 'mcp', result: ok });
  c.dispatch(CHAT, { type: 'chat/toolCallComplete', turnId: T, toolCallId: 'ghost', result: ok });
  c.dispatch(CHAT, { type: 'chat/toolCallContentChanged', turnId: T, toolCallId: 'mine', content: [{ type: 'text', text: 'partial' }] });
  c.dispatch(CHAT, { type: 'chat/toolCallComplete', turnId: T, toolCallId: 'mine', result: ok });
  c.dispatch(CHAT, { type: 'chat/toolCallComplete', turnId: T, toolCallId: 'mcp', result: { success: false, pastTenseMessage: 'cancelled', error: { message: 'no', code: 'cancelled' } } });
  const reasons = c.envelopes(CHAT).map((e) => e.rejectionReason);
  assert.match(reasons[0] ?? '', /not contributed by client 'me'/);
  assert.match(reasons[1] ?? '', /not contributed by client 'me'/);
  assert.match(reasons[2] ?? '', /not contributed by client 'me'/, 'a successful completion of an MCP call is not the client’s');
  assert.match(reasons[3] ?? '', /no tool call 'ghost'/);
  assert.deepEqual(reasons.slice(4), [undefined, undefined, undefined]);
  const parts = host.getChatState(CHAT)!.activeTurn!.responseParts;
  const status = (id: string) => parts.map((p) => (p.kind === 'toolCall' ? p.toolCall : undefined)).find((tc) => tc?.toolCallId === id)?.status;
  assert.deepEqual([status('mine'), status('theirs'), status('mcp')], ['completed', 'running', 'completed']);
});

test('hooks see chat actions with their kind, owning session, session state and chat state; a guard can refuse them', () => {
  const host = newHost();
  host.createChat(SESSION, CHAT);
  const seen: unknown[] = [];
  host.onClientAction(({ kind, action }) => (kind === 'chat' && action.type === 'chat/turnCancelled' ? 'No cancelling here' : undefined));
  host.afterClientAction(({ channel, kind, session: owner, state, chatState, clientId }) => {
    seen.push([channel, kind, owner, clientId, state === host.getSessionState(SESSION), chatState === host.getChatState(CHAT) && chatState !== undefined]);
  });
  const c = open(host, 'me', [CHAT]);
  c.dispatch(CHAT, turnStarted());
  c.dispatch(CHAT, { type: 'chat/turnCancelled', turnId: T, duration: 1 });
  c.dispatch(SESSION, { type: 'session/titleChanged', title: 'x' });
  assert.equal(c.envelopes(CHAT)[1]!.rejectionReason, 'No cancelling here');
  assert.deepEqual(seen, [
    [CHAT, 'chat', SESSION, 'me', true, true],
    [SESSION, 'session', SESSION, 'me', true, false],
  ]);
});

test('server chat actions are broadcast to chat subscribers; activity set and cleared is mirrored (a cleared field re-adds the whole entry)', () => {
  const host = newHost();
  host.createChat(SESSION, CHAT, { title: 'A' });
  const c = open(host, 'me', [SESSION, CHAT]);
  host.dispatchServerAction(CHAT, { type: 'chat/activityChanged', activity: 'Thinking' });
  assert.deepEqual(c.envelopes(CHAT).map((e) => e.action), [{ type: 'chat/activityChanged', activity: 'Thinking' }]);
  assert.deepEqual(c.envelopes(SESSION).map((e) => e.action), [{ type: 'session/chatUpdated', chat: CHAT, changes: { activity: 'Thinking' } }]);
  assert.equal(catalog(host)[0]!.activity, 'Thinking');
  host.dispatchServerAction(CHAT, { type: 'chat/activityChanged' });
  const last = c.envelopes(SESSION).at(-1)!;
  assert.deepEqual(last.action, { type: 'session/chatAdded', summary: { resource: CHAT, title: 'A', status: SessionStatus.Idle, modifiedAt: NOW } });
  assert.equal('activity' in catalog(host)[0]!, false);
  assert.equal(catalog(host).length, 1);
  const count = c.envelopes(SESSION).length;
  host.dispatchServerAction(CHAT, { type: 'chat/usage', turnId: 'none', usage: {} });
  assert.equal(c.envelopes(SESSION).length, count, 'no-ops change nothing in the catalog');
  assert.throws(() => host.dispatchServerAction('ahp-chat:/nope', { type: 'chat/activityChanged' }), /Unknown channel/);
});

test('disposeChat removes the channel and its catalog entry; reconnect reports it missing', () => {
  const host = newHost();
  host.createChat(SESSION, CHAT);
  const c = open(host, 'me', [SESSION, CHAT]);
  assert.equal(host.disposeChat(CHAT), true);
  assert.equal(host.disposeChat(CHAT), false);
  assert.equal(host.getChatState(CHAT), undefined);
  assert.deepEqual(catalog(host), []);
  assert.deepEqual(c.envelopes(SESSION).at(-1)!.action, { type: 'session/chatRemoved', chat: CHAT });
  c.dispatch(CHAT, turnStarted());
  assert.equal(c.envelopes(CHAT).length, 0);
  c.conn.closed();
  const r = open(host, 'fresh').request('subscribe', { channel: CHAT });
  assert.equal(r.error?.code, -32001);
  const sent: Msg[] = [];
  const back = host.connect({ send: (m) => void sent.push(m as Msg), close: () => {} });
  back.receive({ jsonrpc: '2.0', id: 1, method: 'reconnect', params: { channel: 'ahp-root://', clientId: 'me', subscriptions: [{ channel: CHAT, lastSeenServerSeq: 1 }] } });
  assert.deepEqual((sent[0]!.result as { channels: unknown[] }).channels, [{ kind: 'missing', channel: CHAT }]);
});

/** A client subscribed to the session and a chat sees some chat history, then drops. */
function chatHistory(options: { actionLogLimit?: number } = {}) {
  const host = newHost(options);
  host.createChat(SESSION, CHAT); // 1: session/chatAdded
  const first = open(host, 'me', [SESSION, CHAT]);
  first.dispatch(CHAT, turnStarted()); // 2: echo, 3: chatUpdated
  first.conn.closed();
  host.dispatchServerAction(CHAT, { type: 'chat/responsePart', turnId: T, part: { kind: 'markdown', id: 'p', content: 'Hi' } }); // 4
  host.dispatchServerAction(CHAT, { type: 'chat/delta', turnId: T, partId: 'p', content: ' there' }); // 5
  host.dispatchServerAction(CHAT, { type: 'chat/turnComplete', turnId: T, duration: 10 }); // 6 + 7: chatUpdated
  return host;
}

test('per-channel reconnect replays a chat channel from its own cursor', () => {
  const host = chatHistory();
  const sent: Msg[] = [];
  const conn = host.connect({ send: (m) => void sent.push(m as Msg), close: () => {} });
  conn.receive({ jsonrpc: '2.0', id: 1, method: 'reconnect', params: { channel: 'ahp-root://', clientId: 'me', subscriptions: [{ channel: SESSION, lastSeenServerSeq: 3 }, { channel: CHAT, lastSeenServerSeq: 2 }] } });
  const [s, ch] = (sent[0]!.result as { channels: { kind: string; channel: string; actions?: ActionEnvelope[] }[] }).channels;
  assert.deepEqual(s!.actions!.map((e) => [e.serverSeq, e.action.type]), [[7, 'session/chatUpdated']]);
  assert.equal(ch!.kind, 'replay');
  assert.deepEqual(ch!.actions!.map((e) => [e.serverSeq, e.action.type]), [[4, 'chat/responsePart'], [5, 'chat/delta'], [6, 'chat/turnComplete']]);
  let chat = { resource: CHAT, title: 'New chat', status: SessionStatus.Idle, modifiedAt: NOW, turns: [] } as ChatState;
  // Replaying onto what the client had reproduces the host's state.
  chat = chatReducer(chat, turnStarted());
  for (const e of ch!.actions!) chat = chatReducer(chat, e.action);
  assert.deepEqual(chat, host.getChatState(CHAT));
  // The connection is subscribed to the chat again.
  host.dispatchServerAction(CHAT, { type: 'chat/activityChanged', activity: 'x' });
  assert.equal(sent.filter((m) => m.method === 'action' && (m.params as ActionEnvelope).channel === CHAT).length, 1);
});

test('chat reconnect falls back to a snapshot when the log no longer reaches back; the legacy shape works for chats too', () => {
  const host = chatHistory({ actionLogLimit: 2 });
  const reconnect = (subscriptions: unknown, extra: Record<string, unknown> = {}) => {
    const sent: Msg[] = [];
    const conn = host.connect({ send: (m) => void sent.push(m as Msg), close: () => {} });
    conn.receive({ jsonrpc: '2.0', id: 1, method: 'reconnect', params: { channel: 'ahp-root://', clientId: 'me', subscriptions, ...extra } });
    conn.closed();
    return sent[0]!.result as Record<string, unknown>;
  };
  const perChannel = reconnect([{ channel: CHAT, lastSeenServerSeq: 2 }]) as { channels: { kind: string; snapshot?: Snapshot<ChatState> }[] };
  assert.equal(perChannel.channels[0]!.kind, 'snapshot');
  assert.deepEqual(perChannel.channels[0]!.snapshot!.state, host.getChatState(CHAT));
  assert.equal(perChannel.channels[0]!.snapshot!.fromSeq, host.serverSeq);
  const recent = reconnect([{ channel: CHAT, lastSeenServerSeq: 5 }]) as { channels: { kind: string; actions?: ActionEnvelope[] }[] };
  assert.deepEqual(recent.channels[0]!.actions!.map((e) => e.serverSeq), [6]);
  const legacy = reconnect([CHAT, SESSION], { lastSeenServerSeq: 5 }) as { type: string; actions: ActionEnvelope[] };
  assert.equal(legacy.type, 'replay');
  assert.deepEqual(legacy.actions.map((e) => [e.channel, e.serverSeq]), [[CHAT, 6], [SESSION, 7]]);
  const legacyOld = reconnect([CHAT], { lastSeenServerSeq: 1 }) as { type: string; snapshots: Snapshot[] };
  assert.equal(legacyOld.type, 'snapshot');
  assert.deepEqual(legacyOld.snapshots.map((s) => s.resource), [CHAT]);
});

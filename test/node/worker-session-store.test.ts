import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AnyAction, ChatState, McpServerCustomization, SessionState, ToolCallState } from '../../src/protocol/index.js';
import { chatReducer, sessionReducer } from '../../src/reducers/index.js';
import { selectToolCall } from '../../src/store/index.js';
import { WorkerSessionStore, type WorkerActionFailure } from '../../src/worker/worker-session-store.js';
import type { WorkerEvent } from '../../src/worker/worker-messages.js';
import { diffState } from '../../src/worker/state-patch.js';

const SESSION = 'ahp-session:/w';
const CHAT = 'ahp-chat:/c1';
const T = 't1';

const server = (id: string, kind = 'ready'): McpServerCustomization => ({ type: 'mcpServer', id, uri: `mcp-config:/${id}`, name: id, state: { kind } as McpServerCustomization['state'] });
const sessionState = (): SessionState => ({
  provider: 'p',
  title: 'T',
  status: 1,
  lifecycle: 'ready',
  activeClients: [],
  chats: [],
  customizations: [server('a'), server('b', 'stopped'), { type: 'plugin', id: 'p', uri: 'plugin:/p', name: 'P', children: [server('c')] }],
});

function chatState(): ChatState {
  let s: ChatState = { resource: CHAT, title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] };
  const steps: AnyAction[] = [
    { type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T00:00:00.000Z', message: { text: 'hi', origin: { kind: 'user' } } },
    { type: 'chat/toolCallStart', turnId: T, toolCallId: 'x', toolName: 'write', displayName: 'Write' },
    { type: 'chat/toolCallReady', turnId: T, toolCallId: 'x', invocationMessage: 'Write it', toolInput: '{}', options: [{ id: 'ok', label: 'Allow', kind: 'approve' }] },
    { type: 'chat/toolCallStart', turnId: T, toolCallId: 'y', toolName: 'read', displayName: 'Read' },
  ];
  for (const a of steps) s = chatReducer(s, a);
  return s;
}

/** The worker side of a test: what its store would send, always as a fresh structured clone. */
function setup() {
  const calls: unknown[][] = [];
  let throwOnDispatch = false;
  const store = new WorkerSessionStore({
    channel: SESSION,
    bridge: {
      dispatch: (...args) => {
        if (throwOnDispatch) throw new Error('port closed');
        calls.push(['dispatch', ...args]);
      },
      watchChat: (uri) => void calls.push(['watchChat', uri]),
      releaseChat: (uri) => void calls.push(['releaseChat', uri]),
      resync: () => void calls.push(['resync']),
    },
  });
  const failures: WorkerActionFailure[] = [];
  store.onActionFailed((f) => failures.push(f));
  const wakes: string[] = [];
  store.subscribe(() => wakes.push('session'));
  for (const id of ['a', 'b', 'c']) store.subscribeMcpServer(id, () => wakes.push(id));
  const send = (...events: WorkerEvent[]) => store.receive(structuredClone(events));
  return { store, calls, failures, wakes, send, breakBridge: () => void (throwOnDispatch = true) };
}

const kind = (s: SessionState | undefined, id: string) => {
  for (const c of s?.customizations ?? []) for (const x of [c, ...((c as { children?: McpServerCustomization[] }).children ?? [])]) if (x.id === id) return (x as McpServerCustomization).state.kind;
  return undefined;
};

describe('WorkerSessionStore: mirror of the worker store', () => {
  it('starts empty, then follows state events (connection events are for the handle)', () => {
    const { store, wakes, send } = setup();
    assert.equal(store.getState(), undefined);
    send({ type: 'state', state: sessionState() }, { type: 'connection', state: { kind: 'open' } });
    assert.deepEqual(store.getState(), sessionState());
    assert.equal('getConnectionState' in store, false);
    assert.deepEqual(wakes, ['session', 'a', 'b', 'c']);
  });

  it('applies patches: only the changed server wakes, untouched objects keep their identity; a patch that does not fit asks for a resync', () => {
    const { store, wakes, send, calls } = setup();
    const s0 = sessionState();
    send({ type: 'state', state: s0 });
    wakes.length = 0;
    const before = store.getState()!;
    const s1 = sessionReducer(s0, { type: 'session/mcpServerStateChanged', id: 'c', state: { kind: 'error', error: { errorType: 'exit', message: 'x' } } } as AnyAction);
    send({ type: 'patch', ops: diffState(s0, s1)! });
    assert.deepEqual(store.getState(), s1);
    assert.deepEqual(wakes, ['session', 'c']);
    assert.equal(store.getState()!.customizations![0], before.customizations![0], 'server a keeps its object');
    send({ type: 'patch', ops: [['a', ['customizations', 0, 'state'], [1]]] });
    assert.deepEqual(calls.filter((c) => c[0] === 'resync'), [['resync']]);
    assert.deepEqual(store.getState(), s1, 'the view is left as it was');
  });

  it('wakes nobody for a deep-equal clone and only the changed server otherwise', () => {
    const { store, wakes, send } = setup();
    send({ type: 'state', state: sessionState() });
    wakes.length = 0;
    const before = store.getState();
    send({ type: 'state', state: sessionState() });
    assert.equal(store.getState(), before, 'same identity after an equal clone');
    assert.deepEqual(wakes, []);

    send({ type: 'state', state: sessionReducer(sessionState(), { type: 'session/mcpServerStateChanged', id: 'c', state: { kind: 'starting' } }) });
    assert.deepEqual(wakes, ['session', 'c']);
    assert.equal(kind(store.getState(), 'c'), 'starting');
    assert.equal(store.getState()!.customizations![0], before!.customizations![0], 'untouched servers keep their identity');
  });

  it('dispatch applies at once, returns page-local ids and forwards; the ack hands the action to the worker view', () => {
    const { store, calls, wakes, send } = setup();
    send({ type: 'state', state: sessionState() });
    wakes.length = 0;
    const start: AnyAction = { type: 'session/mcpServerStartRequested', id: 'b' };
    assert.equal(store.dispatch(start), 1);
    assert.equal(kind(store.getState(), 'b'), 'starting', 'optimistic');
    assert.equal(store.getPendingCount(), 1);
    assert.deepEqual(calls, [['dispatch', 1, start, undefined]]);
    assert.deepEqual(wakes, ['session', 'b']);

    // A foreign change arrives before our ack: ours stays folded on top, b is not woken again.
    const foreign = sessionReducer(sessionState(), { type: 'session/mcpServerStateChanged', id: 'a', state: { kind: 'stopped' } });
    send({ type: 'state', state: foreign });
    assert.equal(kind(store.getState(), 'b'), 'starting');
    assert.equal(kind(store.getState(), 'a'), 'stopped');
    assert.deepEqual(wakes, ['session', 'b', 'session', 'a']);

    // The worker's view now includes our action, and it acks: nothing visible changes.
    send({ type: 'state', state: sessionReducer(foreign, start) }, { type: 'ack', localId: 1, clientSeq: 41 });
    assert.equal(store.getPendingCount(), 0);
    assert.deepEqual(wakes, ['session', 'b', 'session', 'a']);
    assert.equal(store.dispatch({ type: 'session/mcpServerStopRequested', id: 'a' }), 2);
  });

  it('maps a failure to the page-local id and reverts to the worker view', () => {
    const { store, failures, wakes, send } = setup();
    send({ type: 'state', state: sessionState() });
    const action: AnyAction = { type: 'session/customizationToggled', id: 'c', enabled: false };
    const id = store.dispatch(action);
    send({ type: 'ack', localId: id, clientSeq: 7 });
    wakes.length = 0;
    // The worker view had it pending and rolls it back with the rejection.
    send({ type: 'state', state: sessionState() }, { type: 'failure', localId: id, failure: { kind: 'rejected', channel: SESSION, clientSeq: 7, action, reason: 'no' } });
    assert.deepEqual(failures, [{ kind: 'rejected', channel: SESSION, clientSeq: id, wireClientSeq: 7, action, reason: 'no' }]);
    assert.deepEqual(store.getState(), sessionState());
  });

  it('refuses what the in-page store refuses, synchronously and without forwarding', () => {
    const { store, calls } = setup();
    assert.throws(() => store.dispatch({ type: 'session/mcpServerStateChanged', id: 'a', state: { kind: 'ready' } }), TypeError);
    assert.throws(() => store.dispatch({ type: 'chat/turnCancelled', turnId: T }), /needs a chat channel/);
    assert.throws(() => store.dispatch({ type: 'session/mcpServerStartRequested', id: 'a' }, CHAT), /belongs on the session channel/);
    assert.throws(() => store.dispatch(null as unknown as AnyAction), TypeError);
    assert.throws(() => store.watchChat(SESSION), TypeError);
    assert.deepEqual(calls, []);
  });

  it('reports a dispatch the worker cannot be reached for as dropped', () => {
    const { store, failures, send, breakBridge } = setup();
    send({ type: 'state', state: sessionState() });
    breakBridge();
    const id = store.dispatch({ type: 'session/mcpServerStartRequested', id: 'b' });
    assert.equal(failures[0]?.kind, 'dropped');
    assert.equal(failures[0]?.clientSeq, id);
    assert.match(failures[0]!.reason, /port closed/);
    assert.equal(kind(store.getState(), 'b'), 'stopped');
  });

  it('close() drops unacked actions and ignores later events', () => {
    const { store, failures, send } = setup();
    send({ type: 'state', state: sessionState() }, { type: 'connection', state: { kind: 'open' } });
    const id = store.dispatch({ type: 'session/mcpServerStartRequested', id: 'b' });
    store.close();
    assert.deepEqual(failures.map((f) => [f.kind, f.clientSeq]), [['dropped', id]]);
    assert.equal(kind(store.getState(), 'b'), 'stopped');
    send({ type: 'state', state: sessionReducer(sessionState(), { type: 'session/mcpServerStopRequested', id: 'a' }) });
    assert.equal(kind(store.getState(), 'a'), 'ready', 'events after close are ignored');
    const late = store.dispatch({ type: 'session/mcpServerStartRequested', id: 'b' });
    assert.deepEqual(failures.map((f) => [f.kind, f.clientSeq]), [['dropped', id], ['dropped', late]]);
  });
});

describe('WorkerSessionStore: chats', () => {
  it('ref-counts watches towards the worker and mirrors the chat only while watched', () => {
    const { store, calls, send } = setup();
    let changes = 0;
    store.subscribeChat(CHAT, () => void changes++);
    const r1 = store.watchChat(CHAT);
    const r2 = store.watchChat(CHAT);
    assert.deepEqual(calls, [['watchChat', CHAT]]);
    send({ type: 'chat', uri: CHAT, state: chatState() });
    assert.deepEqual(store.getChatState(CHAT), chatState());
    assert.equal(changes, 1);
    r1();
    r1();
    assert.deepEqual(calls, [['watchChat', CHAT]]);
    r2();
    assert.deepEqual(calls, [['watchChat', CHAT], ['releaseChat', CHAT]]);
    assert.equal(store.getChatState(CHAT), undefined);
    assert.equal(changes, 2, 'forgetting is a change');
    send({ type: 'chat', uri: CHAT, state: chatState() });
    assert.equal(store.getChatState(CHAT), undefined, 'events for an unwatched chat are ignored');
  });

  it('wakes a tool-call subscriber only when that tool call changed across the boundary', () => {
    const { store, calls, send } = setup();
    store.watchChat(CHAT);
    send({ type: 'chat', uri: CHAT, state: chatState() });
    const seen: Record<string, (ToolCallState | undefined)[]> = { x: [], y: [] };
    for (const id of ['x', 'y']) store.subscribeToolCall(CHAT, id, (tc) => seen[id]!.push(tc));
    send({ type: 'chat', uri: CHAT, state: chatState() });
    assert.deepEqual([seen.x!.length, seen.y!.length], [0, 0], 'an equal clone wakes nobody');

    const delta: AnyAction = { type: 'chat/toolCallDelta', turnId: T, toolCallId: 'y', content: '{"q"' } as AnyAction;
    send({ type: 'chat', uri: CHAT, state: chatReducer(chatState(), delta) });
    assert.deepEqual([seen.x!.length, seen.y!.length], [0, 1]);

    // A chat dispatch is optimistic on the page and goes to the worker with its channel.
    const approve = { type: 'chat/toolCallConfirmed', turnId: T, toolCallId: 'x', approved: true, confirmed: 'user-action', selectedOptionId: 'ok' } as AnyAction;
    const id = store.dispatch(approve, CHAT);
    assert.deepEqual(calls.at(-1), ['dispatch', id, approve, CHAT]);
    assert.deepEqual(store.getChatState(CHAT), chatReducer(chatReducer(chatState(), delta), approve));
    assert.deepEqual([seen.x!.length, seen.y!.length], [1, 1], 'approving changed x only');
    assert.equal(seen.x![0], selectToolCall(store.getChatState(CHAT), 'x')?.toolCall);
  });
});

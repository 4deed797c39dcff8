import { before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionEnvelope, AnyAction, ChatState, DispatchActionParams, SessionState, Snapshot, ToolCallState } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers/index.js';
import { SessionStore, selectToolCall, type ActionFailure } from '../../src/store/index.js';
import { chatReducersLoading } from '../../src/store/chat-reducers-lazy.js';

// The store loads the chat reducers on the first watched chat; these tests read a chat right after its snapshot, so
// they wait for the reducers once, first (store-lazy-chat-*.test.ts test the waiting itself).
before(() => chatReducersLoading());

const SESSION = 'ahp-session:/s1';
const CHAT = 'ahp-chat:/c1';
const OTHER = 'ahp-chat:/c2';
const ME = 'client-me';
const T = 't1';

const session = (): SessionState => ({ provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [] });
const options = [{ id: 'ok', label: 'Allow', kind: 'approve' }, { id: 'always', label: 'Always', kind: 'approve' }];

/** A chat with an active turn: `a` waits for confirmation, `b` streams. */
function chatState(resource = CHAT): ChatState {
  let s: ChatState = { resource, title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] };
  const steps: AnyAction[] = [
    { type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T00:00:00.000Z', message: { text: 'hi', origin: { kind: 'user' } } },
    { type: 'chat/toolCallStart', turnId: T, toolCallId: 'a', toolName: 'write', displayName: 'Write', contributor: { kind: 'mcp', customizationId: 'srv' } },
    { type: 'chat/toolCallReady', turnId: T, toolCallId: 'a', invocationMessage: 'Write it', toolInput: '{}', options },
    { type: 'chat/toolCallStart', turnId: T, toolCallId: 'b', toolName: 'read', displayName: 'Read' },
  ];
  for (const a of steps) s = chatReducer(s, a);
  return s;
}

interface Setup {
  store: SessionStore;
  sent: DispatchActionParams[];
  failures: ActionFailure[];
  subscribed: string[];
  unsubscribed: string[];
  /** Resolves the oldest open subscribe with a snapshot (or rejects it with an Error). */
  answer(snapshot: Snapshot | Error): Promise<void>;
}

function setup(opts: { pendingTimeoutMs?: number; send?: (p: DispatchActionParams) => void; noSubscribe?: boolean } = {}): Setup {
  const sent: DispatchActionParams[] = [];
  const failures: ActionFailure[] = [];
  const subscribed: string[] = [];
  const unsubscribed: string[] = [];
  const open: { resolve(s: Snapshot): void; reject(e: Error): void }[] = [];
  let seq = 0;
  const store = new SessionStore({
    channel: SESSION, clientId: ME, nextClientSeq: () => ++seq,
    send: opts.send ?? ((p) => void sent.push(p)),
    ...(opts.pendingTimeoutMs !== undefined ? { pendingTimeoutMs: opts.pendingTimeoutMs } : {}),
    ...(opts.noSubscribe ? {} : {
      subscribeChannel: (uri: string) => {
        subscribed.push(uri);
        return new Promise<Snapshot>((resolve, reject) => open.push({ resolve, reject }));
      },
      unsubscribeChannel: (uri: string) => void unsubscribed.push(uri),
    }),
  });
  store.loadSnapshot({ resource: SESSION, state: session(), fromSeq: 1 });
  store.onActionFailed((f) => void failures.push(f));
  const answer = async (snapshot: Snapshot | Error) => {
    const next = open.shift();
    assert.ok(next, 'a subscribe is open');
    if (snapshot instanceof Error) next.reject(snapshot);
    else next.resolve(snapshot);
    await new Promise((r) => setImmediate(r));
  };
  return { store, sent, failures, subscribed, unsubscribed, answer };
}

/** A store watching CHAT, loaded at fromSeq 10. */
async function watching(opts: Parameters<typeof setup>[0] = {}) {
  const t = setup(opts);
  const release = t.store.watchChat(CHAT);
  await t.answer({ resource: CHAT, state: chatState(), fromSeq: 10 });
  return { ...t, release };
}

const env = (serverSeq: number, action: AnyAction, extra: Partial<ActionEnvelope> = {}, channel = CHAT): ActionEnvelope => ({ channel, serverSeq, action, ...extra });
const tc = (type: string, toolCallId: string, extra: Record<string, unknown> = {}): AnyAction => ({ type, turnId: T, toolCallId, ...extra });
const approve = (selectedOptionId = 'ok') => tc('chat/toolCallConfirmed', 'a', { approved: true, confirmed: 'user-action', selectedOptionId });
const delta = (id: string, content: string) => tc('chat/toolCallDelta', id, { content });
const toolCall = (s: ChatState | undefined, id: string) => selectToolCall(s, id)?.toolCall as (ToolCallState & Record<string, unknown>) | undefined;
const mine = (clientSeq: number) => ({ origin: { clientId: ME, clientSeq } });

describe('watchChat', () => {
  it('ref-counts: the first watcher subscribes and loads, the last release unsubscribes and forgets', async () => {
    const { store, subscribed, unsubscribed, answer } = setup();
    let changes = 0;
    store.subscribeChat(CHAT, () => void changes++);
    const r1 = store.watchChat(CHAT);
    const r2 = store.watchChat(CHAT);
    assert.deepEqual(subscribed, [CHAT]);
    assert.equal(store.getChatState(CHAT), undefined);
    const state = chatState();
    await answer({ resource: CHAT, state, fromSeq: 10 });
    assert.equal(store.getChatState(CHAT), state);
    assert.equal(changes, 1);
    assert.deepEqual(store.getWatchedChats(), [CHAT]);
    r1();
    r1();
    assert.deepEqual(unsubscribed, [], 'a second call of the same release does not count');
    assert.equal(store.getChatState(CHAT), state);
    r2();
    assert.deepEqual(unsubscribed, [CHAT]);
    assert.equal(store.getChatState(CHAT), undefined);
    assert.equal(changes, 2, 'forgetting the chat is a change');
    assert.deepEqual(store.getWatchedChats(), []);
    store.receive(env(11, delta('b', 'x')));
    assert.equal(store.getChatState(CHAT), undefined, 'envelopes of an unwatched chat are ignored');
    store.watchChat(CHAT);
    assert.deepEqual(subscribed, [CHAT, CHAT], 'watching again subscribes again');
  });
  it('buffers envelopes until the snapshot and applies only those after fromSeq', async () => {
    const { store, answer } = setup();
    store.watchChat(CHAT);
    store.receive(env(12, delta('b', 'two')));
    store.receive(env(9, delta('b', 'old')));
    store.receive(env(11, delta('b', 'one')));
    await answer({ resource: CHAT, state: chatState(), fromSeq: 10 });
    assert.equal(toolCall(store.getChatState(CHAT), 'b')?.partialInput, 'onetwo');
    assert.equal(store.getCursor(CHAT), 12);
    assert.deepEqual(store.getChannelCursors(), [{ channel: SESSION, lastSeenServerSeq: 1 }, { channel: CHAT, lastSeenServerSeq: 12 }]);
  });
  it('ignores a snapshot that arrives after the release', async () => {
    const { store, answer, unsubscribed } = setup();
    const release = store.watchChat(CHAT);
    release();
    assert.deepEqual(unsubscribed, [CHAT]);
    await answer({ resource: CHAT, state: chatState(), fromSeq: 10 });
    assert.equal(store.getChatState(CHAT), undefined);
    store.watchChat(CHAT);
    await answer({ resource: CHAT, state: chatState(), fromSeq: 10 });
    assert.ok(store.getChatState(CHAT));
  });
  it('a failed subscribe is logged; the chat stays watched and a later snapshot loads it', async () => {
    const errors = mock.method(console, 'error', () => {});
    try {
      const { store, answer } = setup();
      store.watchChat(CHAT);
      await answer(new Error('no such chat'));
      assert.equal(errors.mock.callCount(), 1);
      assert.equal(store.getChatState(CHAT), undefined);
      store.receive(env(11, delta('b', 'x')));
      store.loadSnapshot({ resource: CHAT, state: chatState(), fromSeq: 20 });
      assert.equal(toolCall(store.getChatState(CHAT), 'b')?.partialInput, undefined);
      store.receive(env(21, delta('b', 'y')));
      assert.equal(toolCall(store.getChatState(CHAT), 'b')?.partialInput, 'y');
    } finally {
      errors.mock.restore();
    }
  });
  it('without subscribeChannel a watched chat is loaded by loadSnapshot', () => {
    const { store } = setup({ noSubscribe: true });
    store.loadSnapshot({ resource: CHAT, state: chatState(), fromSeq: 1 });
    assert.equal(store.getChatState(CHAT), undefined, 'not watched: ignored');
    store.watchChat(CHAT);
    store.loadSnapshot({ resource: CHAT, state: chatState(), fromSeq: 1 });
    assert.equal(toolCall(store.getChatState(CHAT), 'a')?.status, 'pending-confirmation');
  });
  it('refuses the session and root channels', () => {
    const { store } = setup();
    assert.throws(() => store.watchChat(SESSION), TypeError);
    assert.throws(() => store.watchChat('ahp-root://'), TypeError);
    assert.throws(() => store.watchChat(''), TypeError);
  });
  it('chat changes do not wake session subscribers', async () => {
    const { store } = await watching();
    let sessionChanges = 0;
    store.subscribe(() => void sessionChanges++);
    store.receive(env(11, delta('b', 'x')));
    store.dispatch(approve(), CHAT);
    assert.equal(sessionChanges, 0);
  });
});

describe('chat and session listeners changed during a notification', () => {
  it('a chat listener added by the only listener is not told of the change that is being reported, only of later ones', async () => {
    const { store } = await watching();
    const heard: string[] = [];
    store.subscribeChat(CHAT, () => {
      heard.push('first');
      if (heard.length === 1) store.subscribeChat(CHAT, () => void heard.push('added'));
    });
    store.receive(env(11, delta('b', 'x')));
    assert.deepEqual(heard, ['first']);
    store.receive(env(12, delta('b', 'y')));
    assert.deepEqual(heard, ['first', 'first', 'added']);
  });
  it('the only chat listener that removes itself and subscribes again is told once per change', async () => {
    const { store } = await watching();
    let calls = 0;
    let unsubscribe = () => {};
    const listener = () => {
      calls++;
      unsubscribe();
      unsubscribe = store.subscribeChat(CHAT, listener);
    };
    unsubscribe = store.subscribeChat(CHAT, listener);
    store.receive(env(11, delta('b', 'x')));
    assert.equal(calls, 1);
    store.receive(env(12, delta('b', 'y')));
    assert.equal(calls, 2);
  });
  it('with several chat listeners, one removed by an earlier one is still told of this change, one added is not', async () => {
    const { store } = await watching();
    const heard: string[] = [];
    let removeSecond = () => {};
    store.subscribeChat(CHAT, () => {
      heard.push('first');
      removeSecond();
      store.subscribeChat(CHAT, () => void heard.push('added'));
    });
    removeSecond = store.subscribeChat(CHAT, () => void heard.push('second'));
    store.receive(env(11, delta('b', 'x')));
    assert.deepEqual(heard, ['first', 'second']);
  });
  it('a session listener added by the only listener is not told of the change that is being reported', async () => {
    const { store } = setup();
    const heard: string[] = [];
    store.subscribe(() => {
      heard.push('first');
      if (heard.length === 1) store.subscribe(() => void heard.push('added'));
    });
    store.receive(env(2, { type: 'session/titleChanged', title: 'A' } as AnyAction, {}, SESSION));
    assert.deepEqual(heard, ['first']);
    store.receive(env(3, { type: 'session/titleChanged', title: 'B' } as AnyAction, {}, SESSION));
    assert.deepEqual(heard, ['first', 'first', 'added']);
  });
});

describe('chat reconciliation', () => {
  it('own echo: the pending entry goes and the echoed (server) version is applied', async () => {
    const { store, sent, failures } = await watching();
    const seq = store.dispatch(approve('ok'), CHAT);
    assert.deepEqual(sent, [{ channel: CHAT, clientSeq: seq, action: approve('ok') }]);
    assert.equal(toolCall(store.getChatState(CHAT), 'a')?.status, 'running');
    assert.equal(store.getPendingCount(CHAT), 1);
    store.receive(env(11, approve('always'), mine(seq)));
    assert.equal(store.getPendingCount(), 0);
    assert.equal((toolCall(store.getChatState(CHAT), 'a')?.selectedOption as { id?: string } | undefined)?.id, 'always');
    assert.deepEqual(failures, []);
  });
  it('foreign actions in between are confirmed and the pending action stays folded on top', async () => {
    const { store } = await watching();
    const seq = store.dispatch(approve(), CHAT);
    store.receive(env(11, delta('b', '{"p'), { origin: { clientId: 'someone-else', clientSeq: seq } }));
    store.receive(env(12, delta('b', '":1}')));
    const view = store.getChatState(CHAT);
    assert.equal(store.getPendingCount(CHAT), 1, 'a foreign origin with our clientSeq is not our echo');
    assert.equal(toolCall(view, 'b')?.partialInput, '{"p":1}');
    assert.equal(toolCall(view, 'a')?.status, 'running');
    store.receive(env(13, approve(), mine(seq)));
    assert.equal(store.getPendingCount(), 0);
    assert.equal(toolCall(store.getChatState(CHAT), 'a')?.status, 'running');
    assert.equal(toolCall(store.getChatState(CHAT), 'b')?.partialInput, '{"p":1}');
  });
  it('rejection: not applied, the view reverts, the reason is reported', async () => {
    const { store, failures } = await watching();
    const seq = store.dispatch(approve(), CHAT);
    store.receive(env(11, approve(), { ...mine(seq), rejectionReason: 'turn is over' }));
    assert.equal(toolCall(store.getChatState(CHAT), 'a')?.status, 'pending-confirmation');
    assert.equal(store.getCursor(CHAT), 11);
    assert.deepEqual(failures, [{ kind: 'rejected', channel: CHAT, clientSeq: seq, action: approve(), reason: 'turn is over' }]);
  });
  it('timeout: the action is dropped from the view and reported', async () => {
    const { store, failures } = await watching({ pendingTimeoutMs: 15 });
    const seq = store.dispatch(approve(), CHAT);
    assert.equal(toolCall(store.getChatState(CHAT), 'a')?.status, 'running');
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(toolCall(store.getChatState(CHAT), 'a')?.status, 'pending-confirmation');
    assert.deepEqual(failures.map((f) => [f.kind, f.channel, f.clientSeq]), [['timeout', CHAT, seq]]);
  });
  it('a chat that is not watched: pending until echoed, no state, echo settles it', () => {
    const { store, sent, failures } = setup();
    const seq = store.dispatch(approve(), OTHER);
    assert.equal(sent[0]?.channel, OTHER);
    assert.equal(store.getChatState(OTHER), undefined);
    assert.equal(store.getPendingCount(OTHER), 1);
    store.receive(env(5, delta('b', 'x'), {}, OTHER));
    assert.equal(store.getPendingCount(OTHER), 1);
    store.receive(env(6, approve(), mine(seq), OTHER));
    assert.equal(store.getPendingCount(OTHER), 0);
    assert.equal(store.getChatState(OTHER), undefined);
    assert.deepEqual(failures, []);
  });
  it('an unwatched chat reports its rejection and timeout too', async () => {
    const { store, failures } = setup({ pendingTimeoutMs: 15 });
    const rejected = store.dispatch(approve(), OTHER);
    store.receive(env(6, approve(), { ...mine(rejected), rejectionReason: 'nope' }, OTHER));
    const lost = store.dispatch(approve(), OTHER);
    await new Promise((r) => setTimeout(r, 40));
    assert.deepEqual(failures.map((f) => [f.kind, f.clientSeq, f.channel]), [['rejected', rejected, OTHER], ['timeout', lost, OTHER]]);
    assert.equal(store.getPendingCount(), 0);
  });
  it('a pending action survives the release of its chat and still settles', async () => {
    const { store, release, failures } = await watching();
    const seq = store.dispatch(approve(), CHAT);
    release();
    assert.equal(store.getPendingCount(CHAT), 1);
    store.receive(env(11, approve(), { ...mine(seq), rejectionReason: 'late' }));
    assert.equal(store.getPendingCount(CHAT), 0);
    assert.equal(failures[0]?.reason, 'late');
  });
  it('a chat released with a pending action reads as unwatched, in every read, until watched again; its reconciler goes with the echo', async () => {
    // getChatState reads the reconciler alone (no watch lookup): a released chat's reconciler must hold no state.
    const { store, release, answer } = await watching();
    let heard = 0;
    store.subscribeChat(CHAT, () => void heard++);
    const seq = store.dispatch(approve(), CHAT);
    assert.equal(toolCall(store.getChatState(CHAT), 'a')?.status, 'running', 'optimistic while watched');
    release();
    assert.equal(store.getChatState(CHAT), undefined, 'released: no state, though an action is pending');
    store.receive(env(11, delta('b', 'x')));
    assert.equal(store.getChatState(CHAT), undefined, 'a foreign envelope of the released chat is ignored');
    assert.equal(store.getPendingCount(CHAT), 1);
    const before = heard;
    store.receive(env(12, approve(), mine(seq)));
    assert.equal(store.getPendingCount(CHAT), 0, 'the echo settles it');
    assert.equal(store.getCursor(CHAT), 0, 'and the idle reconciler is gone');
    assert.equal(store.getChatState(CHAT), undefined);
    assert.equal(heard, before, 'nothing to tell about an unwatched chat');
    store.watchChat(CHAT);
    assert.equal(store.getChatState(CHAT), undefined, 'watched again: nothing until the snapshot');
    await answer({ resource: CHAT, state: chatState(), fromSeq: 20 });
    store.receive(env(21, delta('b', 'y')));
    assert.equal(toolCall(store.getChatState(CHAT), 'b')?.partialInput, 'y');
    assert.equal(store.getCursor(CHAT), 21);
  });
  it('dispatch refuses chat actions without a chat channel and session actions elsewhere', () => {
    const { store, sent } = setup();
    assert.throws(() => store.dispatch(approve()), /needs a chat channel/);
    assert.throws(() => store.dispatch(approve(), SESSION), TypeError);
    assert.throws(() => store.dispatch(approve(), 'ahp-root://'), TypeError);
    assert.throws(() => store.dispatch({ type: 'session/titleChanged', title: 'x' }, CHAT), TypeError);
    assert.throws(() => store.dispatch(delta('b', 'x'), CHAT), /not a client-dispatchable/);
    assert.throws(() => store.dispatch(tc('chat/toolCallAuthResolved', 'a'), CHAT), TypeError);
    assert.deepEqual(sent, []);
    assert.equal(store.getPendingCount(), 0);
    store.dispatch({ type: 'session/titleChanged', title: 'x' }, SESSION);
    assert.equal(sent.length, 1);
  });
  it('dropPending for one channel reports only that channel', async () => {
    const { store, failures } = await watching();
    store.dispatch(approve(), CHAT);
    store.dispatch({ type: 'session/titleChanged', title: 'x' });
    store.dropPending('reconnected', CHAT);
    assert.deepEqual(failures.map((f) => [f.kind, f.channel]), [['dropped', CHAT]]);
    assert.equal(store.getPendingCount(SESSION), 1);
    assert.equal(toolCall(store.getChatState(CHAT), 'a')?.status, 'pending-confirmation');
  });
});

describe('subscribeToolCall', () => {
  it('is woken only for its own tool call while another streams deltas', async () => {
    const { store } = await watching();
    const seenA: (string | undefined)[] = [];
    let wakeB = 0;
    store.subscribeToolCall(CHAT, 'a', (t) => void seenA.push(t?.status));
    store.subscribeToolCall(CHAT, 'b', () => void wakeB++);
    for (let i = 0; i < 50; i++) store.receive(env(11 + i, delta('b', String(i))));
    assert.deepEqual(seenA, []);
    assert.equal(wakeB, 50);
    store.receive(env(100, approve()));
    assert.deepEqual(seenA, ['running']);
    assert.equal(wakeB, 50);
  });
  it('is not woken when rebasing rebuilds its (unchanged) tool call', async () => {
    const { store } = await watching();
    const seen: (string | undefined)[] = [];
    store.subscribeToolCall(CHAT, 'a', (t) => void seen.push(t?.status));
    const seq = store.dispatch(approve(), CHAT);
    for (let i = 0; i < 20; i++) store.receive(env(11 + i, delta('b', 'x')));
    store.receive(env(40, approve(), mine(seq)));
    assert.deepEqual(seen, ['running']);
  });
  it('reports a tool call that appears and one that disappears when the chat is forgotten', async () => {
    const { store, release } = await watching();
    const seen: (string | undefined)[] = [];
    const off = store.subscribeToolCall(CHAT, 'c', (t) => void seen.push(t?.toolCallId));
    store.receive(env(11, tc('chat/toolCallStart', 'c', { toolName: 'n', displayName: 'N' })));
    assert.deepEqual(seen, ['c']);
    release();
    assert.deepEqual(seen, ['c', undefined]);
    off();
    store.watchChat(CHAT);
    assert.deepEqual(seen, ['c', undefined]);
  });
  it('keeps identity across the turn end for a finished tool call', async () => {
    const { store } = await watching();
    store.receive(env(11, approve()));
    store.receive(env(12, tc('chat/toolCallComplete', 'a', { result: { success: true, pastTenseMessage: 'done' } })));
    let wakeA = 0;
    const seenB: (string | undefined)[] = [];
    store.subscribeToolCall(CHAT, 'a', () => void wakeA++);
    store.subscribeToolCall(CHAT, 'b', (t) => void seenB.push(t?.status));
    store.receive(env(13, { type: 'chat/turnComplete', turnId: T, duration: 5 }));
    assert.equal(wakeA, 0);
    assert.deepEqual(seenB, ['cancelled']);
    assert.equal(selectToolCall(store.getChatState(CHAT), 'a')?.active, false);
  });
  it('does not affect other chats', async () => {
    const { store, answer } = await watching();
    store.watchChat(OTHER);
    await answer({ resource: OTHER, state: chatState(OTHER), fromSeq: 10 });
    let wake = 0;
    store.subscribeToolCall(OTHER, 'b', () => void wake++);
    store.receive(env(11, delta('b', 'x')));
    assert.equal(wake, 0);
    store.receive(env(12, delta('b', 'x'), {}, OTHER));
    assert.equal(wake, 1);
  });
});

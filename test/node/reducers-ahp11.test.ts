// One test (at least) per AHP 1.1 action the reducers gained: the change, the no-ops, and out-of-order arrival.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStatus, type ChatState, type RootState, type SessionState } from '../../src/protocol/index.js';
import { chatReducer, isResumableTurn, rootReducer, sessionReducer } from '../../src/reducers/index.js';

type A = Record<string, unknown>;
const T = 't1';
const msg = (text = 'hi') => ({ text, origin: { kind: 'user' } });
const ACTIVITY = 31;
const chat = (extra: Partial<ChatState> = {}): ChatState =>
  ({ resource: 'ahp-chat:/c', title: 'C', status: SessionStatus.Idle | SessionStatus.IsRead, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [], ...extra });
const fold = (s: ChatState, ...actions: A[]) => actions.reduce<ChatState>((acc, a) => chatReducer(acc, a as never), s);
const run = (s: ChatState, type: string, fields: A = {}) => chatReducer(s, { type, ...fields } as never);
const started = (extra: Partial<ChatState> = {}) => fold(chat(extra), { type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T10:00:00.000Z', message: msg() });
const turn = (id: string, state = 'complete', parts: unknown[] = []) => ({ id, startedAt: '2026-02-01T09:00:00.000Z', duration: 5, message: msg(id), responseParts: parts, usage: undefined, state });
const activity = (s: ChatState) => s.status & ACTIVITY;
const question = { id: 'q1', kind: 'text', message: 'Name?' };
const request = (id = 'r1', extra: A = {}) => ({ id, message: 'Need input', questions: [question], ...extra });
const answer = (value: string, state = 'draft') => ({ state, value: { kind: 'text', value } });

describe('chat/pendingMessageSet, chat/pendingMessageRemoved, chat/queuedMessagesReordered', () => {
  it('sets and replaces the steering message; upserts queued messages by id', () => {
    const s = chat();
    const steered = run(s, 'chat/pendingMessageSet', { kind: 'steering', id: 's1', message: msg('faster') });
    assert.deepEqual(steered.steeringMessage, { id: 's1', message: msg('faster') });
    assert.deepEqual(run(steered, 'chat/pendingMessageSet', { kind: 'steering', id: 's2', message: msg('stop') }).steeringMessage, { id: 's2', message: msg('stop') });
    const q = fold(s,
      { type: 'chat/pendingMessageSet', kind: 'queued', id: 'a', message: msg('A') },
      { type: 'chat/pendingMessageSet', kind: 'queued', id: 'b', message: msg('B') },
      { type: 'chat/pendingMessageSet', kind: 'queued', id: 'a', message: msg('A2') });
    assert.deepEqual(q.queuedMessages?.map((m) => [m.id, m.message.text]), [['a', 'A2'], ['b', 'B']]);
  });
  it('ignores an unknown kind, a missing id and a message without text', () => {
    const s = chat();
    assert.equal(run(s, 'chat/pendingMessageSet', { kind: 'x-later', id: 'a', message: msg() }), s);
    assert.equal(run(s, 'chat/pendingMessageSet', { kind: 'queued', message: msg() }), s);
    assert.equal(run(s, 'chat/pendingMessageSet', { kind: 'queued', id: 'a', message: { origin: {} } }), s);
  });
  it('removes by kind and id; the key goes with the last message; unknown ids are no-ops', () => {
    const s = fold(chat(),
      { type: 'chat/pendingMessageSet', kind: 'steering', id: 's1', message: msg() },
      { type: 'chat/pendingMessageSet', kind: 'queued', id: 'a', message: msg() },
      { type: 'chat/pendingMessageSet', kind: 'queued', id: 'b', message: msg() });
    assert.equal('steeringMessage' in run(s, 'chat/pendingMessageRemoved', { kind: 'steering', id: 's1' }), false);
    assert.equal(run(s, 'chat/pendingMessageRemoved', { kind: 'steering', id: 'other' }), s);
    assert.equal(run(s, 'chat/pendingMessageRemoved', { kind: 'queued', id: 's1' }), s);
    const one = run(s, 'chat/pendingMessageRemoved', { kind: 'queued', id: 'a' });
    assert.deepEqual(one.queuedMessages?.map((m) => m.id), ['b']);
    assert.equal('queuedMessages' in run(one, 'chat/pendingMessageRemoved', { kind: 'queued', id: 'b' }), false);
    assert.equal(run(chat(), 'chat/pendingMessageRemoved', { kind: 'queued', id: 'a' }).queuedMessages, undefined);
  });
  it('reorders the queue; unknown and repeated ids are ignored and unnamed messages keep their place after the named ones', () => {
    const s = fold(chat(), ...['a', 'b', 'c'].map((id) => ({ type: 'chat/pendingMessageSet', kind: 'queued', id, message: msg(id) })));
    const ids = (x: ChatState) => x.queuedMessages?.map((m) => m.id).join('');
    assert.equal(ids(run(s, 'chat/queuedMessagesReordered', { order: ['c', 'a', 'b'] })), 'cab');
    assert.equal(ids(run(s, 'chat/queuedMessagesReordered', { order: ['c', 'zz', 'c'] })), 'cab');
    assert.equal(run(s, 'chat/queuedMessagesReordered', { order: ['a', 'b', 'c'] }), s);
    assert.equal(run(s, 'chat/queuedMessagesReordered', { order: 'cab' }), s);
    assert.equal(run(chat(), 'chat/queuedMessagesReordered', { order: ['a'] }).queuedMessages, undefined);
  });
  it('out of order: a reorder naming a message removed meanwhile keeps the rest; a turn consuming a queued message removes it', () => {
    const s = fold(chat(), ...['a', 'b', 'c'].map((id) => ({ type: 'chat/pendingMessageSet', kind: 'queued', id, message: msg(id) })));
    const removed = run(s, 'chat/pendingMessageRemoved', { kind: 'queued', id: 'b' });
    assert.deepEqual(run(removed, 'chat/queuedMessagesReordered', { order: ['c', 'b', 'a'] }).queuedMessages?.map((m) => m.id), ['c', 'a']);
    const consumed = run(s, 'chat/turnStarted', { turnId: 't9', startedAt: '2026-02-01T10:00:00.000Z', message: msg('a'), queuedMessageId: 'a' });
    assert.deepEqual(consumed.queuedMessages?.map((m) => m.id), ['b', 'c']);
  });
});

describe('chat/draftChanged', () => {
  it('sets, replaces and clears the draft; garbage and no change are no-ops', () => {
    const s = chat();
    const d = run(s, 'chat/draftChanged', { draft: msg('half') });
    assert.deepEqual(d.draft, msg('half'));
    assert.equal('draft' in run(d, 'chat/draftChanged', {}), false);
    assert.equal('draft' in run(d, 'chat/draftChanged', { draft: null }), false);
    assert.equal(run(s, 'chat/draftChanged', {}), s);
    assert.equal(run(s, 'chat/draftChanged', { draft: 'text' }), s);
    assert.equal(run(d, 'chat/draftChanged', { draft: d.draft }), d);
  });
});

describe('chat/inputRequested, chat/inputAnswerChanged, chat/inputCompleted', () => {
  it('adds an inputRequest part to the active turn, raises InputNeeded and clears IsRead', () => {
    const s = fold(started(), { type: 'chat/isReadChanged', isRead: true });
    const asked = run(s, 'chat/inputRequested', { request: request() });
    assert.deepEqual(asked.activeTurn?.responseParts.at(-1), { kind: 'inputRequest', request: request() });
    assert.equal(activity(asked), SessionStatus.InputNeeded);
    assert.equal(asked.status & SessionStatus.IsRead, 0);
  });
  it('is a no-op without an active turn or with a malformed request', () => {
    assert.equal(run(chat(), 'chat/inputRequested', { request: request() }).activeTurn, undefined);
    const s = started();
    assert.equal(run(s, 'chat/inputRequested', { request: { message: 'no id' } }), s);
    assert.equal(run(s, 'chat/inputRequested', {}), s);
  });
  it('a repeated request replaces the open one and keeps its draft answers unless it brings its own', () => {
    let s = fold(started(), { type: 'chat/inputRequested', request: request() }, { type: 'chat/inputAnswerChanged', requestId: 'r1', questionId: 'q1', answer: answer('Ada') });
    s = run(s, 'chat/inputRequested', { request: request('r1', { message: 'Still need it' }) });
    const parts = s.activeTurn!.responseParts.filter((p) => p.kind === 'inputRequest');
    assert.equal(parts.length, 1);
    assert.deepEqual((parts[0] as unknown as { request: A }).request, { ...request('r1', { message: 'Still need it' }), answers: { q1: answer('Ada') } });
    const own = run(s, 'chat/inputRequested', { request: request('r1', { answers: { q1: answer('Bob') } }) });
    assert.deepEqual((own.activeTurn!.responseParts.at(-1) as unknown as { request: A }).request.answers, { q1: answer('Bob') });
  });
  it('sets and removes draft answers; unknown requests and questions are no-ops', () => {
    const s = fold(started(), { type: 'chat/inputRequested', request: request() });
    const drafted = run(s, 'chat/inputAnswerChanged', { requestId: 'r1', questionId: 'q1', answer: answer('Ada') });
    const reqOf = (x: ChatState) => (x.activeTurn!.responseParts.at(-1) as unknown as { request: A }).request;
    assert.deepEqual(reqOf(drafted).answers, { q1: answer('Ada') });
    assert.equal('answers' in reqOf(run(drafted, 'chat/inputAnswerChanged', { requestId: 'r1', questionId: 'q1' })), false);
    assert.equal(run(s, 'chat/inputAnswerChanged', { requestId: 'nope', questionId: 'q1', answer: answer('x') }), s);
    assert.equal(run(s, 'chat/inputAnswerChanged', { requestId: 'r1', questionId: 'q1' }), s);
    assert.equal(run(s, 'chat/inputAnswerChanged', { requestId: 'r1', questionId: 'q1', answer: 'Ada' }), s);
  });
  it('completes: merges answers, records the response, and the status falls back to InProgress', () => {
    const s = fold(started(), { type: 'chat/inputRequested', request: request() }, { type: 'chat/inputAnswerChanged', requestId: 'r1', questionId: 'q1', answer: answer('Ad') });
    const done = run(s, 'chat/inputCompleted', { requestId: 'r1', response: 'accept', answers: { q1: answer('Ada', 'submitted') } });
    const part = done.activeTurn!.responseParts.at(-1) as unknown as { request: A; response?: string };
    assert.equal(part.response, 'accept');
    assert.deepEqual(part.request.answers, { q1: answer('Ada', 'submitted') });
    assert.equal(activity(done), SessionStatus.InProgress);
    // Out of order: answers or a second completion after the request closed are no-ops.
    assert.equal(run(done, 'chat/inputCompleted', { requestId: 'r1', response: 'decline' }), done);
    assert.equal(run(done, 'chat/inputAnswerChanged', { requestId: 'r1', questionId: 'q1', answer: answer('Bob') }), done);
    assert.equal(run(s, 'chat/inputCompleted', { requestId: 'nope', response: 'accept' }), s);
    assert.equal(run(s, 'chat/inputCompleted', { requestId: 'r1', response: 3 }), s);
  });
  it('a request still open when the turn ends stays in history, the chat goes Idle and the request can no longer be completed', () => {
    const s = fold(started(), { type: 'chat/inputRequested', request: request() }, { type: 'chat/turnComplete', turnId: T, duration: 10 });
    assert.equal(activity(s), SessionStatus.Idle);
    assert.equal(run(s, 'chat/inputCompleted', { requestId: 'r1', response: 'accept' }), s);
  });
});

describe('chat/truncated', () => {
  const history = () => chat({ turns: [turn('a'), turn('b'), turn('c')] as never, turnsNextCursor: 'older' });
  it('without turnId drops every turn, the cursor and the active turn', () => {
    const s = fold(history(), { type: 'chat/turnStarted', turnId: 'd', startedAt: '2026-02-01T11:00:00.000Z', message: msg() });
    const t = run(s, 'chat/truncated');
    assert.deepEqual(t.turns, []);
    assert.equal('activeTurn' in t, false);
    assert.equal('turnsNextCursor' in t, false);
    assert.equal(activity(t), SessionStatus.Idle);
  });
  it('with turnId keeps that turn and the ones before it (cursor kept)', () => {
    const t = run(history(), 'chat/truncated', { turnId: 'b' });
    assert.deepEqual(t.turns.map((x) => x.id), ['a', 'b']);
    assert.equal(t.turnsNextCursor, 'older');
  });
  it('is a no-op for an unknown or null turnId, and when nothing would change', () => {
    const s = history();
    assert.equal(run(s, 'chat/truncated', { turnId: 'zz' }), s);
    assert.equal(run(s, 'chat/truncated', { turnId: null }), s);
    assert.equal(run(s, 'chat/truncated', { turnId: 'c' }), s);
    const empty = chat();
    assert.equal(run(empty, 'chat/truncated'), empty);
  });
  it('drops the active turn even when truncating at the last finished turn', () => {
    const s = fold(history(), { type: 'chat/turnStarted', turnId: 'd', startedAt: '2026-02-01T11:00:00.000Z', message: msg() });
    const t = run(s, 'chat/truncated', { turnId: 'c' });
    assert.equal(t.turns.length, 3);
    assert.equal(t.activeTurn, undefined);
    assert.equal(activity(t), SessionStatus.Idle);
  });
});

describe('chat/turnsLoaded', () => {
  it('prepends older turns oldest first, skips known ids and malformed entries, replaces the cursor', () => {
    const s = chat({ turns: [turn('c'), turn('d')] as never, turnsNextCursor: 'p1' });
    const loaded = run(s, 'chat/turnsLoaded', { turns: [turn('a'), turn('b'), turn('c'), { id: 'bad' }, null], turnsNextCursor: 'p2' });
    assert.deepEqual(loaded.turns.map((t) => t.id), ['a', 'b', 'c', 'd']);
    assert.equal(loaded.turnsNextCursor, 'p2');
    const last = run(loaded, 'chat/turnsLoaded', { turns: [] });
    assert.equal('turnsNextCursor' in last, false);
    assert.equal(last.turns, loaded.turns);
  });
  it('out of order (a page arriving twice) and garbage are no-ops', () => {
    const s = chat({ turns: [turn('a'), turn('b')] as never, turnsNextCursor: 'p' });
    assert.equal(run(s, 'chat/turnsLoaded', { turns: [turn('a')], turnsNextCursor: 'p' }), s);
    assert.equal(run(s, 'chat/turnsLoaded', { turns: 'a' }), s);
    assert.equal(run(s, 'chat/turnsLoaded', { turns: [], turnsNextCursor: 5 }), s);
    // A page can never hold the running turn (found by the random-sequence test).
    const busy = started({ turnsNextCursor: 'p' });
    assert.equal(run(busy, 'chat/turnsLoaded', { turns: [turn(T)], turnsNextCursor: 'p' }), busy);
  });
});

describe('chat/turnResume', () => {
  const erroredChat = (resumable: boolean) => fold(started(),
    { type: 'chat/responsePart', turnId: T, part: { kind: 'markdown', id: 'm', content: 'Half' } },
    { type: 'chat/error', turnId: T, duration: 7, part: { kind: 'error', error: { errorType: 'rate', message: 'Slow down' }, resumable } });
  it('reopens the latest turn after a resumable error with its parts (the error included)', () => {
    const s = erroredChat(true);
    assert.equal(isResumableTurn(s.turns.at(-1)), true);
    const r = run(s, 'chat/turnResume', { turnId: T });
    assert.equal(r.turns.length, 0);
    assert.equal(r.activeTurn?.id, T);
    assert.equal(r.activeTurn?.startedAt, '2026-02-01T10:00:00.000Z');
    assert.deepEqual(r.activeTurn?.responseParts.map((p) => p.kind), ['markdown', 'error']);
    assert.equal(activity(r), SessionStatus.InProgress);
    // The resumed turn streams and ends like any other.
    const ended = fold(r, { type: 'chat/responsePart', turnId: T, part: { kind: 'markdown', id: 'm2', content: 'Rest' } }, { type: 'chat/turnComplete', turnId: T, duration: 9 });
    assert.equal(ended.turns.at(-1)?.state, 'complete');
  });
  it('is a no-op for a non-resumable error, another turn id, a running turn, an older turn, and twice', () => {
    assert.equal(isResumableTurn(erroredChat(false).turns.at(-1)), false);
    const plain = erroredChat(false);
    assert.equal(run(plain, 'chat/turnResume', { turnId: T }), plain);
    const s = erroredChat(true);
    assert.equal(run(s, 'chat/turnResume', { turnId: 'other' }), s);
    const busy = fold(s, { type: 'chat/turnStarted', turnId: 't2', startedAt: '2026-02-01T11:00:00.000Z', message: msg() });
    assert.equal(run(busy, 'chat/turnResume', { turnId: T }), busy);
    const later = fold(busy, { type: 'chat/turnComplete', turnId: 't2', duration: 1 });
    assert.equal(run(later, 'chat/turnResume', { turnId: T }), later);
    const resumed = run(s, 'chat/turnResume', { turnId: T });
    assert.equal(run(resumed, 'chat/turnResume', { turnId: T }), resumed);
  });
});

describe('chat working directories, background work, movable, changesets, canvases', () => {
  it('workingDirectorySet/Removed add once and remove if present', () => {
    const s = run(chat(), 'chat/workingDirectorySet', { directory: 'file:///a' });
    assert.deepEqual(s.workingDirectories, ['file:///a']);
    assert.equal(run(s, 'chat/workingDirectorySet', { directory: 'file:///a' }), s);
    assert.deepEqual(run(s, 'chat/workingDirectoryRemoved', { directory: 'file:///a' }).workingDirectories, []);
    assert.equal(run(s, 'chat/workingDirectoryRemoved', { directory: 'file:///b' }), s);
    assert.equal(run(s, 'chat/workingDirectorySet', { directory: 7 }), s);
  });
  it('backgroundWorkSet upserts by id; backgroundWorkRemoved removes (empty list = nothing running); unknown ids are no-ops', () => {
    const shell = { id: 'w1', kind: 'shell', label: 'Watching tests', command: 'npm test -- --watch' };
    const s = run(chat(), 'chat/backgroundWorkSet', { work: shell });
    assert.deepEqual(s.backgroundWork, [shell]);
    const relabelled = run(s, 'chat/backgroundWorkSet', { work: { ...shell, label: 'Still watching' } });
    assert.deepEqual(relabelled.backgroundWork?.map((w) => w.label), ['Still watching']);
    assert.deepEqual(run(s, 'chat/backgroundWorkRemoved', { id: 'w1' }).backgroundWork, []);
    assert.equal(run(s, 'chat/backgroundWorkRemoved', { id: 'never' }), s);
    assert.equal(run(s, 'chat/backgroundWorkSet', { work: { kind: 'shell' } }), s);
    // The work outlives the turn that started it.
    const ended = fold(started({ backgroundWork: [shell] as never }), { type: 'chat/turnComplete', turnId: T, duration: 1 });
    assert.deepEqual(ended.backgroundWork, [shell]);
  });
  it('movableChanged, changesetsChanged and canvasesChanged set and clear', () => {
    const s = chat();
    const m = run(s, 'chat/movableChanged', { movable: true });
    assert.equal(m.movable, true);
    assert.equal(run(m, 'chat/movableChanged', { movable: true }), m);
    assert.equal(run(s, 'chat/movableChanged', { movable: 'yes' }), s);
    const cs = run(s, 'chat/changesetsChanged', { changesets: [{ uri: 'ahp-changeset:/1' }] });
    assert.deepEqual(cs.changesets, [{ uri: 'ahp-changeset:/1' }]);
    assert.equal('changesets' in run(cs, 'chat/changesetsChanged', {}), false);
    assert.equal(run(s, 'chat/changesetsChanged', {}), s);
    assert.equal(run(s, 'chat/changesetsChanged', { changesets: 'x' }), s);
    const cv = run(s, 'chat/canvasesChanged', { canvases: [{ resource: 'ahp-canvas:/1' }] });
    assert.deepEqual(cv.canvases, [{ resource: 'ahp-canvas:/1' }]);
    assert.equal('canvases' in run(cv, 'chat/canvasesChanged', { canvases: null }), false);
  });
  it('activityChanged, isReadChanged and isArchivedChanged (already modelled) still behave', () => {
    const s = run(chat(), 'chat/activityChanged', { activity: 'Reading files' });
    assert.equal(s.activity, 'Reading files');
    assert.equal('activity' in run(s, 'chat/activityChanged', {}), false);
    assert.equal(run(s, 'chat/isArchivedChanged', { isArchived: true }).status & SessionStatus.IsArchived, SessionStatus.IsArchived);
  });
});

describe('session artifacts (1.1.0)', () => {
  const session = (): SessionState => ({ provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [] });
  const art = (uri: string, label = uri) => ({ type: 'resource', uri, label, relations: [] });
  it('artifactSet upserts by uri; artifactRemoved removes (the key goes with the last); unknowns are no-ops', () => {
    let s = sessionReducer(session(), { type: 'session/artifactSet', artifact: art('ahp-content:/a') } as never);
    s = sessionReducer(s, { type: 'session/artifactSet', artifact: art('ahp-content:/b') } as never);
    s = sessionReducer(s, { type: 'session/artifactSet', artifact: art('ahp-content:/a', 'Report') } as never);
    assert.deepEqual(s.artifacts?.map((a) => a.label), ['Report', 'ahp-content:/b']);
    assert.equal(sessionReducer(s, { type: 'session/artifactRemoved', uri: 'ahp-content:/zz' } as never), s);
    assert.equal(sessionReducer(s, { type: 'session/artifactSet', artifact: { uri: 'x' } } as never), s);
    const one = sessionReducer(s, { type: 'session/artifactRemoved', uri: 'ahp-content:/a' } as never);
    assert.equal('artifacts' in sessionReducer(one, { type: 'session/artifactRemoved', uri: 'ahp-content:/b' } as never), false);
    // Unknown artifact types are kept as they came.
    const future = sessionReducer(session(), { type: 'session/artifactSet', artifact: { type: 'x-bundle', uri: 'u', parts: [1] } } as never);
    assert.deepEqual(future.artifacts, [{ type: 'x-bundle', uri: 'u', parts: [1] }]);
  });
});

describe('rootReducer', () => {
  const root = (): RootState => ({ agents: [], activeSessions: 0 });
  it('agentsChanged, activeSessionsChanged, terminalsChanged replace; configChanged merges only with a config', () => {
    const agents = [{ provider: 'p', displayName: 'P', description: 'd', models: [] }];
    const s = rootReducer(root(), { type: 'root/agentsChanged', agents } as never);
    assert.equal(s.agents, agents);
    assert.equal(rootReducer(s, { type: 'root/activeSessionsChanged', activeSessions: 2 } as never).activeSessions, 2);
    assert.deepEqual(rootReducer(s, { type: 'root/terminalsChanged', terminals: [{ resource: 'ahp-terminal:/1' }] } as never).terminals, [{ resource: 'ahp-terminal:/1' }]);
    assert.equal(rootReducer(s, { type: 'root/configChanged', config: { a: 1 } } as never), s);
    const withConfig = { ...s, config: { values: { a: 1, b: 2 } } };
    assert.deepEqual(rootReducer(withConfig, { type: 'root/configChanged', config: { a: 3 } } as never).config?.values, { a: 3, b: 2 });
    assert.deepEqual(rootReducer(withConfig, { type: 'root/configChanged', config: { a: 3 }, replace: true } as never).config?.values, { a: 3 });
  });
  it('garbage and unknown actions return the same state', () => {
    const s = root();
    for (const a of [{ type: 'root/agentsChanged', agents: 'x' }, { type: 'root/agentsChanged', agents: [null] }, { type: 'root/activeSessionsChanged', activeSessions: '2' },
      { type: 'root/x-new' }, { type: 'session/titleChanged', title: 'x' }, null, 7]) {
      assert.equal(rootReducer(s, a as never), s);
    }
  });
});

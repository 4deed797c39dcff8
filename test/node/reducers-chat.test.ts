import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStatus, type ChatState } from '../../src/protocol/index.js';
import { chatReducer, toolCallNeedsInput } from '../../src/reducers/index.js';

type A = Record<string, unknown>;
const T = 't1';
const msg = { text: 'hi', origin: { kind: 'user' } };
const ACTIVITY = 31;

function chat(extra: Partial<ChatState> = {}): ChatState {
  return { resource: 'ahp-chat:/c', title: 'C', status: SessionStatus.Idle | SessionStatus.IsRead, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [], ...extra };
}
const fold = (s: ChatState, ...actions: A[]) => actions.reduce<ChatState>((acc, a) => chatReducer(acc, a as never), s);
const started = (extra: Partial<ChatState> = {}) => fold(chat(extra), { type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T10:00:00.000Z', message: msg });
const tcAction = (type: string, toolCallId: string, extra: A = {}) => ({ type, turnId: T, toolCallId, ...extra });
const start = (id: string, contributor?: A) => tcAction('chat/toolCallStart', id, { toolName: 'read', displayName: 'Read', ...(contributor ? { contributor } : {}) });
const toolCall = (s: ChatState, id: string) => {
  const parts = s.activeTurn?.responseParts ?? s.turns.at(-1)?.responseParts ?? [];
  const part = parts.find((p) => p.kind === 'toolCall' && p.toolCall.toolCallId === id);
  return part?.kind === 'toolCall' ? (part.toolCall as unknown as A) : undefined;
};
const activity = (s: ChatState) => s.status & ACTIVITY;
const mcp = { kind: 'mcp', customizationId: 'srv' };
const auth = { reason: 'required', resource: { resource: 'https://mcp.example/' } };
const result = (success = true, extra: A = {}) => ({ success, pastTenseMessage: 'Read it', ...extra });

describe('chatReducer: garbage and unknown', () => {
  it('returns the same state', () => {
    const s = started();
    for (const a of [{ type: 'chat/x-new' }, { type: 'session/titleChanged', title: 'x' }, { type: 3 }, null, 'chat/delta', { type: 'toString' }]) {
      assert.equal(chatReducer(s, a as never), s);
    }
    assert.equal(chatReducer(null as never, { type: 'chat/delta' }), null);
  });
});

describe('turns', () => {
  it('turnStarted opens a turn, sets InProgress, clears IsRead, sets modifiedAt', () => {
    const s = started();
    assert.equal(s.activeTurn?.id, T);
    assert.deepEqual(s.activeTurn?.responseParts, []);
    assert.equal(s.status, SessionStatus.InProgress);
    assert.equal(s.modifiedAt, '2026-02-01T10:00:00.000Z');
  });
  it('turnStarted is a no-op for an active or finished turn id, another active turn and garbage', () => {
    const s = started();
    assert.equal(chatReducer(s, { type: 'chat/turnStarted', turnId: T, startedAt: 'x', message: msg } as never), s);
    assert.equal(chatReducer(s, { type: 'chat/turnStarted', turnId: 't2', startedAt: 'x', message: msg } as never), s);
    const done = fold(s, { type: 'chat/turnComplete', turnId: T, duration: 5 });
    assert.equal(chatReducer(done, { type: 'chat/turnStarted', turnId: T, startedAt: 'x', message: msg } as never), done);
    const c = chat();
    assert.equal(chatReducer(c, { type: 'chat/turnStarted', turnId: T, startedAt: 'x' } as never), c);
  });
  it('turnStarted consumes the queued or steering message', () => {
    const queued = fold(chat({ queuedMessages: [{ id: 'q1', message: msg }, { id: 'q2', message: msg }] as never }), { type: 'chat/turnStarted', turnId: T, startedAt: 'x', message: msg, queuedMessageId: 'q1' });
    assert.deepEqual(queued.queuedMessages, [{ id: 'q2', message: msg }]);
    const steering = fold(chat({ steeringMessage: { id: 's1', message: msg } as never }), { type: 'chat/turnStarted', turnId: T, startedAt: 'x', message: msg, queuedMessageId: 's1' });
    assert.equal('steeringMessage' in steering, false);
  });
  it('delta and reasoning grow their parts; wrong ids are no-ops', () => {
    const s = fold(started(),
      { type: 'chat/responsePart', turnId: T, part: { kind: 'markdown', id: 'm', content: 'Hel' } },
      { type: 'chat/responsePart', turnId: T, part: { kind: 'reasoning', id: 'r', content: 'hm' } },
      { type: 'chat/delta', turnId: T, partId: 'm', content: 'lo' },
      { type: 'chat/reasoning', turnId: T, partId: 'r', content: 'm' });
    assert.deepEqual(s.activeTurn?.responseParts, [{ kind: 'markdown', id: 'm', content: 'Hello' }, { kind: 'reasoning', id: 'r', content: 'hmm' }]);
    assert.equal(chatReducer(s, { type: 'chat/delta', turnId: 'other', partId: 'm', content: 'x' } as never), s);
    assert.equal(chatReducer(s, { type: 'chat/delta', turnId: T, partId: 'r', content: 'x' } as never), s);
    assert.equal(chatReducer(s, { type: 'chat/delta', turnId: T, partId: 'nope', content: 'x' } as never), s);
    const withTool = fold(s, start('c1'));
    assert.equal(chatReducer(withTool, { type: 'chat/delta', turnId: T, partId: 'c1', content: 'x' } as never), withTool);
  });
  it('responsePart ignores error and toolCall parts; usage sets usage', () => {
    const s = started();
    assert.equal(chatReducer(s, { type: 'chat/responsePart', turnId: T, part: { kind: 'error', error: { errorType: 'x', message: 'y' } } } as never), s);
    assert.equal(chatReducer(s, { type: 'chat/responsePart', turnId: T, part: { kind: 'toolCall', toolCall: {} } } as never), s);
    assert.deepEqual(fold(s, { type: 'chat/usage', turnId: T, usage: { inputTokens: 3 } }).activeTurn?.usage, { inputTokens: 3 });
  });
  it('an open inputRequest part raises InputNeeded', () => {
    const s = fold(started(), { type: 'chat/responsePart', turnId: T, part: { kind: 'inputRequest', request: { id: 'q' } } });
    assert.equal(activity(s), SessionStatus.InputNeeded);
  });
  it('turnComplete moves the turn, clamps duration, derives modifiedAt and sets Idle', () => {
    const s = fold(started(), { type: 'chat/turnComplete', turnId: T, duration: 1500 });
    assert.equal(s.activeTurn, undefined);
    assert.equal('activeTurn' in s, false);
    assert.deepEqual(s.turns.map((t) => [t.id, t.state, t.duration]), [[T, 'complete', 1500]]);
    assert.equal(s.modifiedAt, '2026-02-01T10:00:01.500Z');
    assert.equal(s.status, SessionStatus.Idle);
    const negative = fold(started(), { type: 'chat/turnCancelled', turnId: T, duration: -5 });
    assert.equal(negative.turns[0]?.duration, 0);
    assert.equal(negative.turns[0]?.state, 'cancelled');
  });
  it('chat/error appends the error part and sets the Error activity', () => {
    const part = { kind: 'error', error: { errorType: 'x', message: 'y' }, resumable: true };
    const s = fold(started(), { type: 'chat/error', turnId: T, duration: 1, part });
    assert.equal(s.turns[0]?.state, 'error');
    assert.deepEqual(s.turns[0]?.responseParts.at(-1), part);
    assert.equal(activity(s), SessionStatus.Error);
  });
  it('turn end is a no-op for a wrong turn id or garbage duration', () => {
    const s = started();
    assert.equal(chatReducer(s, { type: 'chat/turnComplete', turnId: 'x', duration: 1 } as never), s);
    assert.equal(chatReducer(s, { type: 'chat/turnComplete', turnId: T, duration: 'long' } as never), s);
    assert.equal(chatReducer(s, { type: 'chat/error', turnId: T, duration: 1, part: null } as never), s);
  });
  it('turn end force-cancels every unfinished tool call as skipped', () => {
    const s = fold(started(),
      start('streaming'), tcAction('chat/toolCallDelta', 'streaming', { content: '{"a"' }),
      start('running'), tcAction('chat/toolCallReady', 'running', { invocationMessage: 'Run', toolInput: '{}', confirmed: 'not-needed' }),
      start('pending'), tcAction('chat/toolCallReady', 'pending', { invocationMessage: 'Ask', toolInput: '{}' }),
      start('done'), tcAction('chat/toolCallReady', 'done', { invocationMessage: 'Do', confirmed: 'setting' }), tcAction('chat/toolCallComplete', 'done', { result: result() }),
      { type: 'chat/turnComplete', turnId: T, duration: 10 });
    assert.deepEqual(toolCall(s, 'streaming'), { toolCallId: 'streaming', toolName: 'read', displayName: 'Read', invocationMessage: '', status: 'cancelled', reason: 'skipped' });
    assert.deepEqual(toolCall(s, 'running'), { toolCallId: 'running', toolName: 'read', displayName: 'Read', invocationMessage: 'Run', toolInput: '{}', status: 'cancelled', reason: 'skipped' });
    assert.equal(toolCall(s, 'pending')?.reason, 'skipped');
    assert.equal(toolCall(s, 'done')?.status, 'completed');
  });
});

describe('tool-call lifecycle', () => {
  it('start → delta → ready → confirmed → contentChanged → complete', () => {
    let s = fold(started(), start('c1'));
    assert.deepEqual(toolCall(s, 'c1'), { toolCallId: 'c1', toolName: 'read', displayName: 'Read', status: 'streaming' });
    s = fold(s, tcAction('chat/toolCallDelta', 'c1', { content: '{"pa' }), tcAction('chat/toolCallDelta', 'c1', { content: 'th":1}', invocationMessage: 'Reading' }));
    assert.equal(toolCall(s, 'c1')?.partialInput, '{"path":1}');
    assert.equal(toolCall(s, 'c1')?.invocationMessage, 'Reading');
    const options = [{ id: 'ok', label: 'Allow', kind: 'approve' }, { id: 'no', label: 'Deny', kind: 'deny' }];
    s = fold(s, tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'Read a', toolInput: '{"path":1}', options }));
    assert.equal(toolCall(s, 'c1')?.status, 'pending-confirmation');
    assert.equal('partialInput' in toolCall(s, 'c1')!, false);
    assert.equal(activity(s), SessionStatus.InputNeeded);
    s = fold(s, tcAction('chat/toolCallConfirmed', 'c1', { approved: true, confirmed: 'user-action', selectedOptionId: 'ok' }));
    assert.equal(toolCall(s, 'c1')?.status, 'running');
    assert.deepEqual(toolCall(s, 'c1')?.selectedOption, options[0]);
    assert.equal(activity(s), SessionStatus.InProgress);
    s = fold(s, tcAction('chat/toolCallContentChanged', 'c1', { content: [{ type: 'text', text: 'partial' }] }));
    assert.deepEqual(toolCall(s, 'c1')?.content, [{ type: 'text', text: 'partial' }]);
    s = fold(s, tcAction('chat/toolCallComplete', 'c1', { result: result(true, { content: [{ type: 'text', text: 'all' }] }) }));
    assert.deepEqual(toolCall(s, 'c1'), {
      toolCallId: 'c1', toolName: 'read', displayName: 'Read', invocationMessage: 'Read a', toolInput: '{"path":1}',
      confirmed: 'user-action', selectedOption: options[0], content: [{ type: 'text', text: 'all' }], success: true, pastTenseMessage: 'Read it', status: 'completed',
    });
  });
  it('ready with confirmed goes straight to running', () => {
    const s = fold(started(), start('c1'), tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'Go', confirmed: 'not-needed' }));
    assert.equal(toolCall(s, 'c1')?.status, 'running');
    assert.equal(toolCall(s, 'c1')?.confirmed, 'not-needed');
    assert.equal(activity(s), SessionStatus.InProgress);
  });
  it('re-ready keeps pending fields and input; re-confirmation from running', () => {
    const s1 = fold(started(), start('c1'), tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'A', toolInput: 'in', confirmationTitle: 'Sure?', editable: true }));
    const s2 = fold(s1, tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'B' }));
    assert.deepEqual([toolCall(s2, 'c1')?.confirmationTitle, toolCall(s2, 'c1')?.editable, toolCall(s2, 'c1')?.toolInput], ['Sure?', true, 'in']);
    const running = fold(s2, tcAction('chat/toolCallConfirmed', 'c1', { approved: true, confirmed: 'user-action' }));
    const again = fold(running, tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'C' }));
    assert.equal(toolCall(again, 'c1')?.status, 'pending-confirmation');
    assert.equal(toolCall(again, 'c1')?.toolInput, 'in');
    assert.equal(toolCall(again, 'c1')?.confirmationTitle, undefined);
  });
  it('ready refines contributors but never makes a call client-owned', () => {
    const client = { kind: 'client', clientId: 'me' };
    const s1 = fold(started(), start('c1', client), tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'x', contributor: mcp }));
    assert.deepEqual(toolCall(s1, 'c1')?.contributor, client);
    const s2 = fold(started(), start('c2'), tcAction('chat/toolCallReady', 'c2', { invocationMessage: 'x', contributor: client }));
    assert.equal(toolCall(s2, 'c2')?.contributor, undefined);
    const s3 = fold(started(), start('c3'), tcAction('chat/toolCallReady', 'c3', { invocationMessage: 'x', contributor: mcp, intention: 'look' }));
    assert.deepEqual(toolCall(s3, 'c3')?.contributor, mcp);
    assert.equal(toolCall(s3, 'c3')?.intention, 'look');
  });
  it('editedToolInput replaces inline string input only', () => {
    const ask = (toolInput: unknown) => fold(started(), start('c1'), tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'x', toolInput }));
    const edited = fold(ask('old'), tcAction('chat/toolCallConfirmed', 'c1', { approved: true, confirmed: 'user-action', editedToolInput: 'new' }));
    assert.equal(toolCall(edited, 'c1')?.toolInput, 'new');
    const ref = { uri: 'ahp-content:/1' };
    const kept = fold(ask(ref), tcAction('chat/toolCallConfirmed', 'c1', { approved: true, confirmed: 'user-action', editedToolInput: 'new' }));
    assert.deepEqual(toolCall(kept, 'c1')?.toolInput, ref);
  });
  it('denied goes to cancelled', () => {
    const s = fold(started(), start('c1'), tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'x' }),
      tcAction('chat/toolCallConfirmed', 'c1', { approved: false, reason: 'denied', reasonMessage: 'no thanks' }));
    assert.deepEqual([toolCall(s, 'c1')?.status, toolCall(s, 'c1')?.reason, toolCall(s, 'c1')?.reasonMessage], ['cancelled', 'denied', 'no thanks']);
    assert.equal(activity(s), SessionStatus.InProgress);
  });
  it('complete from pending-confirmation is not-needed; result confirmation approve and deny', () => {
    const pending = fold(started(), start('c1'), tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'x' }));
    const done = fold(pending, tcAction('chat/toolCallComplete', 'c1', { result: result() }));
    assert.deepEqual([toolCall(done, 'c1')?.status, toolCall(done, 'c1')?.confirmed], ['completed', 'not-needed']);
    const review = fold(pending, tcAction('chat/toolCallComplete', 'c1', { result: result(), requiresResultConfirmation: true }));
    assert.equal(toolCall(review, 'c1')?.status, 'pending-result-confirmation');
    assert.equal(activity(review), SessionStatus.InputNeeded);
    assert.equal(toolCall(fold(review, tcAction('chat/toolCallResultConfirmed', 'c1', { approved: true })), 'c1')?.status, 'completed');
    const denied = fold(review, tcAction('chat/toolCallResultConfirmed', 'c1', { approved: false }));
    assert.deepEqual([toolCall(denied, 'c1')?.status, toolCall(denied, 'c1')?.reason], ['cancelled', 'result-denied']);
  });
  it('auth-required: only a running MCP call; resolved back to running; only a failed completion ends it', () => {
    const running = fold(started(), start('c1', mcp), tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'x', confirmed: 'setting' }),
      tcAction('chat/toolCallContentChanged', 'c1', { content: [{ type: 'text', text: 'pre' }] }));
    const blocked = fold(running, tcAction('chat/toolCallAuthRequired', 'c1', { auth }));
    assert.equal(toolCall(blocked, 'c1')?.status, 'auth-required');
    assert.deepEqual(toolCall(blocked, 'c1')?.auth, auth);
    assert.equal(toolCall(blocked, 'c1')?.confirmed, 'setting');
    assert.equal(activity(blocked), SessionStatus.InputNeeded);
    const resolved = fold(blocked, tcAction('chat/toolCallAuthResolved', 'c1'));
    assert.equal(toolCall(resolved, 'c1')?.status, 'running');
    assert.equal('auth' in toolCall(resolved, 'c1')!, false);
    assert.equal(activity(resolved), SessionStatus.InProgress);
    assert.equal(chatReducer(blocked, tcAction('chat/toolCallComplete', 'c1', { result: result(true) }) as never), blocked);
    const cancelled = fold(blocked, tcAction('chat/toolCallComplete', 'c1', { result: result(false, { error: { message: 'no', code: 'cancelled' } }), requiresResultConfirmation: true }));
    assert.equal(toolCall(cancelled, 'c1')?.status, 'completed');
    assert.deepEqual(toolCall(cancelled, 'c1')?.content, [{ type: 'text', text: 'pre' }]);
    const nonMcp = fold(started(), start('c2'), tcAction('chat/toolCallReady', 'c2', { invocationMessage: 'x', confirmed: 'setting' }));
    assert.equal(chatReducer(nonMcp, tcAction('chat/toolCallAuthRequired', 'c2', { auth }) as never), nonMcp);
  });
  it('_meta on an action replaces the tool call _meta', () => {
    const s = fold(started(), tcAction('chat/toolCallStart', 'c1', { toolName: 'a', displayName: 'A', _meta: { ui: { resourceUri: 'ui://x' } } }),
      tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'x', _meta: { other: 1 } }));
    assert.deepEqual(toolCall(s, 'c1')?._meta, { other: 1 });
  });
  it('wrong turn, unknown id, wrong status and garbage are no-ops', () => {
    const s = fold(started(), start('c1'));
    const same = (a: A) => assert.equal(chatReducer(s, a as never), s, JSON.stringify(a));
    same(tcAction('chat/toolCallDelta', 'nope', { content: 'x' }));
    same({ ...tcAction('chat/toolCallDelta', 'c1', { content: 'x' }), turnId: 'other' });
    same({ ...start('c9'), turnId: 'other' });
    same(tcAction('chat/toolCallStart', 'c9', { toolName: 3 }));
    same(tcAction('chat/toolCallConfirmed', 'c1', { approved: true, confirmed: 'user-action' }));
    same(tcAction('chat/toolCallComplete', 'c1', { result: result() }));
    same(tcAction('chat/toolCallResultConfirmed', 'c1', { approved: true }));
    same(tcAction('chat/toolCallContentChanged', 'c1', { content: [] }));
    same(tcAction('chat/toolCallAuthResolved', 'c1'));
    same(tcAction('chat/toolCallReady', 'c1', { invocationMessage: 5 }));
    same(tcAction('chat/toolCallDelta', 'c1', {}));
    const pending = fold(s, tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'x' }));
    assert.equal(chatReducer(pending, tcAction('chat/toolCallConfirmed', 'c1', { approved: false, reason: 'x-bored' }) as never), pending);
    assert.equal(chatReducer(pending, tcAction('chat/toolCallComplete', 'c1', { result: 'ok' }) as never), pending);
    assert.equal(chatReducer(pending, tcAction('chat/toolCallDelta', 'c1', { content: 'x' }) as never), pending);
    const done = fold(pending, tcAction('chat/toolCallComplete', 'c1', { result: result() }));
    assert.equal(chatReducer(done, tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'again' }) as never), done);
  });
  it('finds a tool call by its id among parts only shaped like one, and changes the first of two calls with the same id', () => {
    const lookalike = { kind: 'markdown', id: 'm', content: '', toolCall: { toolCallId: 'c1', status: 'streaming' } };
    const s = fold(started(), { type: 'chat/responsePart', turnId: T, part: lookalike }, start('c1'), start('c1'));
    const next = fold(s, tcAction('chat/toolCallDelta', 'c1', { content: 'y' }));
    const parts = next.activeTurn!.responseParts as unknown as { toolCall: A }[];
    assert.equal(parts[0], s.activeTurn!.responseParts[0], 'the markdown part that carries a toolCall key is not a tool call');
    assert.equal(parts[1]!.toolCall.partialInput, 'y', 'toolCallStart is not deduplicated: the first call with the id changes');
    assert.equal(parts[2], s.activeTurn!.responseParts[2], 'the second call with the same id stays as it was');
  });
  it('toolCallNeedsInput: the three statuses that wait for the user, nothing else', () => {
    for (const status of ['pending-confirmation', 'pending-result-confirmation', 'auth-required']) assert.equal(toolCallNeedsInput({ status }), true, status);
    for (const tc of [{ status: 'running' }, { status: 'streaming' }, { status: 'completed' }, { status: 'cancelled' }, {}, null, 'pending-confirmation', ['auth-required']]) {
      assert.equal(toolCallNeedsInput(tc), false, JSON.stringify(tc));
    }
  });
  it('keeps unrelated parts and previous turns by identity', () => {
    const s = fold(started(), { type: 'chat/responsePart', turnId: T, part: { kind: 'markdown', id: 'm', content: 'x' } }, start('c1'));
    const next = fold(s, tcAction('chat/toolCallDelta', 'c1', { content: 'y' }));
    assert.equal(next.activeTurn?.responseParts[0], s.activeTurn?.responseParts[0]);
    assert.equal(next.turns, s.turns);
  });
});

describe('tool-call structural sharing', () => {
  const partOf = (s: ChatState, id: string) => s.activeTurn?.responseParts.find((p) => p.kind === 'toolCall' && p.toolCall.toolCallId === id);
  it('every tool-call action keeps the other tool calls (and their parts) by identity', () => {
    let s = fold(started(), start('a', mcp), start('b', mcp));
    const steps: A[] = [
      tcAction('chat/toolCallDelta', 'a', { content: '{' }),
      tcAction('chat/toolCallReady', 'a', { invocationMessage: 'x' }),
      tcAction('chat/toolCallConfirmed', 'a', { approved: true, confirmed: 'user-action' }),
      tcAction('chat/toolCallContentChanged', 'a', { content: [] }),
      tcAction('chat/toolCallAuthRequired', 'a', { auth }),
      tcAction('chat/toolCallAuthResolved', 'a'),
      tcAction('chat/toolCallComplete', 'a', { result: result() }),
    ];
    for (const step of steps) {
      const next = fold(s, step);
      assert.notEqual(toolCall(next, 'a'), toolCall(s, 'a'), `${String(step.type)} changes a`);
      assert.equal(toolCall(next, 'b'), toolCall(s, 'b'), `${String(step.type)} keeps b`);
      assert.equal(partOf(next, 'b'), partOf(s, 'b'));
      s = next;
    }
  });
  it('turn end keeps finished tool calls by identity and replaces only open ones', () => {
    const s = fold(started(), start('done'), tcAction('chat/toolCallReady', 'done', { invocationMessage: 'x', confirmed: 'setting' }),
      tcAction('chat/toolCallComplete', 'done', { result: result() }), start('open'));
    const ended = fold(s, { type: 'chat/turnComplete', turnId: T, duration: 1 });
    assert.equal(toolCall(ended, 'done'), toolCall(s, 'done'));
    assert.notEqual(toolCall(ended, 'open'), toolCall(s, 'open'));
  });
  it('a result cannot rename or re-own the tool call', () => {
    const s = fold(started(), start('c1', mcp), tcAction('chat/toolCallReady', 'c1', { invocationMessage: 'x', confirmed: 'setting' }),
      tcAction('chat/toolCallComplete', 'c1', { result: result(true, { toolCallId: 'evil', contributor: { kind: 'client', clientId: 'x' }, extra: 'kept' }) }));
    const tc = s.activeTurn?.responseParts[0];
    assert.ok(tc?.kind === 'toolCall');
    assert.equal(tc.toolCall.toolCallId, 'c1');
    assert.deepEqual(tc.toolCall.contributor, mcp);
    assert.equal((tc.toolCall as unknown as A).extra, 'kept');
    assert.equal(tc.toolCall.status, 'completed');
  });
});

describe('chat flags', () => {
  it('isRead, isArchived and activity', () => {
    const s = chat({ status: SessionStatus.Idle | 1024 });
    assert.equal(fold(s, { type: 'chat/isReadChanged', isRead: true }).status, SessionStatus.Idle | 1024 | SessionStatus.IsRead);
    assert.equal(fold(s, { type: 'chat/isArchivedChanged', isArchived: true }).status, SessionStatus.Idle | 1024 | SessionStatus.IsArchived);
    assert.equal(chatReducer(s, { type: 'chat/isReadChanged', isRead: 'y' } as never), s);
    assert.equal(fold(s, { type: 'chat/activityChanged', activity: 'Reading' }).activity, 'Reading');
    assert.equal(chatReducer(s, { type: 'chat/activityChanged' } as never), s);
  });
});

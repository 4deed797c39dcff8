import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionEnvelope, AnyAction, DispatchActionParams, McpServerCustomization, SessionState } from '../../src/protocol/index.js';
import { findMcpServer } from '../../src/reducers/index.js';
import { SessionStore, type ActionFailure } from '../../src/store/index.js';

const CHANNEL = 'ahp-session:/s1';
const ME = 'client-me';

const server = (id: string, kind: string): McpServerCustomization => ({ type: 'mcpServer', id, uri: `file:///${id}`, name: id, state: { kind } as McpServerCustomization['state'] });
function sessionState(): SessionState {
  return {
    provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [],
    customizations: [server('a', 'ready'), { type: 'plugin', id: 'plug', uri: 'x:/', name: 'P', children: [server('b', 'starting')] }],
  };
}

function setup(opts: { pendingTimeoutMs?: number; send?: (p: DispatchActionParams) => void } = {}) {
  const sent: DispatchActionParams[] = [];
  const failures: ActionFailure[] = [];
  let seq = 0;
  const store = new SessionStore({
    channel: CHANNEL, clientId: ME, nextClientSeq: () => ++seq,
    send: opts.send ?? ((p) => void sent.push(p)),
    ...(opts.pendingTimeoutMs !== undefined ? { pendingTimeoutMs: opts.pendingTimeoutMs } : {}),
  });
  store.onActionFailed((f) => void failures.push(f));
  let changes = 0;
  store.subscribe(() => void changes++);
  return { store, sent, failures, changes: () => changes };
}
const loaded = (opts?: Parameters<typeof setup>[0], fromSeq = 10) => {
  const t = setup(opts);
  t.store.loadSnapshot({ resource: CHANNEL, state: sessionState(), fromSeq });
  return t;
};
const env = (serverSeq: number, action: AnyAction, extra: Partial<ActionEnvelope> = {}): ActionEnvelope => ({ channel: CHANNEL, serverSeq, action, ...extra });
const stateOf = (s: SessionState | undefined, id: string) => findMcpServer(s, id)?.state.kind;
const stop = (id: string) => ({ type: 'session/mcpServerStopRequested', id });
const changed = (id: string, kind: string) => ({ type: 'session/mcpServerStateChanged', id, state: { kind } });

describe('SessionStore snapshot and envelopes', () => {
  it('has no state before the snapshot, then the snapshot state', () => {
    const { store, changes } = setup();
    assert.equal(store.getState(), undefined);
    const state = sessionState();
    store.loadSnapshot({ resource: CHANNEL, state, fromSeq: 4 });
    assert.equal(store.getState(), state);
    assert.equal(store.getConfirmedState(), state);
    assert.equal(store.getCursor(), 4);
    assert.equal(changes(), 1);
  });
  it('ignores snapshots and envelopes for other channels', () => {
    const { store } = loaded();
    const before = store.getState();
    store.loadSnapshot({ resource: 'ahp-session:/other', state: { ...sessionState(), title: 'X' }, fromSeq: 1 });
    store.receive({ ...env(11, { type: 'session/titleChanged', title: 'X' }), channel: 'ahp-session:/other' });
    assert.equal(store.getState(), before);
    assert.equal(store.getCursor(), 10);
  });
  it('drops envelopes at or below the cursor and applies later ones once', () => {
    const { store, changes } = loaded();
    const before = store.getState();
    store.receive(env(9, { type: 'session/titleChanged', title: 'old' }));
    store.receive(env(10, { type: 'session/titleChanged', title: 'old' }));
    assert.equal(store.getState(), before);
    assert.equal(changes(), 1);
    store.receive(env(11, { type: 'session/titleChanged', title: 'new' }));
    assert.equal(store.getState()?.title, 'new');
    store.receive(env(11, { type: 'session/titleChanged', title: 'again' }));
    assert.equal(store.getState()?.title, 'new');
    assert.equal(store.getCursor(), 11);
    assert.equal(changes(), 2);
  });
  it('buffers envelopes before the snapshot and applies those after fromSeq in order', () => {
    const { store } = setup();
    store.receive(env(12, { type: 'session/titleChanged', title: 'twelve' }));
    store.receive(env(5, { type: 'session/titleChanged', title: 'five' }));
    store.receive(env(11, { type: 'session/titleChanged', title: 'eleven' }));
    assert.equal(store.getState(), undefined);
    store.loadSnapshot({ resource: CHANNEL, state: sessionState(), fromSeq: 10 });
    assert.equal(store.getState()?.title, 'twelve');
    assert.equal(store.getCursor(), 12);
  });
  it('ignores garbage envelopes', () => {
    const { store } = loaded();
    const before = store.getState();
    store.receive(null as never);
    store.receive({ channel: CHANNEL, action: { type: 'session/titleChanged', title: 'x' } } as never);
    store.receive(env(11, null as never));
    assert.equal(store.getState()?.title, before?.title);
  });
});

describe('SessionStore dispatch and reconciliation', () => {
  it('applies a dispatch optimistically and sends it', () => {
    const { store, sent, changes } = loaded();
    const confirmed = store.getConfirmedState();
    const seq = store.dispatch(stop('a'));
    assert.equal(seq, 1);
    assert.deepEqual(sent, [{ channel: CHANNEL, clientSeq: 1, action: stop('a') }]);
    assert.equal(stateOf(store.getState(), 'a'), 'stopped');
    assert.equal(store.getConfirmedState(), confirmed);
    assert.equal(store.getPendingCount(), 1);
    assert.equal(changes(), 2);
  });
  it('own echo removes the pending entry and applies the echoed action', () => {
    const { store, failures } = loaded();
    const local = { type: 'session/customizationToggled', id: 'a', enablement: [{ kind: 'session', enabled: false }] };
    const seq = store.dispatch(local);
    const echoed = { ...local, enablement: [{ kind: 'session', enabled: false }, { kind: 'global', enabled: true }] };
    store.receive(env(11, echoed, { origin: { clientId: ME, clientSeq: seq } }));
    assert.equal(store.getPendingCount(), 0);
    assert.deepEqual(findMcpServer(store.getConfirmedState(), 'a')?.enablement, echoed.enablement);
    assert.equal(store.getState(), store.getConfirmedState());
    assert.deepEqual(failures, []);
  });
  it('rebases pending actions over foreign actions', () => {
    const { store } = loaded();
    const seq = store.dispatch(stop('a'));
    store.receive(env(11, changed('b', 'ready'), { origin: { clientId: 'someone-else', clientSeq: seq } }));
    assert.equal(store.getPendingCount(), 1, 'a foreign origin with the same clientSeq is not our echo');
    assert.equal(stateOf(store.getConfirmedState(), 'b'), 'ready');
    assert.equal(stateOf(store.getConfirmedState(), 'a'), 'ready');
    assert.equal(stateOf(store.getState(), 'a'), 'stopped');
    assert.equal(stateOf(store.getState(), 'b'), 'ready');
    store.receive(env(12, changed('a', 'error')));
    assert.equal(stateOf(store.getState(), 'a'), 'stopped', 'pending still folded on top');
    store.receive(env(13, stop('a'), { origin: { clientId: ME, clientSeq: seq } }));
    assert.equal(store.getPendingCount(), 0);
    assert.equal(stateOf(store.getState(), 'a'), 'stopped');
    assert.equal(store.getState(), store.getConfirmedState());
  });
  it('a pending action that no longer fits becomes a no-op', () => {
    const { store } = loaded();
    store.dispatch(stop('a'));
    store.receive(env(11, { type: 'session/customizationRemoved', id: 'a' }));
    assert.equal(findMcpServer(store.getState(), 'a'), undefined);
    assert.equal(store.getState(), store.getConfirmedState());
  });
  it('a rejected echo is not applied, reverts the view and reports the reason', () => {
    const { store, failures } = loaded();
    const confirmed = store.getConfirmedState();
    const seq = store.dispatch(stop('a'));
    store.receive(env(11, stop('a'), { origin: { clientId: ME, clientSeq: seq }, rejectionReason: 'server is locked' }));
    assert.equal(store.getPendingCount(), 0);
    assert.equal(store.getConfirmedState(), confirmed);
    assert.equal(store.getState(), confirmed);
    assert.equal(stateOf(store.getState(), 'a'), 'ready');
    assert.equal(store.getCursor(), 11);
    assert.deepEqual(failures, [{ kind: 'rejected', channel: CHANNEL, clientSeq: seq, action: stop('a'), reason: 'server is locked' }]);
  });
  it('a foreign rejected envelope is neither applied nor reported', () => {
    const { store, failures } = loaded();
    const before = store.getState();
    store.receive(env(11, stop('a'), { origin: { clientId: 'other', clientSeq: 1 }, rejectionReason: 'no' }));
    assert.equal(store.getState(), before);
    assert.deepEqual(failures, []);
  });
  it('an own echo skipped as overlap still removes the pending entry', () => {
    const { store, failures } = loaded();
    const seq = store.dispatch(stop('a'));
    store.receive(env(10, stop('a'), { origin: { clientId: ME, clientSeq: seq } }));
    assert.equal(store.getPendingCount(), 0);
    assert.equal(stateOf(store.getState(), 'a'), 'ready', 'the snapshot is authoritative; the overlapping echo is not re-applied');
    assert.deepEqual(failures, []);
  });
  it('times out a pending action without echo', async () => {
    const { store, failures, changes } = loaded({ pendingTimeoutMs: 15 });
    const seq = store.dispatch(stop('a'));
    assert.equal(stateOf(store.getState(), 'a'), 'stopped');
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(store.getPendingCount(), 0);
    assert.equal(stateOf(store.getState(), 'a'), 'ready');
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.kind, 'timeout');
    assert.equal(failures[0]?.clientSeq, seq);
    assert.match(failures[0]?.reason ?? '', /15 ms/);
    assert.equal(changes(), 3);
  });
  it('an echo in time cancels the timeout', async () => {
    const { store, failures } = loaded({ pendingTimeoutMs: 15 });
    const seq = store.dispatch(stop('a'));
    store.receive(env(11, stop('a'), { origin: { clientId: ME, clientSeq: seq } }));
    await new Promise((r) => setTimeout(r, 40));
    assert.deepEqual(failures, []);
  });
  it('refuses non-client-dispatchable actions with a TypeError', () => {
    const { store, sent } = loaded();
    assert.throws(() => store.dispatch(changed('a', 'ready')), (err: unknown) => err instanceof TypeError && /session\/mcpServerStateChanged/.test(err.message) && /client-dispatchable/.test(err.message));
    assert.throws(() => store.dispatch({ type: 'x-custom/thing' }), TypeError);
    assert.throws(() => store.dispatch(null as never), TypeError);
    assert.deepEqual(sent, []);
    assert.equal(store.getPendingCount(), 0);
  });
  it('a send that throws drops the action and reports it', () => {
    const { store, failures } = loaded({ send: () => { throw new Error('socket closed'); } });
    store.dispatch(stop('a'));
    assert.equal(store.getPendingCount(), 0);
    assert.equal(stateOf(store.getState(), 'a'), 'ready');
    assert.equal(failures[0]?.kind, 'dropped');
    assert.match(failures[0]?.reason ?? '', /socket closed/);
  });
  it('matches an echo delivered synchronously from send', () => {
    let store!: SessionStore;
    const t = setup({ send: (p) => store.receive(env(11, p.action as AnyAction, { origin: { clientId: ME, clientSeq: p.clientSeq } })) });
    store = t.store;
    store.loadSnapshot({ resource: CHANNEL, state: sessionState(), fromSeq: 10 });
    store.dispatch(stop('a'));
    assert.equal(store.getPendingCount(), 0);
    assert.equal(stateOf(store.getConfirmedState(), 'a'), 'stopped');
  });
  it('dropPending reports every pending action as dropped', () => {
    const { store, failures } = loaded();
    store.dispatch(stop('a'));
    store.dispatch(stop('b'));
    store.dropPending('reconnected');
    assert.equal(store.getPendingCount(), 0);
    assert.equal(store.getState(), store.getConfirmedState());
    assert.deepEqual(failures.map((f) => [f.kind, f.clientSeq, f.reason]), [['dropped', 1, 'reconnected'], ['dropped', 2, 'reconnected']]);
  });
  it('a dispatch before the snapshot stays pending and shows once the snapshot arrives', () => {
    const { store, sent } = setup();
    store.dispatch(stop('a'));
    assert.equal(sent.length, 1);
    assert.equal(store.getState(), undefined);
    store.loadSnapshot({ resource: CHANNEL, state: sessionState(), fromSeq: 1 });
    assert.equal(stateOf(store.getState(), 'a'), 'stopped');
  });
});

describe('SessionStore listeners', () => {
  it('subscribeMcpServer wakes only for the server that changed', () => {
    const { store } = loaded();
    const calls: Record<string, (string | undefined)[]> = { a: [], b: [] };
    store.subscribeMcpServer('a', (s) => void calls.a!.push(s?.state.kind));
    store.subscribeMcpServer('b', (s) => void calls.b!.push(s?.state.kind));
    store.receive(env(11, changed('b', 'ready')));
    assert.deepEqual(calls, { a: [], b: ['ready'] });
    const seq = store.dispatch(stop('a'));
    assert.deepEqual(calls, { a: ['stopped'], b: ['ready'] });
    store.receive(env(12, changed('b', 'error')));
    assert.deepEqual(calls, { a: ['stopped'], b: ['ready', 'error'] }, 'rebasing the pending stop does not wake a');
    store.receive(env(13, stop('a'), { origin: { clientId: ME, clientSeq: seq } }));
    assert.deepEqual(calls.a, ['stopped'], 'the echo confirms what was shown');
    store.receive(env(14, { type: 'session/titleChanged', title: 'x' }));
    store.receive(env(15, { type: 'session/customizationRemoved', id: 'a' }));
    assert.deepEqual(calls, { a: ['stopped', undefined], b: ['ready', 'error'] });
  });
  it('rebasing a pending toggle (which copies its enablement list) does not wake its server again', () => {
    const { store } = loaded();
    let wakeA = 0;
    store.subscribeMcpServer('a', () => void wakeA++);
    store.dispatch({ type: 'session/customizationToggled', id: 'a', enablement: [{ kind: 'session', enabled: false }] });
    assert.equal(wakeA, 1);
    for (let i = 0; i < 5; i++) store.receive(env(11 + i, changed('b', i % 2 ? 'ready' : 'error')));
    assert.equal(wakeA, 1);
  });
  it('subscribeMcpServer reports a server that appears, and stops after unsubscribe', () => {
    const { store } = loaded();
    const seen: (string | undefined)[] = [];
    const off = store.subscribeMcpServer('new', (s) => void seen.push(s?.name));
    store.receive(env(11, { type: 'session/customizationUpdated', customization: server('new', 'starting') }));
    assert.deepEqual(seen, ['new']);
    off();
    store.receive(env(12, changed('new', 'ready')));
    assert.deepEqual(seen, ['new']);
  });
  it('a throwing listener does not break the store or other listeners', () => {
    const { store } = loaded();
    const errors = mock.method(console, 'error', () => {});
    try {
      let other = 0;
      store.subscribe(() => { throw new Error('bad listener'); });
      store.subscribe(() => void other++);
      store.subscribeMcpServer('a', () => { throw new Error('bad server listener'); });
      store.onActionFailed(() => { throw new Error('bad failure listener'); });
      store.receive(env(11, changed('a', 'error')));
      assert.equal(other, 1);
      assert.equal(stateOf(store.getState(), 'a'), 'error');
      assert.equal(errors.mock.callCount(), 2);
    } finally {
      errors.mock.restore();
    }
  });
  it('notifies subscribe listeners once per change and not for no-ops', () => {
    const { store, changes } = loaded();
    store.receive(env(11, { type: 'session/x-unknown' }));
    store.receive(env(12, changed('nope', 'ready')));
    assert.equal(changes(), 1);
    store.receive(env(13, changed('a', 'error')));
    assert.equal(changes(), 2);
  });
  it('is state, selectors and dispatch only: no connection state, authenticate or mcp:// channel on it', () => {
    const { store } = setup();
    for (const name of ['getConnectionState', 'subscribeConnection', 'setConnectionState', 'authenticate', 'mcpChannel']) {
      assert.equal(name in store, false, name);
    }
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionEnvelope, AnyAction } from '../../src/protocol/index.js';
import { ChannelReconciler, type ActionFailure } from '../../src/store/index.js';

// A tiny channel whose state is a list of applied values: order and duplicates are visible.
interface Log { items: string[] }
const reducer = (s: Log, a: AnyAction): Log => (a.type === 'log/add' && typeof a.value === 'string' ? { items: [...s.items, a.value] } : s);
const add = (value: string): AnyAction => ({ type: 'log/add', value });
const CH = 'x-test:/log';

function make(mode?: 'idle' | 'awaiting' | 'loaded', pendingTimeoutMs = 1000) {
  const timeouts: ActionFailure[] = [];
  const r = new ChannelReconciler<Log>({ channel: CH, clientId: 'me', reducer, pendingTimeoutMs, onTimeout: (f) => void timeouts.push(f) }, mode);
  return { r, timeouts };
}
const env = (serverSeq: number, action: AnyAction, extra: Partial<ActionEnvelope> = {}): ActionEnvelope => ({ channel: CH, serverSeq, action, ...extra });
const view = (r: ChannelReconciler<Log>) => (r.refresh(), r.getState()?.items);

describe('ChannelReconciler', () => {
  it('folds pending actions over the confirmed state and rebases them onto foreign envelopes', () => {
    const { r } = make();
    r.loadSnapshot({ resource: CH, state: { items: ['s'] }, fromSeq: 5 });
    r.addPending(1, add('mine'));
    assert.deepEqual(view(r), ['s', 'mine']);
    r.receive(env(6, add('theirs')));
    assert.deepEqual(view(r), ['s', 'theirs', 'mine']);
    assert.deepEqual(r.getConfirmedState()?.items, ['s', 'theirs']);
    r.receive(env(7, add('mine-as-echoed'), { origin: { clientId: 'me', clientSeq: 1 } }));
    assert.deepEqual(view(r), ['s', 'theirs', 'mine-as-echoed']);
    assert.equal(r.pendingCount, 0);
    assert.equal(r.getCursor(), 7);
  });
  it('refresh reports a change only when the view changed identity', () => {
    const { r } = make();
    r.loadSnapshot({ resource: CH, state: { items: [] }, fromSeq: 0 });
    assert.equal(r.refresh().changed, true);
    assert.equal(r.refresh().changed, false);
    r.receive(env(1, { type: 'log/unknown' }));
    assert.equal(r.refresh().changed, false);
    const before = r.getState();
    r.receive(env(2, add('a')));
    const { changed, prev } = r.refresh();
    assert.equal(changed, true);
    assert.equal(prev, before);
  });
  it('idle: no state, envelopes ignored, own echoes still settle pending actions', () => {
    const { r } = make('idle');
    r.addPending(3, add('x'));
    assert.equal(r.receive(env(1, add('a'))), undefined);
    const failure = r.receive(env(2, add('x'), { origin: { clientId: 'me', clientSeq: 3 }, rejectionReason: 'no' }));
    assert.deepEqual(failure, { kind: 'rejected', channel: CH, clientSeq: 3, action: add('x'), reason: 'no' });
    assert.equal(r.pendingCount, 0);
    assert.equal(view(r), undefined);
    assert.equal(r.loadSnapshot({ resource: CH, state: { items: [] }, fromSeq: 0 }), false, 'idle ignores snapshots');
  });
  it('awaiting buffers until the snapshot; forget returns to idle and keeps pending', () => {
    const { r } = make('idle');
    r.expectSnapshot();
    r.receive(env(9, add('b')));
    r.receive(env(8, add('a')));
    r.receive(env(4, add('old')));
    r.loadSnapshot({ resource: CH, state: { items: [] }, fromSeq: 5 });
    assert.deepEqual(view(r), ['a', 'b']);
    r.addPending(1, add('p'));
    r.forget();
    assert.equal(r.getMode(), 'idle');
    assert.equal(view(r), undefined);
    assert.equal(r.getCursor(), 0);
    assert.equal(r.pendingCount, 1);
    r.dispose();
  });
  it('times pending actions out through onTimeout', async () => {
    const { r, timeouts } = make('loaded', 10);
    r.addPending(4, add('late'));
    await new Promise((res) => setTimeout(res, 30));
    assert.deepEqual(timeouts.map((f) => [f.kind, f.clientSeq, f.channel]), [['timeout', 4, CH]]);
    assert.equal(r.pendingCount, 0);
  });
  it('dropPending returns every pending action as dropped, in dispatch order', () => {
    const { r } = make('loaded');
    r.addPending(1, add('a'));
    r.addPending(2, add('b'));
    assert.deepEqual(r.dropPending('gone').map((f) => [f.kind, f.clientSeq, f.reason]), [['dropped', 1, 'gone'], ['dropped', 2, 'gone']]);
    assert.equal(r.pendingCount, 0);
  });
});

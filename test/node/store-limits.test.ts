import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../src/store/index.js';
import type { DispatchActionParams } from '../../src/protocol/index.js';

function store(limits?: { maxActionBytes?: number; maxMessageTextBytes?: number }) {
  const sent: DispatchActionParams[] = [];
  let seq = 0;
  const s = new SessionStore({ channel: 'ahp-session:/s', clientId: 'me', send: (p) => void sent.push(p), nextClientSeq: () => ++seq, ...(limits && { limits }) });
  return { s, sent };
}

const turn = (text: string) => ({ type: 'chat/turnStarted' as const, turnId: 't', startedAt: 'now', message: { text, origin: { kind: 'user' as const } } });

test('an action over the size limits is refused locally with a RangeError before anything is sent', () => {
  const { s, sent } = store();
  assert.throws(() => s.dispatch(turn('x'.repeat(50 * 1024 * 1024)), 'ahp-chat:/c'), (err: unknown) => err instanceof RangeError && /message text is 52428800 characters; the limit is 262144 bytes/.test(err.message));
  assert.throws(() => s.dispatch({ type: 'session/titleChanged', title: 't'.repeat(11 * 1024 * 1024) }), /"session\/titleChanged" is 11534\d+ characters; the limit is 10485760 bytes/);
  assert.deepEqual(sent, []);
  assert.equal(s.getPendingCount(), 0);
  s.dispatch(turn('x'.repeat(256 * 1024)), 'ahp-chat:/c');
  assert.equal(sent.length, 1, 'at the limit is sent');
});

test('the local limits are configurable', () => {
  const { s, sent } = store({ maxActionBytes: 200, maxMessageTextBytes: 10 });
  assert.throws(() => s.dispatch(turn('12345678901'), 'ahp-chat:/c'), RangeError);
  assert.throws(() => s.dispatch({ type: 'session/titleChanged', title: 'z'.repeat(200) }), RangeError);
  s.dispatch(turn('1234567890'), 'ahp-chat:/c');
  assert.equal(sent.length, 1);
});

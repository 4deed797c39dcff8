// The ahp-elements `reconnect` extension (pending clientSeqs asked, outcomes answered): parsing both sides' `_meta`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACTION_OUTCOMES_META_KEY, MAX_PENDING_ASKED, PENDING_ACTIONS_META_KEY, outcomesAnswered, pendingAsked } from '../../src/protocol/action-outcomes.js';

test('pendingAsked: positive integer clientSeqs, deduplicated and capped; anything else is no question', () => {
  assert.deepEqual(pendingAsked({ _meta: { [PENDING_ACTIONS_META_KEY]: [3, 1, 3, 0, -2, 1.5, '4', null, 2] } }), [3, 1, 2]);
  for (const params of [undefined, null, [], {}, { _meta: null }, { _meta: [] }, { _meta: { [PENDING_ACTIONS_META_KEY]: 'x' } }, { _meta: { other: [1] } }]) {
    assert.deepEqual(pendingAsked(params), [], JSON.stringify(params));
  }
  const many = Array.from({ length: MAX_PENDING_ASKED + 10 }, (_, i) => i + 1);
  assert.equal(pendingAsked({ _meta: { [PENDING_ACTIONS_META_KEY]: many } }).length, MAX_PENDING_ASKED);
});

test('outcomesAnswered: only well-formed outcomes for clientSeqs that were asked, first one wins', () => {
  const result = {
    channels: [],
    _meta: {
      [ACTION_OUTCOMES_META_KEY]: [
        { clientSeq: 1, outcome: 'applied' },
        { clientSeq: 1, outcome: 'rejected', reason: 'second answer for 1' },
        { clientSeq: 2, outcome: 'rejected', reason: 'too late' },
        { clientSeq: 3, outcome: 'ignored' },
        { clientSeq: 4, outcome: 'maybe' },
        { clientSeq: 9, outcome: 'applied' }, // never asked
        'garbage',
        null,
      ],
    },
  };
  assert.deepEqual(outcomesAnswered(result, [1, 2, 3, 4]), [
    { clientSeq: 1, outcome: 'applied' },
    { clientSeq: 2, outcome: 'rejected', reason: 'too late' },
    { clientSeq: 3, outcome: 'ignored', reason: 'refused by the host' },
  ]);
  for (const other of [{ channels: [] }, { type: 'snapshot', snapshots: [] }, { _meta: { [ACTION_OUTCOMES_META_KEY]: {} } }, null, 'x']) {
    assert.deepEqual(outcomesAnswered(other, [1]), [], 'a host without the extension answers nothing');
  }
});

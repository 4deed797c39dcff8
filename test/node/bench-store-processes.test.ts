import assert from 'node:assert/strict';
import { test } from 'node:test';
import { budgetLines } from '../bench/store-processes.js';

const OUTPUT = `
W2 20,000 tool-call lifecycles   reference (AHP_REFERENCE)    538,494 actions/s  4.22 MB
  W1, store, per envelope, a listener reads every change: 736,114/s = 1.30× the reference's 564,578/s (budget ≥ 1.0×): met
  W2, store, per envelope, a listener reads every change: 494,397/s = 0.92× the reference's 538,494/s (budget ≥ 1.0×): MISSED
  W3 at 10,000 servers, store, per envelope, a listener reads every change and its whole customizations list (no budget): 89,910/s = 6.75× the reference; slow-down from 1,000 servers 2.62× (not budget rows: the strict row's listener reads the state, not the list)
  W3 slow-down from 1,000 to 10,000 servers, store, bursts of 256: 1.44× (budget ≤ 1.5×): met
  W3 slow-down from 1,000 to 10,000 servers, reducers: 1.64× (budget ≤ 1.5×): MISSED
  W3 at 10,000 servers, final state memory, reducers: 1713 KB vs the reference's 2078 KB (budget ≤): met
`;

test('bench:store:processes reads every budget line of a bench:store run, and only those, with how each is judged', () => {
  const lines = budgetLines(OUTPUT);
  assert.deepEqual(
    lines.map((l) => [l.label, Number(l.value.toFixed(3))]),
    [
      ['W1, store, per envelope, a listener reads every change', 1.3],
      ['W2, store, per envelope, a listener reads every change', 0.92],
      ['W3 slow-down from 1,000 to 10,000 servers, store, bursts of 256', 1.44],
      ['W3 slow-down from 1,000 to 10,000 servers, reducers', 1.64],
      ["W3 at 10,000 servers, final state memory, reducers (share of the reference's)", 0.824],
    ],
  );
  assert.deepEqual(
    lines.map((l) => l.judge(l.value)),
    [true, false, true, false, true],
  );
  // A ratio line's budget is "at least", a slow-down's and memory's "at most".
  assert.equal(lines[0]!.judge(0.99), false);
  assert.equal(lines[2]!.judge(1.51), false);
  assert.equal(lines[4]!.judge(1.01), false);
});

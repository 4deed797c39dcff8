// The worker sends changes, not whole states: diffState/applyPatch over real reducer output (random action
// sequences from the fuzz helpers), through a structured clone as the page receives them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chatReducer, sessionReducer } from '../../src/reducers/index.js';
import type { ChatState, SessionState } from '../../src/protocol/index.js';
import { PatchMismatchError, applyPatch, diffState } from '../../src/worker/state-patch.js';
import { createRandom, initialFuzzChat, initialFuzzSession, randomChatAction, randomSessionAction } from './fuzz-helpers.js';

const STEPS = 3000;

describe('state patches', () => {
  for (const [name, initial, step] of [
    ['session', initialFuzzSession as () => unknown, (rnd: () => number, s: unknown) => sessionReducer(s as SessionState, randomSessionAction(rnd) as never)],
    ['chat', initialFuzzChat as () => unknown, (rnd: () => number, s: unknown) => chatReducer(s as ChatState, randomChatAction(rnd, s as ChatState) as never)],
  ] as const) {
    it(`${name}: applying the diff of each reducer step to the page's clone gives the worker's state (${STEPS} random steps)`, () => {
      const seed = Number(process.env.AHP_FUZZ_SEED ?? 4242);
      const rnd = createRandom(seed);
      let worker = initial();
      let page = structuredClone(worker);
      let patched = 0;
      for (let i = 0; i < STEPS; i++) {
        const next = step(rnd, worker);
        if (next === worker) continue;
        const ops = diffState(worker, next);
        assert.ok(ops, `a diff at step ${i} (seed ${seed})`);
        const before = page;
        page = applyPatch(page, structuredClone(ops));
        assert.deepEqual(page, next, `step ${i} (seed ${seed}): ${JSON.stringify(ops).slice(0, 300)}`);
        assert.deepEqual(before, structuredClone(before), 'the base is not changed in place');
        worker = next;
        patched++;
      }
      assert.ok(patched > STEPS / 10, `enough steps changed the state (${patched})`);
    });
  }

  it('keeps the identity of everything a change did not touch, and sends a streamed string as its suffix', () => {
    const servers = Array.from({ length: 1000 }, (_, i) => ({ type: 'mcpServer', id: `s${i}`, name: `S${i}`, state: { kind: 'ready' } }));
    const prev = { title: 'T', customizations: servers, text: 'x'.repeat(100) };
    const next = { ...prev, customizations: servers.map((s, i) => (i === 500 ? { ...s, state: { kind: 'error' } } : s)), text: `${prev.text}more` };
    const ops = diffState(prev, next)!;
    assert.deepEqual(ops, [
      ['s', ['customizations', 500, 'state', 'kind'], 'error'],
      ['x', ['text'], 'more'],
    ]);
    const page = structuredClone(prev);
    const out = applyPatch(page, structuredClone(ops));
    assert.deepEqual(out, next);
    assert.equal(out.customizations[499], page.customizations[499]);
    assert.notEqual(out.customizations[500], page.customizations[500]);
    assert.equal(page.customizations[500]!.state.kind, 'ready', 'base untouched');
    assert.ok(JSON.stringify(ops).length < 120, 'a few bytes instead of the whole session');
  });

  it('appends, truncates, deletes keys, and sends a shifted array whole', () => {
    const a = { parts: [1, 2, 3], meta: { x: 1, y: 2 } };
    assert.deepEqual(diffState(a, { ...a, parts: [1, 2, 3, 4, 5] }), [['a', ['parts'], [4, 5]]]);
    assert.deepEqual(diffState(a, { ...a, parts: [1] }), [['t', ['parts'], 1]]);
    assert.deepEqual(diffState(a, { ...a, meta: { x: 1 } }), [['d', ['meta', 'y']]]);
    const objs = Array.from({ length: 20 }, (_, i) => ({ id: i }));
    const shifted = [{ id: -1 }, ...objs];
    assert.deepEqual(diffState({ l: objs }, { l: shifted }), [['s', ['l'], shifted]]);
    assert.equal(diffState(undefined, a), undefined, 'no base: send the whole state');
  });

  it('a patch that does not fit throws PatchMismatchError instead of corrupting the state', () => {
    const base = { a: { b: 1 }, list: [1] };
    for (const ops of [[['s', ['x', 'y', 'z'], 1]], [['a', ['a'], [1]]], [['x', ['list'], 's']], [['q', ['a']]], [['s', [], 1]], 'nope', [null]]) {
      assert.throws(() => applyPatch(base, ops as never), PatchMismatchError, JSON.stringify(ops));
    }
    assert.deepEqual(base, { a: { b: 1 }, list: [1] });
  });
});

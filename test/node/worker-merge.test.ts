import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reuseEqual } from '../../src/worker/structural-merge.js';

const server = (id: string, kind = 'ready') => ({ type: 'mcpServer', id, uri: `mcp-config:/${id}`, name: id, state: { kind } });
const state = (...customizations: unknown[]) => ({ title: 'T', status: 1, customizations, meta: { tags: ['a', 'b'] } });

describe('reuseEqual', () => {
  it('returns the previous object for a deep-equal structured clone', () => {
    const prev = state(server('a'), server('b'));
    assert.equal(reuseEqual(prev, structuredClone(prev)), prev);
  });

  it('keeps unchanged subtrees and replaces only the path to a change', () => {
    const prev = state(server('a'), server('b'));
    const next = structuredClone(prev);
    next.customizations[1] = server('b', 'error');
    const merged = reuseEqual(prev, next);
    assert.notEqual(merged, prev);
    assert.notEqual(merged.customizations, prev.customizations);
    assert.equal(merged.customizations[0], prev.customizations[0]);
    assert.notEqual(merged.customizations[1], prev.customizations[1]);
    assert.deepEqual(merged, next);
    assert.equal(merged.meta, prev.meta);
  });

  it('matches array items by id, so an insertion keeps the items after it', () => {
    const prev = state(server('a'), server('b'));
    const next = structuredClone(state(server('new'), server('a'), server('b')));
    const merged = reuseEqual(prev, next);
    assert.equal(merged.customizations[1], prev.customizations[0]);
    assert.equal(merged.customizations[2], prev.customizations[1]);
    assert.deepEqual(merged, next);
  });

  it('sees added, removed and retyped keys, and arrays without ids by index', () => {
    const prev = { a: 1, b: [1, 2, 3], c: { x: null as unknown }, d: 'x' };
    assert.deepEqual(reuseEqual(prev, { a: 1, b: [1, 2, 3], c: { x: null } }), { a: 1, b: [1, 2, 3], c: { x: null } });
    assert.notEqual(reuseEqual(prev, { a: 1, b: [1, 2, 3], c: { x: null } }), prev, 'a removed key is a change');
    assert.notEqual(reuseEqual(prev, { ...structuredClone(prev), e: undefined }), prev, 'an added key is a change');
    assert.notEqual(reuseEqual(prev, { ...structuredClone(prev), c: { x: undefined } }), prev, 'null → undefined is a change');
    const arr = reuseEqual(prev, { ...structuredClone(prev), b: [1, 2, 4] });
    assert.deepEqual(arr.b, [1, 2, 4]);
    assert.equal(arr.c, prev.c);
    assert.notEqual(reuseEqual(prev, { ...structuredClone(prev), b: [1, 2] }).b, prev.b, 'a shorter array is a change');
    assert.notEqual(reuseEqual([1], { 0: 1 }), [1] as unknown, 'an object is not an array');
  });

  it('handles primitives, NaN, undefined and a missing previous value', () => {
    assert.equal(reuseEqual(undefined, undefined), undefined);
    assert.ok(Number.isNaN(reuseEqual(NaN, NaN)));
    const next = state(server('a'));
    assert.equal(reuseEqual(undefined, next), next);
    assert.equal(reuseEqual(next, undefined), undefined);
    assert.equal(reuseEqual('x', 'x'), 'x');
  });
});

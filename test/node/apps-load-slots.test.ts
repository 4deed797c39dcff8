// LoadSlots: at most `limit` loads per key at once, the rest in order; a release frees a slot once, and releasing a
// request that has not begun withdraws it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LoadSlots } from '../../src/apps/load-slots.js';
import { keysHeld } from '../fixtures/apps/load-slots-probe.js';

test('at most the limit run per key; the next begins when one is released, in order', () => {
  const slots = new LoadSlots(2);
  const begun: string[] = [];
  const release = ['a', 'b', 'c', 'd'].map((name) => slots.acquire('origin', () => begun.push(name)));
  const other = slots.acquire('other origin', () => begun.push('x'));
  assert.deepEqual(begun, ['a', 'b', 'x'], 'two of the origin begin, another origin has its own slots');
  assert.deepEqual(keysHeld(slots), ['origin', 'other origin']);
  release[1]!();
  release[1]!();
  assert.deepEqual(begun, ['a', 'b', 'x', 'c'], 'a second release of the same load frees nothing more');
  release[0]!();
  assert.deepEqual(begun, ['a', 'b', 'x', 'c', 'd']);
  release[2]!();
  release[3]!();
  assert.deepEqual(keysHeld(slots), ['other origin'], 'an origin whose loads all ended keeps no entry');
  other();
  assert.deepEqual(keysHeld(slots), []);
  const again = slots.acquire('origin', () => begun.push('e'));
  assert.deepEqual(begun.at(-1), 'e', 'an origin whose loads all ended begins the next at once');
  again();
  assert.deepEqual(keysHeld(slots), []);
});

test('releasing a request still waiting withdraws it: it never begins and takes no slot', () => {
  const slots = new LoadSlots(1);
  const begun: string[] = [];
  const first = slots.acquire('o', () => begun.push('first'));
  const withdrawn = slots.acquire('o', () => begun.push('withdrawn'));
  const third = slots.acquire('o', () => begun.push('third'));
  withdrawn();
  first();
  assert.deepEqual(begun, ['first', 'third']);
  const fourth = slots.acquire('o', () => begun.push('fourth'));
  withdrawn();
  assert.deepEqual(begun, ['first', 'third'], 'a second withdrawal withdraws nothing else and frees no slot: the third still runs, the fourth waits');
  third();
  assert.deepEqual(begun, ['first', 'third', 'fourth']);
  fourth();
  assert.deepEqual(keysHeld(slots), []);
});

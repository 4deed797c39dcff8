// A server change gives a state whose `customizations` is built from chunks only when read
// (reducers/customization-chunks.ts). Readers must see exactly the protocol's plain array (keys, JSON, spread,
// structured clone, deep equality), earlier states must never change, and lookups by id, later server changes and
// the store's server watchers must not build the array. The fuzz compares every state, built late, with the state
// folded from a plain JSON copy of its predecessor; the seed is printed so a failure can be replayed (AHP_FUZZ_SEED).
import test from 'node:test';
import assert from 'node:assert/strict';
import type { AnyAction, McpServerCustomization, SessionState } from '../../src/protocol/index.js';
import { findMcpServer, foldBurst, locateMcpServer, sessionReducer } from '../../src/reducers/index.js';
import { chunksOf } from '../../src/reducers/customization-chunks.js';
import { changedIdsOfChunks } from '../../src/store/server-changes.js';
import { SessionStore } from '../../src/store/index.js';
import { sessionWithServers } from '../bench/workloads.js';
import { bigFuzzSession, createRandom, pick, randomBigSessionAction } from './fuzz-helpers.js';

const SESSION = 'ahp-session:/lazy';
const stateChanged = (id: string, kind: string): AnyAction => ({ type: 'session/mcpServerStateChanged', id, state: { kind } }) as AnyAction;
/** True while `customizations` is the getter (a state made by a server change). */
const lazy = (s: SessionState): boolean => typeof Object.getOwnPropertyDescriptor(s, 'customizations')?.get === 'function';

/**
 * Counts the lists built while `fn` runs: the getter builds with `base.slice()` (a copy of a whole list, then the held
 * chunks written over it) or, once every chunk is held, `[].concat(...chunks)` (so does an id index, which these tests
 * build beforehand). Other copies while these tests run are of chunks, of the short list of chunks and of children.
 */
function countBuilds(fn: () => void): number {
  const { concat, slice } = Array.prototype;
  let builds = 0;
  Array.prototype.concat = function (this: unknown[], ...args: unknown[]) {
    if (this.length === 0 && args.length > 0 && args.every(Array.isArray)) builds++;
    return concat.apply(this, args);
  } as typeof concat;
  Array.prototype.slice = function (this: unknown[], ...args: unknown[]) {
    if (args.length === 0 && this.length > 64) builds++;
    return slice.apply(this, args as [number?, number?]);
  } as typeof slice;
  try {
    fn();
  } finally {
    Object.assign(Array.prototype, { concat, slice });
  }
  return builds;
}
const kindOf = (s: SessionState, id: string): string | undefined => findMcpServer(s, id)?.state.kind;
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

test('a state after a server change reads as the plain list: same keys in the same order, JSON, spread, clone, deep equality', () => {
  const before = sessionWithServers(300);
  const after = sessionReducer(sessionReducer(before, stateChanged('srv-7', 'stopped')), stateChanged('srv-200', 'error'));
  assert.ok(lazy(after), 'the list waits to be read');
  assert.deepEqual(Object.keys(after), Object.keys(before));
  const expected = plain(before);
  (expected.customizations![7] as McpServerCustomization).state = { kind: 'stopped' };
  (expected.customizations![200] as McpServerCustomization).state = { kind: 'error' } as McpServerCustomization['state'];
  assert.equal(JSON.stringify(after), JSON.stringify(expected));
  assert.deepStrictEqual(structuredClone(after), expected);
  const spread = { ...after };
  assert.equal(typeof Object.getOwnPropertyDescriptor(spread, 'customizations')?.value, 'object');
  assert.deepStrictEqual(spread, expected);
  assert.deepStrictEqual(after, expected);
  // Built once, then the same array on every read.
  let list: unknown[] = [];
  assert.equal(countBuilds(() => void (list = after.customizations!)), 0, 'already built by the reads above');
  assert.ok(Array.isArray(list) && list.length === 300);
  assert.equal(after.customizations, list);
  // Servers not changed are shared with the earlier state; the earlier state is unchanged.
  assert.equal(list[8], before.customizations![8]);
  assert.equal(kindOf(before, 'srv-7'), 'ready');
  assert.ok(before.customizations!.every((c) => (c as McpServerCustomization).state.kind === 'ready'));
});

test('lookups by id, further server changes and the store with server watchers never build the list; reading it builds it once', () => {
  const start = sessionReducer(sessionWithServers(1000), stateChanged('srv-1', 'stopped'));
  void locateMcpServer(start, 'srv-0');
  let s = start;
  const kinds = new Map<string, string>();
  const builds = countBuilds(() => {
    for (let i = 0; i < 200; i++) {
      const id = `srv-${(i * 37) % 1000}`;
      kinds.set(id, i % 2 ? 'error' : 'starting');
      s = sessionReducer(s, stateChanged(id, kinds.get(id)!));
    }
    for (let i = 0; i < 1000; i += 3) assert.equal(locateMcpServer(s, `srv-${i}`)?.server.state.kind, kinds.get(`srv-${i}`) ?? (i === 1 ? 'stopped' : 'ready'), `srv-${i}`);
  });
  assert.equal(builds, 0, 'no state built its list');
  assert.ok(lazy(s));

  const store = new SessionStore({ channel: SESSION, clientId: 'me', send: () => {}, nextClientSeq: () => 1 });
  store.loadSnapshot({ resource: SESSION, state: sessionWithServers(1000), fromSeq: 0 });
  const seen: SessionState[] = [];
  store.subscribe(() => void seen.push(store.getState()!));
  const woke: string[] = [];
  for (const id of ['srv-3', 'srv-500']) store.subscribeMcpServer(id, (server) => woke.push(`${id}:${server?.state.kind}`));
  const storeBuilds = countBuilds(() => {
    for (let i = 1; i <= 100; i++) {
      const id = i % 10 === 0 ? 'srv-500' : `srv-${600 + i}`;
      store.receive({ channel: SESSION, serverSeq: i, action: stateChanged(id, i % 20 === 0 ? 'stopped' : 'error') });
    }
  });
  assert.equal(seen.length, 100);
  assert.deepEqual(woke, ['srv-500:error', 'srv-500:stopped', 'srv-500:error', 'srv-500:stopped', 'srv-500:error', 'srv-500:stopped', 'srv-500:error', 'srv-500:stopped', 'srv-500:error', 'srv-500:stopped']);
  assert.equal(storeBuilds, 0, 'no state the listener read had its list built');
  assert.ok(seen.every(lazy));
  const last = store.getState()!;
  assert.equal(countBuilds(() => assert.equal((last.customizations![651] as McpServerCustomization).state.kind, 'error')), 1, 'reading the list builds it');
  assert.equal(countBuilds(() => void last.customizations), 0, 'once');
  assert.equal(kindOf(last, 'srv-651'), 'error');
  store.dispose();
});

test('a state frozen before its first read still reads its list, and a change after it leaves it as it was', () => {
  const s = Object.freeze(sessionReducer(sessionWithServers(130), stateChanged('srv-129', 'stopped')));
  const next = sessionReducer(s, stateChanged('srv-129', 'error'));
  const list = s.customizations!;
  assert.equal(s.customizations, list);
  assert.equal((list[129] as McpServerCustomization).state.kind, 'stopped');
  assert.equal(kindOf(next, 'srv-129'), 'error');
  assert.equal(kindOf(s, 'srv-129'), 'stopped');
});

/** Which places of a state's chunks hold a chunk of their own (the rest read through to the base list). */
const held = (s: SessionState): number[] =>
  chunksOf(s)!.flatMap((group, g) => Array.from(group ?? [], (chunk, k) => (chunk ? g * 16 + k : -1))).filter((k) => k >= 0);

test('reading the list lets the chunks go: the state then keeps only the array, and the next change copies one chunk of it', () => {
  const before = sessionWithServers(1000);
  const s = sessionReducer(sessionReducer(before, stateChanged('srv-5', 'stopped')), stateChanged('srv-300', 'error'));
  assert.deepEqual(held(s), [0, 4]);
  assert.equal(chunksOf(s)!.base, before.customizations, 'unchanged chunks are read from the snapshot\'s list');
  const list = s.customizations!;
  assert.deepEqual(held(s), [], 'no chunk kept beside the built list');
  assert.equal(chunksOf(s)!.base, list);
  assert.equal(s.customizations, list, 'still the same array');
  assert.equal(JSON.stringify(s), JSON.stringify({ ...plain(s), customizations: plain(list) }));

  const next = sessionReducer(s, stateChanged('srv-700', 'stopped'));
  assert.deepEqual(held(next), [700 >> 6], 'one chunk copied, the rest read through to the list read before');
  assert.equal(chunksOf(next)!.base, list);
  assert.equal(kindOf(next, 'srv-700'), 'stopped');
  let list2: unknown[] = [];
  assert.equal(countBuilds(() => void (list2 = next.customizations!)), 1);
  assert.notEqual(list2, list);
  assert.equal((list2[700] as McpServerCustomization).state.kind, 'stopped');
  assert.equal((list2[5] as McpServerCustomization).state.kind, 'stopped');
  assert.equal(list2[699], list[699]);
  assert.equal((list[700] as McpServerCustomization).state.kind, 'ready', 'the list read before is unchanged');
  assert.deepEqual(held(next), []);
  // Chunks held in every place (the last one short): the list is still exact.
  let all = sessionReducer(sessionWithServers(130), stateChanged('srv-1', 'error'));
  for (const id of ['srv-70', 'srv-129']) all = sessionReducer(all, stateChanged(id, 'stopped'));
  assert.deepEqual(held(all), [0, 1, 2]);
  assert.equal(all.customizations!.length, 130);
  assert.deepEqual(all.customizations!.map((c) => (c as McpServerCustomization).state.kind).filter((k) => k !== 'ready'), ['error', 'stopped', 'stopped']);
});

test('lists of several groups (1,024 entries each): a change holds one chunk of one group; reads, lookups and change detection see every group', () => {
  const before = sessionWithServers(2500);
  let s = before;
  const expected = plain(before);
  const ids = ['srv-3', 'srv-1030', 'srv-2499', 'srv-1100', 'srv-2048'];
  for (const id of ids) {
    s = sessionReducer(s, stateChanged(id, 'stopped'));
    (expected.customizations!.find((c) => c.id === id) as McpServerCustomization).state = { kind: 'stopped' };
  }
  assert.deepEqual(held(s), [0, 16, 17, 32, 39]);
  assert.deepEqual([...changedIdsOfChunks(chunksOf(before)!, chunksOf(s)!)].sort(), [...ids].sort());
  assert.deepEqual([...changedIdsOfChunks(chunksOf(s)!, chunksOf(s)!)], []);
  for (const id of ids) assert.equal(kindOf(s, id), 'stopped', id);
  for (const id of ['srv-0', 'srv-1023', 'srv-1024', 'srv-2047', 'srv-2049']) assert.equal(kindOf(s, id), 'ready', id);
  const prev = s;
  s = sessionReducer(s, stateChanged('srv-2000', 'error'));
  assert.deepEqual([...changedIdsOfChunks(chunksOf(prev)!, chunksOf(s)!)], ['srv-2000']);
  assert.equal(JSON.stringify(prev), JSON.stringify(expected), 'built over all groups');
  assert.deepEqual(held(prev), []);
  (expected.customizations![2000] as McpServerCustomization).state = { kind: 'error' } as McpServerCustomization['state'];
  assert.deepEqual(held(s), [0, 16, 17, 31, 32, 39], 'made before the read: keeps the chunks it was made with');
  const next = sessionReducer(prev, stateChanged('srv-1500', 'starting'));
  assert.deepEqual(held(next), [1500 >> 6], 'made after the read: one chunk over the built list');
  assert.deepEqual([...changedIdsOfChunks(chunksOf(prev)!, chunksOf(next)!)], ['srv-1500']);
  assert.equal(JSON.stringify(s), JSON.stringify(expected));
});

test('a store listener that reads the whole list after every envelope sees every list exactly, and server watchers wake only for their server', () => {
  const store = new SessionStore({ channel: SESSION, clientId: 'me', send: () => {}, nextClientSeq: () => 1 });
  const initial = sessionWithServers(700);
  store.loadSnapshot({ resource: SESSION, state: initial, fromSeq: 0 });
  let expected = plain(initial);
  const mismatches: number[] = [];
  let seen = 0;
  store.subscribe(() => {
    seen++;
    if (JSON.stringify(store.getState()!.customizations) !== JSON.stringify(expected.customizations)) mismatches.push(seen);
  });
  const woke: string[] = [];
  for (const id of ['srv-3', 'srv-640']) store.subscribeMcpServer(id, (server) => woke.push(`${id}:${server?.state.kind}`));
  // A watcher wakes when its server's value changed (the same state again wakes nobody).
  const wanted: string[] = [];
  const last = new Map([['srv-3', 'ready'], ['srv-640', 'ready']]);
  for (let i = 1; i <= 300; i++) {
    const id = i % 25 === 0 ? 'srv-640' : i % 40 === 0 ? 'srv-3' : `srv-${(i * 61) % 700}`;
    const kind = ['error', 'stopped', 'starting'][i % 3]!;
    const action = stateChanged(id, kind);
    expected = sessionReducer(plain(expected), action);
    if (last.has(id) && last.get(id) !== kind) wanted.push(`${id}:${kind}`), last.set(id, kind);
    store.receive({ channel: SESSION, serverSeq: i, action });
  }
  assert.ok(wanted.length > 15);
  assert.equal(seen, 300);
  assert.deepEqual(mismatches, []);
  assert.deepEqual(woke, wanted);
  store.dispose();
});

test('random streams on big lists: every state, built late, equals the state folded from a plain copy, one by one and in bursts', () => {
  const seed = Number(process.env.AHP_FUZZ_SEED ?? (Date.now() + 29) % 2 ** 31);
  console.log(`lazy customizations seed: ${seed}`);
  const rnd = createRandom(seed);
  let compared = 0;
  for (let run = 0; run < 4; run++) {
    // The last run is longer than a group of chunks (1,024 entries).
    const { state: initial, ids } = bigFuzzSession(rnd, run === 3 ? 1100 + Math.floor(rnd() * 1500) : 100 + Math.floor(rnd() * 400));
    const actions = Array.from({ length: 400 }, () => randomBigSessionAction(rnd, ids));
    // The oracle: each action folded into a plain JSON copy of the previous result, so nothing is shared between steps.
    const expected = [JSON.stringify(initial)];
    for (const a of actions) expected.push(JSON.stringify(sessionReducer(JSON.parse(expected.at(-1)!) as SessionState, a)));
    const states: SessionState[] = [initial];
    for (const a of actions) {
      const s = sessionReducer(states.at(-1)!, a);
      // Some states are read at once, some frozen unread, most read only at the end.
      const r = rnd();
      if (r < 0.1) void s.customizations;
      else if (r < 0.15) Object.freeze(s);
      states.push(s);
    }
    const where = (i: number) => `seed ${seed} run ${run} state ${i}`;
    for (let i = 0; i < states.length; i += 7) {
      const id = pick(rnd, ids);
      const want = (JSON.parse(expected[i]!) as SessionState).customizations?.find((c) => c.id === id);
      const got = locateMcpServer(states[i], id);
      if (want?.type === 'mcpServer') assert.equal(JSON.stringify(got?.server), JSON.stringify(want), `${where(i)}: ${id}`);
      else if (want) assert.equal(got, undefined, `${where(i)}: ${id} is not a server`);
    }
    for (let i = 0; i < actions.length; ) {
      const end = Math.min(actions.length, i + 1 + Math.floor(rnd() * 40));
      assert.equal(JSON.stringify(foldBurst(sessionReducer, states[i]!, actions.slice(i, end))), expected[end], `${where(end)}, burst from ${i}`);
      i = end;
    }
    states.forEach((s, i) => assert.equal(JSON.stringify(s), expected[i], where(i)));
    compared += states.length;
  }
  assert.ok(compared > 1000);
});

// foldBurst must give exactly what reducing one action at a time gives, and must never change an object
// that existed before the burst (the inputs are deep-frozen: a write to them throws, the reducer swallows
// the throw and the results differ). The seed is printed so a failure can be replayed (AHP_FUZZ_SEED).
import test from 'node:test';
import assert from 'node:assert/strict';
import { chatReducer, foldBurst, locateMcpServer, sessionReducer } from '../../src/reducers/index.js';
import type { AnyAction, ChatState, SessionState } from '../../src/protocol/index.js';
import { createRandom, initialFuzzChat, initialFuzzSession, randomChatStream, randomGarbage, randomSessionAction } from './fuzz-helpers.js';
import { sessionWithServers, w2ToolCalls, w3ServerStates } from '../bench/workloads.js';

function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (typeof value !== 'object' || value === null || seen.has(value)) return value;
  seen.add(value);
  for (const v of Object.values(value)) deepFreeze(v, seen);
  return Object.freeze(value);
}

/** Reduces `actions` one by one, then folds them again in random bursts from frozen states and compares every burst's result. */
function compareBursts<S>(reducer: (s: S, a: AnyAction) => S, initial: S, actions: unknown[], rnd: () => number, where: string): number {
  const states: S[] = [initial];
  for (const a of actions) states.push(reducer(states.at(-1)!, a as AnyAction));
  let bursts = 0;
  for (let i = 0; i < actions.length; ) {
    const len = 1 + Math.floor(rnd() * 60);
    const end = Math.min(actions.length, i + len);
    const from = deepFreeze(states[i]!);
    const folded = foldBurst(reducer, from, actions.slice(i, end) as AnyAction[]);
    assert.deepStrictEqual(folded, states[end], `${where}: burst of actions ${i}..${end - 1}`);
    bursts++;
    i = end;
  }
  return bursts;
}

test('chat: random bursts fold to the same states as one action at a time, without touching earlier objects', () => {
  const seed = Number(process.env.AHP_FUZZ_SEED ?? Date.now() % 2 ** 31);
  console.log(`chat burst seed: ${seed}`);
  const rnd = createRandom(seed);
  for (let run = 0; run < 10; run++) {
    const { actions } = randomChatStream(rnd, 0.8);
    compareBursts<ChatState>(chatReducer, initialFuzzChat(), actions, rnd, `seed ${seed} run ${run}`);
  }
});

test('session: random bursts fold to the same states as one action at a time, without touching earlier objects', () => {
  const seed = Number(process.env.AHP_FUZZ_SEED ?? (Date.now() + 17) % 2 ** 31);
  console.log(`session burst seed: ${seed}`);
  const rnd = createRandom(seed);
  const actions = Array.from({ length: 15_000 }, () => (rnd() < 0.8 ? randomSessionAction(rnd) : randomGarbage(rnd)));
  compareBursts<SessionState>(sessionReducer, initialFuzzSession(), actions, rnd, `seed ${seed}`);
});

test('the W2 and W3 benchmark streams fold the same in bursts', () => {
  const rnd = createRandom(1);
  const w2 = w2ToolCalls(300);
  compareBursts(chatReducer, w2.initial(), w2.actions, rnd, 'W2');
  const w3 = w3ServerStates(500, 5000);
  compareBursts(sessionReducer, w3.initial(), w3.actions, rnd, 'W3');
});

test('a burst copies the server list once, and servers stay findable by id through the carried index', () => {
  const initial = sessionWithServers(1000);
  const actions = w3ServerStates(1000, 3000).actions;
  const folded = foldBurst(sessionReducer, initial, actions);
  assert.notEqual(folded.customizations, initial.customizations);
  for (const id of ['srv-0', 'srv-500', 'srv-999']) assert.equal(locateMcpServer(folded, id)?.server, folded.customizations!.find((c) => c.id === id));
  // The input is untouched: every server still has its initial state object.
  assert.ok(initial.customizations!.every((c) => (c as { state: { kind: string } }).state.kind === 'ready'));
});

// The id index behind locateMcpServer/updateMcpServer (reducers/customization-index.ts, an open-addressing table)
// must answer exactly what a plain scan with the same precedence answers (mcpServerIndex, server-changes.ts), for big
// random lists with duplicate ids, containers, non-server claims and garbage, on the lists carried from one state to
// the next, and past 65,535 places (the wider table). The seed is printed so a failure can be replayed (AHP_FUZZ_SEED).
import test from 'node:test';
import assert from 'node:assert/strict';
import type { AnyAction, SessionState } from '../../src/protocol/index.js';
import { locateMcpServer, sessionReducer } from '../../src/reducers/index.js';
import { mcpServerIndex } from '../../src/store/server-changes.js';
import { createRandom, pick } from './fuzz-helpers.js';

const server = (id: unknown, kind = 'ready') => ({ type: 'mcpServer', id, uri: 'x:/', name: String(id), state: { kind } });

/** Ids mostly used by children (a few top-level entries take them too). */
const KIDS = Array.from({ length: 12 }, (_, i) => `kid-${i}`);

function randomEntry(rnd: () => number, ids: string[]): unknown {
  const id = rnd() < 0.002 ? pick(rnd, KIDS) : pick(rnd, ids);
  const r = rnd();
  if (r < 0.55) return server(id);
  if (r < 0.75) {
    // Children mostly share a few ids, so a container often holds a non-server and a server of the same id.
    const childId = () => (rnd() < 0.7 ? pick(rnd, KIDS) : pick(rnd, ids));
    const children = Array.from({ length: Math.floor(rnd() * 6) }, () => (rnd() < 0.6 ? server(childId()) : rnd() < 0.7 ? { type: 'skill', id: childId(), uri: 'k', name: 'K' } : pick(rnd, [null, 7, { id: 3 }, { type: 'mcpServer' }])));
    return { type: pick(rnd, ['plugin', 'directory', 'x-future']), id, uri: 'p', name: 'P', children };
  }
  if (r < 0.9) return { type: 'skill', id, uri: 'k', name: 'K' };
  return pick(rnd, [null, 'x', 42, { type: 'mcpServer' }, { id: 5, type: 'mcpServer' }, { type: 'plugin', id, children: 'no' }]);
}

function sessionOf(customizations: unknown[]): SessionState {
  return { provider: 'p', title: 't', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations } as unknown as SessionState;
}

function assertSameAsScan(state: SessionState, ids: string[], where: string): number {
  const model = mcpServerIndex(state.customizations);
  let found = 0;
  for (const id of ids) {
    const located = locateMcpServer(state, id)?.server;
    assert.equal(located, model.get(id), `${where}: id ${id}`);
    if (located) found++;
  }
  return found;
}

test('locateMcpServer equals a plain scan on big random lists, and on the lists carried through server changes', () => {
  const seed = Number(process.env.AHP_FUZZ_SEED ?? Date.now() % 2 ** 31);
  console.log(`server index seed: ${seed}`);
  const rnd = createRandom(seed);
  let found = 0;
  for (let run = 0; run < 8; run++) {
    const size = 200 + Math.floor(rnd() * 3000);
    // Fewer ids than entries: duplicates at the top level, in containers and across both.
    const ids = Array.from({ length: Math.ceil(size * (0.3 + rnd())) }, (_, i) => `id-${i}`);
    let state = sessionOf(Array.from({ length: size }, () => randomEntry(rnd, ids)));
    const probe = [...ids, ...KIDS, 'unknown', ''];
    found += assertSameAsScan(state, probe, `seed ${seed} run ${run}`);
    for (let step = 0; step < 300; step++) {
      const id = pick(rnd, ids);
      const type = pick(rnd, ['session/mcpServerStateChanged', 'session/mcpServerStateChanged', 'session/mcpServerStartRequested', 'session/customizationToggled']);
      const action = type === 'session/customizationToggled' ? { type, id, enabled: rnd() < 0.5 } : { type, id, state: { kind: pick(rnd, ['ready', 'stopped', 'starting']) } };
      state = sessionReducer(state, action as unknown as AnyAction);
      if (step % 50 === 0) found += assertSameAsScan(state, probe, `seed ${seed} run ${run} step ${step}`);
    }
    found += assertSameAsScan(state, probe, `seed ${seed} run ${run} end`);
  }
  assert.ok(found > 1000, `servers were found (${found})`);
});

test('past 65,535 places the index still finds every server, first claim winning', () => {
  const list: unknown[] = Array.from({ length: 70_000 }, (_, i) => server(`s-${i}`));
  list.push(server('s-5', 'error'), { type: 'plugin', id: 'p', uri: 'p', name: 'P', children: [server('s-69999', 'error'), server('only-child')] });
  const state = sessionOf(list);
  for (const i of [0, 1, 5, 4096, 65_534, 65_535, 65_536, 69_999]) assert.equal(locateMcpServer(state, `s-${i}`)?.server, list[i], `s-${i}`);
  assert.equal(locateMcpServer(state, 'only-child')?.server.name, 'only-child');
  assert.equal(locateMcpServer(state, 'only-child')?.container, list.at(-1));
  assert.equal(locateMcpServer(state, 's-70000'), undefined);
  const next = sessionReducer(state, { type: 'session/mcpServerStateChanged', id: 's-69999', state: { kind: 'stopped' } } as AnyAction);
  assert.equal(locateMcpServer(next, 's-69999')?.server.state.kind, 'stopped');
  assert.equal((next.customizations![69_999] as { state: { kind: string } }).state.kind, 'stopped');
});

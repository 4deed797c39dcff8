// The store only looks up the objects a change touched; these helpers decide which, and must agree
// with the selectors the rest of the code uses.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatState, SessionState } from '../../src/protocol/index.js';
import { chatReducer, locateMcpServer, sessionReducer } from '../../src/reducers/index.js';
import { chunkAt, chunksOf } from '../../src/reducers/customization-chunks.js';
import { changedCustomizationIds, changedIdsOfChunks, mcpServerIndex } from '../../src/store/server-changes.js';
import { findToolCall, selectToolCall } from '../../src/store/tool-call-selectors.js';
import { createRandom, initialFuzzChat, initialFuzzSession, randomChatAction, randomSessionAction } from './fuzz-helpers.js';

const srv = (id: string, kind = 'ready') => ({ type: 'mcpServer', id, uri: 'x:/', name: id, state: { kind } });

describe('changedCustomizationIds', () => {
  const list = [srv('a'), { type: 'plugin', id: 'p', uri: 'x:/', name: 'P', children: [srv('c1'), srv('c2')] }, srv('b')];
  it('names the changed top-level entry, or the container and its changed child', () => {
    assert.deepEqual([...changedCustomizationIds(list, [list[0], list[1], srv('b', 'error')])], ['b']);
    const plugin = list[1] as { children: unknown[] };
    const next = [list[0], { ...plugin, children: [plugin.children[0], srv('c2', 'error')] }, list[2]];
    assert.deepEqual([...changedCustomizationIds(list, next)].sort(), ['c2', 'p']);
    assert.deepEqual([...changedCustomizationIds(list, list)], []);
  });
  it('names everything on either side when there is no previous list, and shifted entries on insert/remove', () => {
    assert.deepEqual([...changedCustomizationIds(undefined, list)].sort(), ['a', 'b', 'c1', 'c2', 'p']);
    assert.deepEqual([...changedCustomizationIds(list, [list[1], list[2]])].sort(), ['a', 'b', 'c1', 'c2', 'p']);
    assert.deepEqual([...changedCustomizationIds('garbage', [null, 3])], []);
  });
});

describe('changedIdsOfChunks', () => {
  it('names the servers a run of changes touched (and the containers on their path), comparing only the chunks that differ', () => {
    const list = [...Array.from({ length: 200 }, (_, i) => srv(`s${i}`)), { type: 'plugin', id: 'p', uri: 'p', name: 'P', children: [srv('c1'), srv('c2')] }];
    const before = { ...initialFuzzSession(), customizations: list } as SessionState;
    let after = before;
    for (const id of ['s3', 's130', 'c2', 's3']) after = sessionReducer(after, { type: 'session/mcpServerStateChanged', id, state: { kind: 'stopped' } });
    const a = chunksOf(before)!;
    const b = chunksOf(after)!;
    // Chunks of 64: s3 in chunk 0, s130 in chunk 2, the plugin (entry 200) in chunk 3; chunk 1 is still the base's.
    assert.equal(a.some(Boolean), false, 'a plain list holds no chunk of its own');
    assert.deepEqual([0, 1, 2, 3].map((k) => chunkAt(b, k * 64) !== undefined), [true, false, true, true]);
    assert.equal(b.base, a.base);
    assert.deepEqual([...changedIdsOfChunks(a, b)].sort(), ['c1', 'c2', 'p', 's130', 's3']);
    assert.deepEqual([...changedIdsOfChunks(b, b)], []);
    // A list of another length: the entries past the shorter one count as changed.
    const longer = chunksOf({ ...before, customizations: [...list, srv('new')] })!;
    assert.ok(changedIdsOfChunks(a, longer).has('new'));
    // A state read after a later one was made from it: its chunks gave way to its list; still compared entry by entry.
    const s1 = sessionReducer(before, { type: 'session/mcpServerStateChanged', id: 's3', state: { kind: 'error' } });
    const s2 = sessionReducer(s1, { type: 'session/mcpServerStateChanged', id: 's130', state: { kind: 'error' } });
    void s1.customizations;
    assert.deepEqual([...changedIdsOfChunks(chunksOf(s1)!, chunksOf(s2)!)], ['s130']);
    assert.deepEqual([...changedIdsOfChunks(chunksOf(s2)!, chunksOf(s1)!)], ['s130']);
  });
});

describe('index and scan lookups agree with the selectors', () => {
  it('mcpServerIndex(list).get(id) equals locateMcpServer for random sessions', () => {
    const rnd = createRandom(20260301);
    let state: SessionState = initialFuzzSession();
    const ids = ['s1', 's2', 'c-s1', 'plugin', 'dir', 'skill', 'w', 'nope'];
    let checked = 0;
    for (let step = 0; step < 3000; step++) {
      state = sessionReducer(state, randomSessionAction(rnd) as never);
      const index = mcpServerIndex(state.customizations);
      for (const id of ids) {
        assert.equal(index.get(id), locateMcpServer(state, id)?.server, `step ${step}, id ${id}`);
        checked++;
      }
    }
    // Duplicated ids across top level and containers are the interesting case.
    const tricky = [{ type: 'plugin', id: 'x', uri: 'p', name: 'P', children: [srv('y')] }, { type: 'directory', id: 'd', uri: 'd', name: 'D', children: [srv('x'), { type: 'skill', id: 'y', uri: 'k', name: 'K' }] }, { type: 'plugin', id: 'q', uri: 'q', name: 'Q', children: [{ type: 'skill', id: 'z', uri: 'k', name: 'K' }, srv('z')] }, { type: 'plugin', id: 'r', uri: 'r', name: 'R', children: [srv('z', 'error')] }];
    const trickyState = { ...initialFuzzSession(), customizations: tricky } as unknown as SessionState;
    for (const id of ['x', 'y', 'z', 'd']) assert.equal(mcpServerIndex(tricky).get(id), locateMcpServer(trickyState, id)?.server, id);
    assert.ok(checked > 0);
  });
  it('findToolCall equals selectToolCall for random chats', () => {
    const rnd = createRandom(20260302);
    let state: ChatState = initialFuzzChat();
    const ids = ['tc0', 'tc1', 'tc2', 'tc3', 'tc4', 'tc5', 'nope'];
    let found = 0;
    for (let step = 0; step < 5000; step++) {
      state = chatReducer(state, randomChatAction(rnd, state) as never);
      for (const id of ids) {
        const scanned = findToolCall(state, id);
        assert.equal(scanned, selectToolCall(state, id)?.toolCall, `step ${step}, id ${id}`);
        if (scanned) found++;
      }
      if (state.turns.length > 20) state = initialFuzzChat();
    }
    assert.ok(found > 1000, `only ${found} lookups hit a tool call`);
  });
});

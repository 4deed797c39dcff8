import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionState } from '../../src/protocol/index.js';
import { listMcpServers, selectMcpServer } from '../../src/store/index.js';

const srv = (id: string, extra: Record<string, unknown> = {}) => ({ type: 'mcpServer', id, uri: 'x:/', name: id, state: { kind: 'ready' }, ...extra });
const state = {
  provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [],
  customizations: [
    srv('top'),
    { type: 'plugin', id: 'plug', uri: 'x:/', name: 'P', enablement: [{ kind: 'global', enabled: false }], children: [srv('p1'), { type: 'skill', id: 's', uri: 'x:/', name: 's' }] },
    srv('off', { enablement: [{ kind: 'session', enabled: false }] }),
    { type: 'directory', id: 'dir', uri: 'x:/', name: 'D', enabled: true, contents: 'mcpServer', writable: false, children: [srv('d1', { enabled: false }), srv('d2')] },
  ],
} as unknown as SessionState;

describe('listMcpServers', () => {
  it('lists top-level servers and container children in order with effective enablement', () => {
    const entries = listMcpServers(state);
    assert.deepEqual(entries.map((e) => [e.server.id, e.container?.id, e.enabled]), [
      ['top', undefined, true], ['p1', 'plug', false], ['off', undefined, false], ['d1', 'dir', false], ['d2', 'dir', true],
    ]);
    assert.equal('container' in entries[0]!, false);
  });
  it('is memoized per customizations list and empty without one', () => {
    assert.equal(listMcpServers(state), listMcpServers(state));
    assert.deepEqual(listMcpServers(undefined), []);
    assert.deepEqual(listMcpServers({ ...state, customizations: undefined }), []);
  });
});

describe('selectMcpServer', () => {
  it('returns the entry by id, or undefined', () => {
    assert.equal(selectMcpServer(state, 'd2')?.container?.id, 'dir');
    assert.equal(selectMcpServer(state, 'p1')?.enabled, false);
    assert.equal(selectMcpServer(state, 'top')?.enabled, true);
    assert.equal(selectMcpServer(state, 's'), undefined);
    assert.equal(selectMcpServer(state, 'plug'), undefined);
    assert.equal(selectMcpServer(undefined, 'top'), undefined);
  });
});

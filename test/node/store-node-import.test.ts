import { it } from 'node:test';
import assert from 'node:assert/strict';

it('src/reducers and src/store import in Node with no DOM', async () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  const reducers = await import('../../src/reducers/index.js');
  const store = await import('../../src/store/index.js');
  assert.equal(typeof reducers.sessionReducer, 'function');
  assert.equal(typeof reducers.effectiveEnabled, 'function');
  assert.equal(typeof reducers.findMcpServer, 'function');
  assert.equal(typeof store.SessionStore, 'function');
  assert.equal(typeof store.listMcpServers, 'function');
  assert.equal(typeof store.selectMcpServer, 'function');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';

test('worker mode imports without a DOM; the worker entries do nothing outside a worker', async () => {
  const worker = await import('../../src/worker.js');
  await import('../../src/worker/shared-worker-entry.js');
  await import('../../src/worker/dedicated-worker-entry.js');
  assert.equal(typeof document, 'undefined');
  assert.equal(typeof (globalThis as { onconnect?: unknown }).onconnect, 'undefined', 'no onconnect installed in Node');
  for (const name of ['connectSessionInWorker', 'connectSessionOverEndpoint', 'WorkerSessionStore', 'createSessionWorkerApi', 'serveSessionWorker', 'reuseEqual']) {
    assert.equal(typeof (worker as Record<string, unknown>)[name], 'function', `exports ${name}`);
  }
  assert.equal(worker.serveSessionWorker(), false);
});

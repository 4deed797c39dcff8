import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionClosedError, JsonRpcPeer, RpcError, RpcTimeoutError, createInMemoryPair } from '../../src/client/index.js';
import type { Transport } from '../../src/client/index.js';

/** A transport the test drives by hand: records what the peer sends, injects raw frames. */
function manualTransport() {
  const sent: unknown[] = [];
  const t: Transport & { inject(msg: unknown): void; closeFromPeer(reason: string): void; closedLocally: boolean } = {
    closedLocally: false,
    send: (msg) => void sent.push(msg),
    close() {
      this.closedLocally = true;
    },
    inject(msg) {
      this.onmessage?.(msg);
    },
    closeFromPeer(reason) {
      this.onclose?.(reason);
    },
  };
  return { t, sent };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

test('request resolves with the result and uses numeric, increasing ids', async () => {
  const { t, sent } = manualTransport();
  const peer = new JsonRpcPeer(t, { log: () => {} });
  const a = peer.request('one', { x: 1 });
  const b = peer.request('two');
  assert.deepEqual(sent.map((m) => (m as { id: number }).id), [1, 2]);
  assert.deepEqual(sent[0], { jsonrpc: '2.0', id: 1, method: 'one', params: { x: 1 } });
  t.inject({ jsonrpc: '2.0', id: 2, result: 'second' });
  t.inject({ jsonrpc: '2.0', id: 1, result: { ok: true } });
  assert.deepEqual(await a, { ok: true });
  assert.equal(await b, 'second');
});

test('error responses reject with RpcError carrying code, message and data', async () => {
  const { t } = manualTransport();
  const peer = new JsonRpcPeer(t, { log: () => {} });
  const p = peer.request('boom');
  t.inject({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'no such session', data: { uri: 'x' } } });
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof RpcError);
    assert.equal(err.code, -32001);
    assert.equal(err.message, 'no such session');
    assert.deepEqual(err.data, { uri: 'x' });
    return true;
  });
});

test('a request without an answer rejects with RpcTimeoutError after its timeout', async () => {
  const { t } = manualTransport();
  const peer = new JsonRpcPeer(t, { requestTimeoutMs: 20, log: () => {} });
  const started = Date.now();
  await assert.rejects(peer.request('slow'), (err: unknown) => err instanceof RpcTimeoutError && err.method === 'slow' && err.timeoutMs === 20);
  assert.ok(Date.now() - started >= 15);
  // a late answer for the timed-out id is skipped, not crashing
  t.inject({ jsonrpc: '2.0', id: 1, result: 'late' });
});

test('per-request timeout overrides the default', async () => {
  const { t } = manualTransport();
  const peer = new JsonRpcPeer(t, { requestTimeoutMs: 10_000, log: () => {} });
  await assert.rejects(peer.request('slow', undefined, { timeoutMs: 5 }), RpcTimeoutError);
});

test('incoming requests without a handler are answered -32601; handled ones get their result or error', async () => {
  const { t, sent } = manualTransport();
  const peer = new JsonRpcPeer(t, { log: () => {} });
  peer.onRequest('echo', (params) => params);
  peer.onRequest('fail', () => {
    throw new RpcError(-32008, 'not found', { uri: 'u' });
  });
  peer.onRequest('crash', () => {
    throw new Error('oops');
  });
  t.inject({ jsonrpc: '2.0', id: 7, method: 'resourceRead', params: { uri: 'file:///x' } });
  t.inject({ jsonrpc: '2.0', id: 'abc', method: 'echo', params: { a: 1 } });
  t.inject({ jsonrpc: '2.0', id: 8, method: 'fail' });
  t.inject({ jsonrpc: '2.0', id: 9, method: 'crash' });
  await tick();
  const byId = (m: unknown) => String((m as { id: unknown }).id);
  assert.deepEqual([...sent].sort((a, b) => byId(a).localeCompare(byId(b))), [
    { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found: resourceRead' } },
    { jsonrpc: '2.0', id: 8, error: { code: -32008, message: 'not found', data: { uri: 'u' } } },
    { jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'oops' } },
    { jsonrpc: '2.0', id: 'abc', result: { a: 1 } },
  ]);
});

test('notifications reach every handler of their method; a throwing handler does not stop the others', () => {
  const { t } = manualTransport();
  const peer = new JsonRpcPeer(t, { log: () => {} });
  const got: unknown[] = [];
  peer.onNotification('auth/required', () => {
    throw new Error('bad listener');
  });
  const off = peer.onNotification('auth/required', (p) => got.push(p));
  t.inject({ jsonrpc: '2.0', method: 'auth/required', params: { n: 1 } });
  off();
  t.inject({ jsonrpc: '2.0', method: 'auth/required', params: { n: 2 } });
  assert.deepEqual(got, [{ n: 1 }]);
});

test('malformed frames are logged and skipped; the connection keeps working', async () => {
  const { t, sent } = manualTransport();
  const logged: string[] = [];
  const peer = new JsonRpcPeer(t, { log: (m) => logged.push(m) });
  const p = peer.request('ok');
  for (const junk of [null, 42, 'text', [1, 2], { id: 1 }, { jsonrpc: '1.0', id: 1, result: 1 }, { jsonrpc: '2.0', id: 99, result: 1 }, { jsonrpc: '2.0', id: {}, method: 'x' }]) {
    t.inject(junk);
  }
  assert.equal(logged.length, 8);
  assert.equal(sent.length, 1, 'nothing answered for malformed frames');
  t.inject({ jsonrpc: '2.0', id: 1, result: 'fine' });
  assert.equal(await p, 'fine');
});

test('closing rejects every pending request with ConnectionClosedError and later requests too', async () => {
  const { t } = manualTransport();
  const peer = new JsonRpcPeer(t, { log: () => {} });
  const reasons: (string | undefined)[] = [];
  peer.onClose((r) => reasons.push(r));
  const a = peer.request('a');
  const b = peer.request('b');
  t.closeFromPeer('server went away');
  for (const p of [a, b]) await assert.rejects(p, (err: unknown) => err instanceof ConnectionClosedError && err.reason === 'server went away');
  await assert.rejects(peer.request('c'), ConnectionClosedError);
  assert.deepEqual(reasons, ['server went away']);
  assert.equal(peer.closed, true);
  peer.notify('dropped'); // no throw
});

test('close() closes the transport and rejects pending requests', async () => {
  const { t } = manualTransport();
  const peer = new JsonRpcPeer(t, { log: () => {} });
  const a = peer.request('a');
  peer.close();
  assert.equal(t.closedLocally, true);
  await assert.rejects(a, ConnectionClosedError);
});

test('in-memory pair: async delivery, JSON copies, close reaches both sides after in-flight messages', async () => {
  const [left, right] = createInMemoryPair();
  const got: unknown[] = [];
  const closes: (string | undefined)[] = [];
  right.onmessage = (m) => got.push(m);
  left.onclose = (r) => closes.push(`left:${r}`);
  right.onclose = (r) => closes.push(`right:${r}`);
  const msg = { jsonrpc: '2.0' as const, method: 'x', params: { nested: { a: 1 } } };
  left.send(msg);
  assert.equal(got.length, 0, 'delivery is asynchronous');
  left.close();
  left.send({ jsonrpc: '2.0', method: 'after-close' });
  await tick();
  assert.deepEqual(got, [msg]);
  assert.notEqual(got[0], msg);
  assert.deepEqual(closes, ['left:closed locally', 'right:closed by peer']);
});

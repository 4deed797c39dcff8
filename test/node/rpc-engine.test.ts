// The one JSON-RPC 2.0 engine under the client peer, the host connection and the Apps bridge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonRpcEngine, type JsonRpcEngineOptions } from '../../src/rpc/json-rpc-engine.js';
import { JsonRpcServer } from '../../src/rpc/json-rpc-server.js';
import { ConnectionClosedError, RpcError, RpcTimeoutError, toErrorObject } from '../../src/rpc/errors.js';

type Msg = Record<string, unknown>;
const tick = () => new Promise((r) => setTimeout(r, 0));

function engine(options: Partial<JsonRpcEngineOptions> = {}, Engine = JsonRpcEngine) {
  const sent: unknown[] = [];
  const logged: string[] = [];
  const notServed = (method: string) => {
    throw new RpcError(-32601, `Method not found: ${method}`);
  };
  const rpc = new Engine({ send: (m) => void sent.push(m), onRequest: notServed, log: (m) => void logged.push(m), ...options });
  return { rpc, sent, logged };
}

test('a synchronous result is answered before receive returns; an async one when it settles', async () => {
  let release!: (v: unknown) => void;
  const { rpc, sent } = engine({ onRequest: (method) => (method === 'now' ? 'at once' : new Promise((r) => (release = r))) });
  rpc.receive({ jsonrpc: '2.0', id: 1, method: 'later' });
  rpc.receive({ jsonrpc: '2.0', id: 2, method: 'now' });
  assert.deepEqual(sent, [{ jsonrpc: '2.0', id: 2, result: 'at once' }]);
  release(undefined);
  await tick();
  assert.deepEqual(sent[1], { jsonrpc: '2.0', id: 1, result: null }, 'undefined results are answered as null');
});

test('handler errors keep their integer code and data; anything else is -32603', () => {
  const bare = engine();
  bare.rpc.receive({ jsonrpc: '2.0', id: 'a', method: 'x' });
  assert.deepEqual(bare.sent, [{ jsonrpc: '2.0', id: 'a', error: { code: -32601, message: 'Method not found: x' } }]);
  const { rpc, sent } = engine({
    onRequest: (method) => {
      if (method === 'coded') throw new RpcError(-32008, 'gone', { why: 1 });
      if (method === 'fractional') throw Object.assign(new Error('odd'), { code: 1.5 });
      throw 'not an error';
    },
  });
  for (const method of ['coded', 'fractional', 'thrown']) rpc.receive({ jsonrpc: '2.0', id: method, method });
  assert.deepEqual(sent, [
    { jsonrpc: '2.0', id: 'coded', error: { code: -32008, message: 'gone', data: { why: 1 } } },
    { jsonrpc: '2.0', id: 'fractional', error: { code: -32603, message: 'odd' } },
    { jsonrpc: '2.0', id: 'thrown', error: { code: -32603, message: 'Internal error' } },
  ]);
});

test('outgoing ids come from nextId; answers settle by id, errors become RpcError', async () => {
  let n = 0;
  const { rpc, sent } = engine({ nextId: () => `h${++n}` });
  const a = rpc.request('a', { x: 1 });
  const b = rpc.request('b');
  assert.deepEqual(sent.map((m) => (m as Msg).id), ['h1', 'h2']);
  rpc.receive({ jsonrpc: '2.0', id: 'h2', error: { code: -32000, data: 7 } });
  rpc.receive({ jsonrpc: '2.0', id: 'h1', result: { ok: true } });
  assert.deepEqual(await a, { ok: true });
  await assert.rejects(b, (err: unknown) => err instanceof RpcError && err.code === -32000 && err.message === "'b' failed" && err.data === 7);
});

test('timeouts and close use the configured errors (defaults RpcTimeoutError and ConnectionClosedError)', async () => {
  const plain = engine({ requestTimeoutMs: 5 });
  await assert.rejects(plain.rpc.request('slow'), RpcTimeoutError);
  const pending = plain.rpc.request('open', undefined, { timeoutMs: 0 });
  plain.rpc.close('bye');
  await assert.rejects(pending, (err: unknown) => err instanceof ConnectionClosedError && err.reason === 'bye');
  await assert.rejects(plain.rpc.request('after'), ConnectionClosedError);

  const custom = engine({ timeoutError: (m, ms) => new RpcError(-32001, `${m} ${ms}`), closedError: () => new RpcError(-32603, 'closed') });
  await assert.rejects(custom.rpc.request('slow', {}, { timeoutMs: 5 }), (err: unknown) => err instanceof RpcError && err.message === 'slow 5');
  const open = custom.rpc.request('open');
  custom.rpc.close();
  await assert.rejects(open, (err: unknown) => err instanceof RpcError && err.message === 'closed');
  custom.rpc.notify('dropped');
  custom.rpc.receive({ jsonrpc: '2.0', id: 1, method: 'ignored' });
  assert.equal(custom.sent.length, 2, 'nothing is sent or answered after close');
});

test('a cancelled incoming request aborts its signal and is never answered; a same-id request is still served', async () => {
  const signals: AbortSignal[] = [];
  const releases: (() => void)[] = [];
  const { rpc, sent } = engine({
    onRequest: (_m, _p, { signal }) => {
      signals.push(signal);
      return new Promise((r) => releases.push(() => r('done')));
    },
  });
  rpc.receive({ jsonrpc: '2.0', id: 1, method: 'work' });
  rpc.cancelIncoming(1, new Error('user'));
  assert.equal(signals[0]!.aborted, true);
  assert.equal((signals[0]!.reason as Error).message, 'user');
  rpc.receive({ jsonrpc: '2.0', id: 1, method: 'work' });
  for (const release of releases) release();
  await tick();
  assert.deepEqual(sent, [{ jsonrpc: '2.0', id: 1, result: 'done' }]);
  rpc.receive({ jsonrpc: '2.0', id: 2, method: 'work' });
  rpc.close('gone');
  assert.ok(signals[2]!.reason instanceof ConnectionClosedError, 'close aborts what is being served');
});

test('the engine: malformed messages, batches, id null and raw frames are logged and skipped, never answered', () => {
  const notified: unknown[] = [];
  const { rpc, sent, logged } = engine({ onRequest: () => 'x', onNotification: (m, p) => void notified.push([m, p]) });
  const junk = [null, 7, '{"jsonrpc":"2.0","id":1,"method":"a"}', [{ jsonrpc: '2.0', id: 1, method: 'a' }], { jsonrpc: '2.0', id: null, method: 'a' }, { jsonrpc: '2.0', id: 1, error: 'no' }, { jsonrpc: '2.0' }];
  for (const msg of junk) rpc.receive(msg);
  assert.deepEqual(sent, []);
  assert.equal(logged.length, junk.length);
  rpc.receive({ jsonrpc: '2.0', id: undefined, method: 'note', params: 1 });
  assert.deepEqual(notified, [['note', 1]], 'id undefined (postMessage can carry it) is a notification');
});

test('JsonRpcServer: parse errors, invalid requests, id null and batches are answered as JSON-RPC 2.0 says', async () => {
  const { rpc, sent } = engine({ onRequest: async (m) => m }, JsonRpcServer);
  rpc.receive('{oops');
  rpc.receive({ jsonrpc: '2.0', id: 3, method: 9 });
  rpc.receive({ jsonrpc: '2.0', id: null, method: 'n' });
  rpc.receive('[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},{"jsonrpc":"2.0","id":5,"result":1}]');
  rpc.receive([{ jsonrpc: '2.0', method: 'only-a-notification' }]);
  await tick();
  assert.deepEqual(sent, [
    { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the frame is not valid JSON' } },
    { jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid Request' } },
    { jsonrpc: '2.0', id: null, result: 'n' },
    [{ jsonrpc: '2.0', id: 1, result: 'a' }],
  ]);
});

test('a throwing send or notification handler is logged; the engine keeps working', () => {
  let fail = true;
  const sent: unknown[] = [];
  const logged: string[] = [];
  const rpc = new JsonRpcEngine({
    send: (m) => {
      if (fail) throw new Error('socket gone');
      sent.push(m);
    },
    onNotification: () => {
      throw new Error('listener');
    },
    onRequest: () => 1,
    log: (m) => void logged.push(m),
  });
  rpc.receive({ jsonrpc: '2.0', id: 1, method: 'a' });
  rpc.receive({ jsonrpc: '2.0', method: 'n' });
  fail = false;
  rpc.receive({ jsonrpc: '2.0', id: 2, method: 'a' });
  assert.deepEqual(logged, ['failed to send a message', "notification handler for 'n' threw"]);
  assert.deepEqual(sent, [{ jsonrpc: '2.0', id: 2, result: 1 }]);
});

test('a request whose params the transport cannot send (a bigint, as JSON.stringify meets it) fails at once, not at its timeout', async () => {
  const sent: string[] = [];
  const logged: string[] = [];
  const rpc = new JsonRpcEngine({ send: (m) => void sent.push(JSON.stringify(m)), onRequest: () => 1, log: (m) => void logged.push(m), requestTimeoutMs: 2_000 });
  await assert.rejects(rpc.request('tools/call', { arguments: { n: 1n } }), TypeError);
  const answered = rpc.request('ping');
  assert.equal(sent.length, 1, 'the next request still goes out');
  rpc.receive({ jsonrpc: '2.0', id: JSON.parse(sent[0]!).id, result: 'pong' });
  assert.equal(await answered, 'pong');
  assert.deepEqual(logged, [], 'the failure went to the caller, not the log');
});

test('toErrorObject: integer code with message and data; anything else -32603', () => {
  assert.deepEqual(toErrorObject({ code: -1, message: 'm', data: null }), { code: -1, message: 'm', data: null });
  assert.deepEqual(toErrorObject({ code: -1 }), { code: -1, message: 'Error' });
  assert.deepEqual(toErrorObject(new Error('e')), { code: -32603, message: 'e' });
});

test('one error class: HostRpcError (host entry) and BridgeError (apps entry) are the client entry\'s RpcError', async () => {
  const client = await import('../../src/client/index.js');
  const host = await import('../../src/host.js');
  const apps = await import('../../src/apps.js');
  assert.equal(client.RpcError, RpcError);
  assert.equal(host.HostRpcError, RpcError);
  assert.equal(apps.BridgeError, RpcError);
  assert.ok(new client.UnsupportedProtocolVersionError(['1.0.0'], []) instanceof RpcError);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostCore } from '../../src/host.js';
import type { SessionState } from '../../src/protocol/index.js';

const SESSION = 'ahp-session:/wire';
const state: SessionState = { provider: 't', title: 't', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [] };
const tick = () => new Promise((r) => setTimeout(r, 0));

function raw() {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, state);
  const sent: Record<string, unknown>[] = [];
  const closes: (string | undefined)[] = [];
  const conn = host.connect({ send: (m) => void sent.push(m as Record<string, unknown>), close: (reason?: string) => void closes.push(reason) });
  return { host, conn, sent, closes };
}

const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'c' } };

test('JSON-RPC 2.0 edge cases are answered as the spec says; nothing throws', () => {
  const { conn, sent } = raw();
  const invalid = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } });
  const cases: [unknown, unknown][] = [
    ['{not json', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the frame is not valid JSON' } }],
    [new TextEncoder().encode('also not json'), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the frame is not valid JSON' } }],
    [new Uint8Array([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the frame is not valid UTF-8' } }],
    [null, invalid(null)],
    [42, invalid(null)],
    ['"a string"', invalid(null)],
    [{ jsonrpc: '2.0' }, invalid(null)],
    [{ id: 5, method: 'ping' }, invalid(5)], // no jsonrpc
    [{ jsonrpc: '2.0', id: 6, method: 7 }, invalid(6)],
    [{ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }, invalid(null)], // an id that is not string/number/null
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, { jsonrpc: '2.0', id: null, result: null }], // null id: a request, answered with id null
    [[], { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: empty batch' } }],
    [[1], [invalid(null)]],
    [
      [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'unsubscribe', params: {} }, { jsonrpc: '2.0', id: 'b', method: 'nope' }, 7],
      [{ jsonrpc: '2.0', id: 1, result: null }, { jsonrpc: '2.0', id: 'b', error: { code: -32600, message: "'nope' before 'initialize'" } }, invalid(null)],
    ],
    ['[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"ping"}]', [{ jsonrpc: '2.0', id: 2, result: null }]],
  ];
  for (const [frame, expected] of cases) {
    sent.length = 0;
    assert.doesNotThrow(() => conn.receive(frame));
    assert.deepEqual(sent, [expected], `answer to ${JSON.stringify(frame)}`);
  }
  for (const silent of [{ jsonrpc: '2.0', id: 9, result: 'a response to nothing' }, { jsonrpc: '2.0', method: 'dispatchAction', params: null }, [{ jsonrpc: '2.0', method: 'ping' }]]) {
    sent.length = 0;
    conn.receive(silent);
    assert.deepEqual(sent, [], `no answer to ${JSON.stringify(silent)}`);
  }
});

test('a batch with an async handler is answered as one array once every entry is done', async () => {
  const { host, conn, sent } = raw();
  host.handleRequest('slow', async () => {
    await tick();
    return 'late';
  });
  conn.receive(init);
  sent.length = 0;
  conn.receive([{ jsonrpc: '2.0', id: 1, method: 'slow' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
  assert.deepEqual(sent, []);
  await tick();
  await tick();
  assert.deepEqual(sent, [[{ jsonrpc: '2.0', id: 1, result: 'late' }, { jsonrpc: '2.0', id: 2, result: null }]]);
});

test('raw text and binary frames are parsed; ping is answered before initialize', () => {
  const { conn, sent } = raw();
  conn.receive('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"channel":"ahp-root://"}}');
  conn.receive(new TextEncoder().encode(JSON.stringify({ ...init, id: 2 })));
  assert.deepEqual(sent[0], { jsonrpc: '2.0', id: 1, result: null });
  assert.equal((sent[1]!.result as { protocolVersion: string }).protocolVersion, '1.0.0');
});

test('bad initialize params are -32602; a second initialize is refused', () => {
  const { conn, sent } = raw();
  conn.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersions: '1.0.0', clientId: 'c' } });
  conn.receive({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersions: ['1.0.0'] } });
  conn.receive(init);
  conn.receive({ ...init, id: 3 });
  assert.deepEqual(sent.map((m) => (m.error as { code: number } | undefined)?.code ?? 'ok'), [-32602, -32602, 'ok', -32600]);
});

test('-32005 carries data.supportedVersions and the host closes the connection', () => {
  const { conn, sent, closes } = raw();
  conn.receive({ ...init, params: { ...init.params, protocolVersions: ['0.5.0'] } });
  assert.deepEqual((sent[0]!.error as { data: unknown }).data, { supportedVersions: ['^1.0.0', '^0.9.0'] });
  assert.equal(closes.length, 1);
  conn.receive({ jsonrpc: '2.0', id: 2, method: 'ping' });
  assert.equal(sent.length, 1, 'a closed connection answers nothing');
});

test('dispatchAction before initialize and malformed dispatchAction params are ignored', () => {
  const { host, conn, sent } = raw();
  const action = { type: 'session/titleChanged', title: 'x' };
  conn.receive({ jsonrpc: '2.0', method: 'dispatchAction', params: { channel: SESSION, clientSeq: 1, action } });
  conn.receive(init);
  conn.receive({ jsonrpc: '2.0', id: 2, method: 'subscribe', params: { channel: SESSION } });
  for (const params of [{ channel: SESSION, action }, { channel: SESSION, clientSeq: '1', action }, { channel: SESSION, clientSeq: 1, action: { title: 'x' } }, { clientSeq: 1, action }]) {
    conn.receive({ jsonrpc: '2.0', method: 'dispatchAction', params });
  }
  assert.equal(host.serverSeq, 0);
  assert.equal(sent.length, 2);
});

test('a peer whose send throws, a throwing guard and a throwing reaction do not break the host', async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, state);
  host.onClientAction(() => {
    throw new Error('guard exploded');
  });
  const conn = host.connect({
    send: () => {
      throw new Error('socket gone');
    },
    close: () => {},
  });
  conn.receive(init);
  conn.receive({ jsonrpc: '2.0', id: 2, method: 'subscribe', params: { channel: SESSION } });
  conn.receive({ jsonrpc: '2.0', method: 'dispatchAction', params: { channel: SESSION, clientSeq: 1, action: { type: 'session/titleChanged', title: 'x' } } });
  assert.equal(host.actionsSince(SESSION, 0)![0]!.rejectionReason, 'Rejected by the host: guard exploded');
  assert.equal(host.getSessionState(SESSION)!.title, 't');
  await tick();
});

test('async request handlers answer later; answers after close are not sent', async () => {
  const { host, conn, sent } = raw();
  let release!: () => void;
  host.handleRequest('x-slow', () => new Promise((r) => (release = () => r({ done: true }))));
  conn.receive(init);
  conn.receive({ jsonrpc: '2.0', id: 2, method: 'x-slow', params: {} });
  assert.equal(sent.length, 1);
  release();
  await tick();
  assert.deepEqual(sent[1], { jsonrpc: '2.0', id: 2, result: { done: true } });
  conn.receive({ jsonrpc: '2.0', id: 3, method: 'x-slow', params: {} });
  conn.closed();
  release();
  await tick();
  assert.equal(sent.length, 2);
});

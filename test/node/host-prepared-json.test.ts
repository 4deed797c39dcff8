// prepareJsonResult: a channel handler's answer serialized once, sent as that (ASCII) text by attachWebSocket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostCore, attachTransport, attachWebSocket, prepareJsonResult, type ServerSocketLike } from '../../src/host.js';
import { createInMemoryPair } from '../../src/client/index.js';
import { preparedResponseText } from '../../src/host/prepared-json.js';

const HTML = '<!doctype html><p>Grüße, 世界 🌍 "quoted" \\ back\u2028sep</p>';
const answer = () => ({ contents: [{ uri: 'ui://x/view.html', mimeType: 'text/html;profile=mcp-app', text: HTML, _meta: { ui: { csp: { connectDomains: [] } } } }] });

/** A server-side socket that records what the host sends and lets the test deliver frames. */
function fakeSocket() {
  const sent: string[] = [];
  const listeners = new Map<string, ((...args: never[]) => void)[]>();
  const socket: ServerSocketLike = {
    send: (data) => void sent.push(data),
    close: () => {},
    on: (event, listener) => listeners.set(event, [...(listeners.get(event) ?? []), listener]),
  };
  const deliver = (msg: unknown) => {
    for (const listener of listeners.get('message') ?? []) (listener as (data: unknown) => void)(Buffer.from(JSON.stringify(msg)));
  };
  return { socket, sent, deliver };
}

/** A host whose `x-test://` channel answers `prepared` with the prepared value and `plain` with a fresh one. */
function hostWith(prepared: object) {
  const host = new HostCore({ log: () => {} });
  host.handleChannel('x-test://', async (method) => (method === 'prepared' ? prepared : answer()));
  return host;
}

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'c' } };
async function until<T>(read: () => T | undefined): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 1));
  }
}

test('a prepared result goes out over the WebSocket as its prepared ASCII text, the same JSON; a plain one as JSON.stringify', async () => {
  const value = answer();
  assert.equal(prepareJsonResult(value), value, 'returns the value itself');
  assert.ok(Object.isFrozen(value) && Object.isFrozen(value.contents[0]!._meta.ui.csp.connectDomains), 'frozen deeply');
  const { socket, sent, deliver } = fakeSocket();
  attachWebSocket(hostWith(value), socket);
  deliver(initialize);
  deliver({ jsonrpc: '2.0', id: 'p-1', method: 'prepared', params: { channel: 'x-test://a' } });
  deliver({ jsonrpc: '2.0', id: 2, method: 'plain', params: { channel: 'x-test://a' } });
  const frameOf = (id: unknown) => until(() => sent.find((f) => JSON.parse(f).id === id));
  const prepared = await frameOf('p-1');
  const plain = await frameOf(2);
  assert.match(prepared, /^[\x20-\x7e]*$/, 'ASCII only: other characters as \\uXXXX');
  assert.ok(prepared.includes('\\u4e16\\u754c') && prepared.includes('\\ud83c\\udf0d'), 'non-ASCII characters escaped');
  assert.deepEqual(JSON.parse(prepared), { jsonrpc: '2.0', id: 'p-1', result: answer() }, 'the same JSON');
  assert.equal(plain, JSON.stringify({ jsonrpc: '2.0', id: 2, result: answer() }), 'not prepared: serialized as before');
  // The same value again (as a cache serves it): the same text, with this request's id.
  deliver({ jsonrpc: '2.0', id: 3, method: 'prepared', params: { channel: 'x-test://a' } });
  assert.equal(await frameOf(3), prepared.replace('"id":"p-1"', '"id":3'));
});

test('a prepared result in a batch answer, or over a transport that carries objects, is sent as the plain value', async () => {
  const value = prepareJsonResult(answer());
  const { socket, sent, deliver } = fakeSocket();
  attachWebSocket(hostWith(value), socket);
  deliver(initialize);
  deliver([{ jsonrpc: '2.0', id: 7, method: 'prepared', params: { channel: 'x-test://a' } }]);
  const batch = await until(() => sent.find((f) => f.startsWith('[')));
  assert.equal(batch, JSON.stringify([{ jsonrpc: '2.0', id: 7, result: answer() }]));

  const [clientSide, hostSide] = createInMemoryPair();
  attachTransport(hostWith(value), hostSide);
  const got: unknown[] = [];
  clientSide.onmessage = (msg) => void got.push(msg);
  clientSide.send(initialize as never);
  clientSide.send({ jsonrpc: '2.0', id: 8, method: 'prepared', params: { channel: 'x-test://a' } } as never);
  const reply = await until(() => got.find((m) => (m as { id?: unknown }).id === 8));
  assert.deepEqual(reply, { jsonrpc: '2.0', id: 8, result: answer() });
});

test('only a plain success response of a prepared value is sent as prepared text', () => {
  const value = prepareJsonResult(answer());
  assert.equal(preparedResponseText({ jsonrpc: '2.0', id: 1, result: value }), `{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(answer()).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}}`);
  assert.equal(preparedResponseText({ jsonrpc: '2.0', id: 1, result: value, extra: true }), undefined, 'anything more is serialized as it is');
  assert.equal(preparedResponseText({ jsonrpc: '2.0', id: 1, result: answer() }), undefined, 'an equal value that was not prepared');
  assert.equal(preparedResponseText([{ jsonrpc: '2.0', id: 1, result: value }]), undefined, 'a batch');
  assert.equal(preparedResponseText({ jsonrpc: '2.0', method: 'x', params: value }), undefined, 'a notification carrying it');
});

// windowTransport: the postMessage side of the one Transport shape, with its origin and source pinning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { windowTransport } from '../../src/apps/transport.js';

const PROXY_ORIGIN = 'https://sandbox.example';

function frames() {
  const self = new EventTarget();
  const posted: [unknown, string][] = [];
  const proxy = { postMessage: (message: unknown, origin: string) => void posted.push([message, origin]) };
  const other = { postMessage() {} };
  const arrive = (data: unknown, origin: string, source: unknown) => self.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));
  return { self, proxy, other, posted, arrive };
}

test('sends pinned to the proxy origin; accepts only the proxy window on the proxy origin', () => {
  const { self, proxy, other, posted, arrive } = frames();
  const transport = windowTransport(proxy as unknown as Window, PROXY_ORIGIN, self as unknown as Window);
  const got: unknown[] = [];
  transport.onmessage = (m) => got.push(m);
  transport.send({ jsonrpc: '2.0', method: 'ping' });
  assert.deepEqual(posted, [[{ jsonrpc: '2.0', method: 'ping' }, PROXY_ORIGIN]]);
  arrive('from the proxy', PROXY_ORIGIN, proxy);
  arrive('another frame on the proxy origin', PROXY_ORIGIN, other);
  arrive('the proxy window from another origin', 'https://evil.example', proxy);
  arrive('no source', PROXY_ORIGIN, null);
  assert.deepEqual(got, ['from the proxy']);
});

test('close stops listening, fires onclose once and drops later sends', () => {
  const { self, proxy, posted, arrive } = frames();
  const transport = windowTransport(proxy as unknown as Window, PROXY_ORIGIN, self as unknown as Window);
  const got: unknown[] = [];
  const closes: (string | undefined)[] = [];
  transport.onmessage = (m) => got.push(m);
  transport.onclose = (reason) => closes.push(reason);
  transport.close('done');
  transport.close('again');
  arrive('late', PROXY_ORIGIN, proxy);
  transport.send({ jsonrpc: '2.0', method: 'late' });
  assert.deepEqual(got, []);
  assert.deepEqual(posted, []);
  assert.deepEqual(closes, ['done']);
});

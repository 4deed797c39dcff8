import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import { UiResourceCache } from '../../src/apps/resource-cache.js';

function channel(options: { failReads?: number } = {}) {
  const calls: string[] = [];
  let failures = options.failReads ?? 0;
  const ch = {
    async request<R>(method: string, params?: { uri?: string }): Promise<R> {
      calls.push(method);
      if (method === 'resources/list') return { resources: [{ uri: 'ui://a', _meta: { ui: { domain: 'a' } } }] } as R;
      if (failures-- > 0) throw new Error('server busy');
      return { contents: [{ uri: params?.uri, mimeType: 'text/html;profile=mcp-app', text: `<p>${params?.uri}</p>` }] } as R;
    },
  } as unknown as McpChannel;
  return { ch, calls, count: (m: string) => calls.filter((c) => c === m).length };
}

test('a resource is read once per server start; the listing once per start too', async () => {
  const cache = new UiResourceCache();
  const { ch, count } = channel();
  const start = { kind: 'ready' };
  const [a, b] = await Promise.all([cache.read(ch, 'ui://a', start), cache.read(ch, 'ui://a', start)]);
  assert.equal(a, b);
  assert.equal(a.meta.domain, 'a', 'the listing meta is merged');
  await cache.read(ch, 'ui://b', start);
  assert.equal(count('resources/read'), 2);
  assert.equal(count('resources/list'), 1, 'one listing for the start');
  assert.equal(cache.peek(ch, 'ui://a', start)?.html, '<p>ui://a</p>');
  const restarted = { kind: 'ready' };
  assert.equal(cache.peek(ch, 'ui://a', restarted), undefined, 'nothing known for a new start');
  await cache.read(ch, 'ui://a', restarted);
  assert.equal(count('resources/read'), 3, 'a new start reads again');
  assert.equal(count('resources/list'), 2);
});

test('a failed read is not kept: the next App tries again', async () => {
  const cache = new UiResourceCache();
  const { ch, count } = channel({ failReads: 1 });
  await assert.rejects(cache.read(ch, 'ui://a'), /server busy/);
  assert.equal((await cache.read(ch, 'ui://a')).html, '<p>ui://a</p>');
  assert.equal(count('resources/read'), 2);
});

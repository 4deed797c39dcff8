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

test('the read is served without waiting for the listing; `listed` adds what the listing says; later Apps get the merged meta', async () => {
  const cache = new UiResourceCache();
  let answerListing: (() => void) | undefined;
  const calls: string[] = [];
  const ch = {
    async request<R>(method: string, params?: { uri?: string }): Promise<R> {
      calls.push(method);
      if (method === 'resources/list') {
        await new Promise<void>((r) => (answerListing = r));
        return { resources: [{ uri: 'ui://a', _meta: { ui: { domain: 'a', csp: { connectDomains: ['https://listed.example'] }, prefersBorder: false } } }] } as R;
      }
      return { contents: [{ uri: params?.uri, mimeType: 'text/html;profile=mcp-app', text: '<p>a</p>', _meta: { ui: { prefersBorder: true } } }] } as R;
    },
  } as unknown as McpChannel;
  const first = await cache.read(ch, 'ui://a');
  assert.ok(answerListing, 'the listing was asked for and has not answered');
  assert.deepEqual(first.meta, { prefersBorder: true }, 'the content item alone while the listing is out');
  answerListing!();
  assert.deepEqual(await first.listed, { domain: 'a', csp: { connectDomains: ['https://listed.example'] }, prefersBorder: true }, 'the listing fills the keys the content item lacks; the content item wins');
  const later = await cache.read(ch, 'ui://a');
  assert.deepEqual(later.meta, await first.listed, 'the next App starts with the merged meta');
  assert.deepEqual(cache.peek(ch, 'ui://a')?.meta, later.meta);
  assert.deepEqual(calls.sort(), ['resources/list', 'resources/read'], 'one read and one listing');
});

test('a listing that answered before the read is merged at once (listed is the same meta)', async () => {
  const cache = new UiResourceCache();
  const { ch } = channel();
  const resource = await cache.read(ch, 'ui://a');
  assert.equal(resource.meta.domain, 'a');
  assert.equal(await resource.listed, resource.meta);
});

test('a View sent as a base64 blob is decoded as UTF-8 (multi-byte characters, a few MB)', async () => {
  const { readUiResourceItem } = await import('../../src/apps/resource.js');
  const html = `<!doctype html><p>Grüße, 世界 🌍</p>${'<!-- padding -->'.repeat(200_000)}<p>end ✓</p>`;
  const blob = Buffer.from(html, 'utf8').toString('base64');
  const ch = { request: async <R>() => ({ contents: [{ uri: 'ui://b', mimeType: 'text/html;profile=mcp-app', blob }] }) as R } as unknown as McpChannel;
  const item = await readUiResourceItem(ch, 'ui://b');
  assert.equal(item.html.length, html.length);
  assert.equal(item.html, html);
});

test('a listing asked before any read (a server just ready) is the one the first read uses; its meta is known without a request', async () => {
  const cache = new UiResourceCache();
  const { ch, count } = channel();
  const start = { kind: 'ready' };
  assert.deepEqual(cache.likely(ch, 'ui://a', start), {}, 'nothing asked yet');
  const list = await cache.listing(ch, start);
  assert.deepEqual(list.map((r) => (r as { uri: string }).uri), ['ui://a']);
  assert.deepEqual(cache.likely(ch, 'ui://a', start), { domain: 'a' });
  assert.deepEqual(cache.likely(ch, 'ui://a', { kind: 'ready' }), {}, 'not for another start');
  assert.equal(count('resources/read'), 0);
  const read = await cache.read(ch, 'ui://a', start);
  assert.equal(read.meta.domain, 'a', 'merged at once: the listing had answered');
  assert.equal(count('resources/list'), 1, 'listed once for the start');
});

test('likely: this start\'s read or listing, else the content item\'s meta from the View\'s last read in an earlier start; clear(true) keeps that guess, clear() not', async () => {
  const cache = new UiResourceCache();
  let contentMeta: Record<string, unknown> = { csp: { connectDomains: ['https://fonts.example'] }, prefersBorder: true };
  const ch = {
    async request<R>(method: string, params?: { uri?: string }): Promise<R> {
      if (method === 'resources/list') return { resources: [{ uri: 'ui://a', _meta: { ui: { domain: 'a', prefersBorder: false } } }, { uri: 'ui://b' }] } as R;
      return { contents: [{ uri: params?.uri, mimeType: 'text/html;profile=mcp-app', text: '<p>a</p>', _meta: { ui: contentMeta } }] } as R;
    },
  } as unknown as McpChannel;
  const first = { kind: 'ready' };
  assert.deepEqual(cache.likely(ch, 'ui://a', first), {}, 'nothing known');
  await cache.listing(ch, first);
  assert.deepEqual(cache.likely(ch, 'ui://a', first), { domain: 'a', prefersBorder: false }, 'the listing');
  await cache.read(ch, 'ui://a', first);
  const second = { kind: 'ready' };
  assert.deepEqual(cache.likely(ch, 'ui://a', second), contentMeta, 'a new start before its listing: the last content item');
  await cache.listing(ch, second);
  assert.deepEqual(cache.likely(ch, 'ui://a', second), { domain: 'a', prefersBorder: true, csp: { connectDomains: ['https://fonts.example'] } }, 'the listing under it');
  assert.deepEqual(cache.likely(ch, 'ui://b', second), {}, 'another View of the server: nothing read yet');
  contentMeta = { csp: { connectDomains: ['https://other.example'] } };
  const read = await cache.read(ch, 'ui://a', second);
  assert.deepEqual(cache.likely(ch, 'ui://a', second), read.meta, 'this start\'s read wins');
  assert.deepEqual(cache.likely(ch, 'ui://a', { kind: 'ready' }), contentMeta, 'the latest read is remembered');
  cache.clear(true);
  assert.deepEqual(cache.likely(ch, 'ui://a', second), contentMeta, 'clear(true) keeps the guess');
  assert.equal(cache.peek(ch, 'ui://a', second), undefined, 'but not the read');
  cache.clear();
  assert.deepEqual(cache.likely(ch, 'ui://a', second), {}, 'clear() forgets it too');
});

test('likely remembers a bounded number of Views per channel (starting over when full); a failed read teaches nothing', async () => {
  const cache = new UiResourceCache();
  const ch = {
    async request<R>(method: string, params?: { uri?: string }): Promise<R> {
      if (method === 'resources/list') return { resources: [] } as R;
      if (params?.uri === 'ui://broken') return { contents: [] } as R;
      return { contents: [{ uri: params?.uri, mimeType: 'text/html;profile=mcp-app', text: '<p></p>', _meta: { ui: { domain: params?.uri } } }] } as R;
    },
  } as unknown as McpChannel;
  for (let i = 0; i < 40; i++) await cache.read(ch, `ui://v${i}`);
  await assert.rejects(cache.read(ch, 'ui://broken'));
  const later = { kind: 'ready' };
  assert.deepEqual(cache.likely(ch, 'ui://v0', later), {}, 'the first 32 went when the 33rd came');
  assert.deepEqual(cache.likely(ch, 'ui://v31', later), {});
  assert.deepEqual(cache.likely(ch, 'ui://v32', later), { domain: 'ui://v32' });
  assert.deepEqual(cache.likely(ch, 'ui://v39', later), { domain: 'ui://v39' });
  assert.deepEqual(cache.likely(ch, 'ui://broken', later), {});
});

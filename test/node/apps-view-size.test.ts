import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import { UiResourceCache } from '../../src/apps/resource-cache.js';
import { MAX_VIEW_LENGTH, readUiResource, readUiResourceItem, type ViewTooLargeError } from '../../src/apps/resource.js';

const tooLarge = (e: unknown): e is ViewTooLargeError => e instanceof Error && (e as Partial<ViewTooLargeError>).kind === 'tooLarge';

const MIME = 'text/html;profile=mcp-app';

/** A channel whose `resources/read` answers with `item` (plus the MIME type), counting requests. */
function serving(item: Record<string, unknown>) {
  const calls: string[] = [];
  const ch = {
    async request<R>(method: string): Promise<R> {
      calls.push(method);
      if (method === 'resources/list') return { resources: [] } as R;
      return { contents: [{ uri: 'ui://big', mimeType: MIME, ...item }] } as R;
    },
  } as unknown as McpChannel;
  return { ch, reads: () => calls.filter((c) => c === 'resources/read').length };
}

test('the default limit fits the published Views (the PDF viewer is 4.3 M units) and is documented as 16 Mi units', () => {
  assert.equal(MAX_VIEW_LENGTH, 16 * 1024 * 1024);
  assert.ok(MAX_VIEW_LENGTH > 4.4e6 * 3, 'room for Views three times the PDF viewer');
});

test('a text View at the limit is taken; one unit over it is refused with the lengths, before anything is decoded', async () => {
  const limit = 1000;
  const atLimit = '<p>' + 'x'.repeat(limit - 7) + '</p>';
  assert.equal(atLimit.length, limit);
  assert.equal((await readUiResourceItem(serving({ text: atLimit }).ch, 'ui://big', limit)).html, atLimit);
  const error = await readUiResourceItem(serving({ text: atLimit + 'x' }).ch, 'ui://big', limit).then(
    () => assert.fail('an oversized View was taken'),
    (e: unknown) => e,
  );
  assert.ok(tooLarge(error));
  assert.equal(error.kind, 'tooLarge');
  assert.equal(error.length, limit + 1);
  assert.equal(error.limit, limit);
  assert.match(error.message, /ui:\/\/big: too large \(1001 > 1000\)/);
});

test('a base64 blob is measured by its decoded size before it is decoded (an undecodable oversized blob is refused for its size)', async () => {
  const limit = 300;
  const fits = Buffer.from('é'.repeat(150), 'utf8').toString('base64'); // 300 bytes
  assert.equal((await readUiResourceItem(serving({ blob: fits }).ch, 'ui://big', limit)).html, 'é'.repeat(150));
  const over = Buffer.from('x'.repeat(limit + 3), 'utf8').toString('base64');
  await assert.rejects(readUiResourceItem(serving({ blob: over }).ch, 'ui://big', limit), tooLarge);
  // Not valid base64 at all: decoding it would throw atob's error; the size check comes first.
  await assert.rejects(readUiResourceItem(serving({ blob: '!'.repeat(4 * limit) }).ch, 'ui://big', limit), (e: unknown) => tooLarge(e) && e.length === 3 * limit);
  // Text wins over blob, as before: a small text with a huge blob beside it is the text.
  assert.equal((await readUiResourceItem(serving({ text: '<p>t</p>', blob: 'A'.repeat(8 * limit) }).ch, 'ui://big', limit)).html, '<p>t</p>');
});

test('the default limit applies to every read: readUiResource and the cache refuse a View one unit over 16 Mi', async () => {
  const text = 'x'.repeat(MAX_VIEW_LENGTH + 1);
  await assert.rejects(readUiResource(serving({ text }).ch, 'ui://big'), (e: unknown) => tooLarge(e) && e.length === MAX_VIEW_LENGTH + 1 && e.limit === MAX_VIEW_LENGTH);
  const fits = 'x'.repeat(MAX_VIEW_LENGTH);
  assert.equal((await readUiResource(serving({ text: fits }).ch, 'ui://big')).html.length, MAX_VIEW_LENGTH);
});

test('the cache keeps nothing of an oversized View: no HTML to peek, and the refusal (not the HTML) holds for the server start', async () => {
  const cache = new UiResourceCache();
  const { ch, reads } = serving({ text: 'x'.repeat(MAX_VIEW_LENGTH + 1) });
  const start = { kind: 'ready' };
  await assert.rejects(cache.read(ch, 'ui://big', start), tooLarge);
  assert.equal(cache.peek(ch, 'ui://big', start), undefined, 'nothing cached');
  await assert.rejects(cache.read(ch, 'ui://big', start), tooLarge);
  assert.equal(reads(), 1, 'a second App of the same start is refused without downloading it again');
  const restarted = { kind: 'ready' };
  await assert.rejects(cache.read(ch, 'ui://big', restarted), tooLarge);
  assert.equal(reads(), 2, 'a new server start reads again');
});

test('an oversized mimeType is cut in the error (the message stays short)', async () => {
  const { ch } = serving({ mimeType: 'text/plain' + ' '.repeat(10) + 'y'.repeat(1_000_000), text: '<p></p>' });
  const error = await readUiResourceItem(ch, 'ui://big').catch((e: Error) => e);
  assert.ok(error instanceof Error);
  assert.match(error.message, /unsupported mimeType/);
  assert.ok(error.message.length < 300, `message length ${error.message.length}`);
});

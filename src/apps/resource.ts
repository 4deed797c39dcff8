import type { McpChannel } from '../client/mcp-channel.js';
import { MCP_APP_MIME_TYPE, type McpUiResourceMeta } from './types.js';
import { isRecord } from '../protocol/guards.js';
import { base64Bytes } from './base64.js';

/** A `ui://` resource ready to render. */
export interface UiResource {
  html: string;
  /** `_meta.ui`: the listing entry's, overridden key by key by the content item's. */
  meta: McpUiResourceMeta;
}

/**
 * The longest View HTML an App takes from `resources/read`, in UTF-16 code units (16 Mi; the published PDF viewer's is
 * 4.3 M). A base64 `blob` counts its decoded bytes, estimated from its length before it is decoded. A longer View is
 * refused with `ViewTooLargeError` before its HTML is decoded, encoded for the sandbox (3 bytes a unit for a moment)
 * or cached.
 */
export const MAX_VIEW_LENGTH = 16 * 1024 * 1024;

/** What the reads throw for a View longer than the limit (`MAX_VIEW_LENGTH`), before it is decoded, encoded or cached. */
export interface ViewTooLargeError extends Error {
  kind: 'tooLarge';
  /** Its length in UTF-16 code units (a blob: its decoded bytes, estimated from the base64 length). */
  length: number;
  limit: number;
}

type Obj = Record<string, unknown>;
const uiOf = (item: unknown): Obj | undefined => {
  if (!isRecord(item)) return undefined;
  const meta = isRecord(item['_meta']) ? item['_meta'] : isRecord(item['meta']) ? item['meta'] : undefined;
  return meta && isRecord(meta['ui']) ? meta['ui'] : undefined;
};

/** The server's `resources/list` entries; empty when it cannot list (capability, or it leaves UI resources out). */
export function listUiResources(channel: McpChannel): Promise<unknown[]> {
  return channel.request<Obj>('resources/list', {}).then(
    (list) => (Array.isArray(list?.['resources']) ? list['resources'] : []),
    () => [],
  );
}

/** The `_meta.ui` of the listing entry for `uri`; undefined when it is not listed or has none. */
export function listedUiMeta(list: readonly unknown[], uri: string): McpUiResourceMeta | undefined {
  return uiOf(list.find((r) => isRecord(r) && r['uri'] === uri)) as McpUiResourceMeta | undefined;
}

/** The listing entry's `_meta.ui` overridden key by key by the content item's (spec: hosts check both, the content item wins). */
export function mergeUiMeta(listed: McpUiResourceMeta | undefined, own: McpUiResourceMeta | undefined): McpUiResourceMeta {
  return { ...listed, ...own };
}

/**
 * Reads a `ui://` resource over the server's `mcp://` channel (`resources/read`) and takes the HTML from `text` or
 * base64 `blob`; `meta` is the content item's `_meta.ui` alone (no listing asked).
 * Throws when the answer is not exactly one MCP App HTML document, and `ViewTooLargeError` when it is longer than
 * `limit` (before any decoding).
 */
export async function readUiResourceItem(channel: McpChannel, uri: string, limit = MAX_VIEW_LENGTH): Promise<UiResource> {
  const result = await channel.request<Obj>('resources/read', { uri });
  const contents = Array.isArray(result?.['contents']) ? result['contents'] : [];
  if (contents.length !== 1 || !isRecord(contents[0])) throw new Error(`resources/read ${uri}: expected exactly one content item, got ${contents.length}`);
  const item = contents[0];
  const mime = typeof item['mimeType'] === 'string' ? item['mimeType'] : '';
  if (mime && mime.replace(/\s/g, '') !== MCP_APP_MIME_TYPE) throw new Error(`resources/read ${uri}: unsupported mimeType ${mime.slice(0, 100)}`);
  const { text, blob } = item;
  const isText = typeof text === 'string';
  if (!isText && typeof blob !== 'string') throw new Error(`resources/read ${uri}: no text or blob`);
  // A blob's decoded size is known before decoding: 3 bytes for every 4 base64 characters.
  const length = isText ? text.length : (blob as string).length * 0.75;
  if (length > limit) {
    const tooLarge: Omit<ViewTooLargeError, keyof Error> = { kind: 'tooLarge', length, limit };
    throw Object.assign(new Error(`resources/read ${uri}: too large (${length} > ${limit})`), tooLarge);
  }
  const html = isText ? text : new TextDecoder().decode(base64Bytes(blob as string));
  return { html, meta: (uiOf(item) ?? {}) as McpUiResourceMeta };
}

/**
 * Reads a `ui://` resource over the server's `mcp://` channel (`resources/read`), takes the HTML from `text` or
 * base64 `blob`, and merges `_meta.ui` from the `resources/list` entry (when listable) under the content item's.
 * The listing is requested in parallel with the read (one round trip, not two), or passed in when the caller already
 * has it; the answer waits for both (`UiResourceCache` does not wait for the listing).
 * Throws when the answer is not exactly one MCP App HTML document.
 */
export async function readUiResource(channel: McpChannel, uri: string, resources: Promise<unknown[]> = listUiResources(channel)): Promise<UiResource> {
  // Not listable, or not listed: the content item's meta alone.
  const listing = resources.then((list) => listedUiMeta(list, uri));
  const item = await readUiResourceItem(channel, uri);
  return { html: item.html, meta: mergeUiMeta(await listing, item.meta) };
}

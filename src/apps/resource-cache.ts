import type { McpChannel } from '../client/mcp-channel.js';
import { listUiResources, listedUiMeta, mergeUiMeta, readUiResourceItem, type UiResource } from './resource.js';
import type { McpUiResourceMeta } from './types.js';

/** A resource as the cache serves it: `meta` as far as known when the read answered, `listed` once the listing has too. */
export interface CachedUiResource extends UiResource {
  /**
   * `_meta.ui` once the server's listing answered as well (the listing entry's under the content item's). The
   * same as `meta` when the listing had answered before the read; else it may add keys the content item lacks.
   */
  readonly listed: Promise<McpUiResourceMeta>;
}

/** At most this many Views per channel are remembered for `likely` (then it starts over: a server naming ever new Views stays bounded). */
const MAX_GUESSES = 32;

interface Listing {
  answered: Promise<unknown[]>;
  /** The entries once the listing answered. */
  list: unknown[] | undefined;
}

interface ServerStart {
  /** What marks this start of the server (see `UiResourceCache.read`). */
  start: unknown;
  listing: Listing | undefined;
  reads: Map<string, Promise<CachedUiResource>>;
  settled: Map<string, CachedUiResource>;
}

/**
 * `ui://` resources read once per server start and shared by every App of that server: the first App (or a prefetch
 * as soon as a tool call names its resource) reads, the rest reuse the answer. The server's listing is requested
 * once per start too, alongside the first read, and never waited for: a read that answers first is served with the
 * content item's `_meta.ui` (which wins over the listing's key by key), and `listed` says what the listing adds once
 * it answers (later Apps get the merged meta at once). A failed read is forgotten so the next App tries again, except
 * a View over the size limit (`ViewTooLargeError`): that refusal (not the HTML) is kept for the server start.
 * What each View's content item said about its `_meta.ui` is remembered across server starts as a guess (`likely`):
 * only for loading a proxy early, never applied (a frame is used only when the read's own meta needs exactly it).
 */
export class UiResourceCache {
  private byChannel = new WeakMap<McpChannel, ServerStart>();
  /** The content item's `_meta.ui` of each View's last read, per channel (which stays the same across server starts). */
  private lastReadMetas = new WeakMap<McpChannel, Map<string, McpUiResourceMeta>>();

  /**
   * The resource as this start of the server serves it. `start` is anything that changes when the server restarts
   * (e.g. its state object in the session); a different value than last time drops what was read before.
   */
  read(channel: McpChannel, uri: string, start?: unknown): Promise<CachedUiResource> {
    const entry = this.entryFor(channel, start);
    let reading = entry.reads.get(uri);
    if (!reading) {
      const listing = (entry.listing ??= listingOf(channel));
      reading = readUiResourceItem(channel, uri).then((item) => {
        // Remembered for `likely` in later starts; a server naming ever new Views starts the list over when it is full.
        let views = this.lastReadMetas.get(channel);
        if (!views || views.size >= MAX_GUESSES) this.lastReadMetas.set(channel, (views = new Map()));
        views.set(uri, item.meta);
        return withListing(item, uri, listing);
      });
      const current = reading;
      entry.reads.set(uri, current);
      current.then(
        (resource) => {
          if (entry.reads.get(uri) !== current) return;
          entry.settled.set(uri, resource);
          // Once the listing has answered, later Apps start with the merged meta straight away.
          void resource.listed.then((meta) => {
            if (entry.settled.get(uri) !== resource || meta === resource.meta) return;
            const merged: CachedUiResource = { html: resource.html, meta, listed: resource.listed };
            entry.settled.set(uri, merged);
            entry.reads.set(uri, Promise.resolve(merged));
          });
        },
        // Too large stays refused for this start (no second download of it); other failures are tried again.
        (error) => entry.reads.get(uri) === current && (error as { kind?: unknown })?.kind !== 'tooLarge' && entry.reads.delete(uri),
      );
    }
    return reading;
  }

  /** The resource if this start of the server already served it (no request). */
  peek(channel: McpChannel, uri: string, start?: unknown): CachedUiResource | undefined {
    const entry = this.byChannel.get(channel);
    return entry && entry.start === start ? entry.settled.get(uri) : undefined;
  }

  /**
   * The server's `resources/list` entries for this start: requested once per start and shared with the reads (a
   * listing asked for before any App, e.g. when the server became ready, is the one the first App's read uses).
   */
  listing(channel: McpChannel, start?: unknown): Promise<unknown[]> {
    return (this.entryFor(channel, start).listing ??= listingOf(channel)).answered;
  }

  /**
   * The `_meta.ui` the View at `uri` most likely has, without a request: this start's read, else this start's listing
   * entry (when it answered) under the content item's meta of the View's last read in an earlier start. A guess for
   * loading a sandbox proxy before the read answers (pdf's CSP, for one, is only in its content item); `{}` when
   * nothing is known.
   */
  likely(channel: McpChannel, uri: string, start?: unknown): McpUiResourceMeta {
    const entry = this.byChannel.get(channel);
    const list = entry?.start === start ? entry?.listing?.list : undefined;
    // The content item's keys win over the listing's, as in a read.
    return this.peek(channel, uri, start)?.meta ?? mergeUiMeta(list && listedUiMeta(list, uri), this.lastReadMetas.get(channel)?.get(uri));
  }

  /**
   * Forgets everything read so far; with `keepGuesses` what `likely` knows from earlier reads stays (as when every
   * server starts again).
   */
  clear(keepGuesses?: boolean): void {
    this.byChannel = new WeakMap();
    if (!keepGuesses) this.lastReadMetas = new WeakMap();
  }

  private entryFor(channel: McpChannel, start: unknown): ServerStart {
    let entry = this.byChannel.get(channel);
    if (!entry || entry.start !== start) this.byChannel.set(channel, (entry = { start, listing: undefined, reads: new Map(), settled: new Map() }));
    return entry;
  }
}

function listingOf(channel: McpChannel): Listing {
  const listing: Listing = { answered: listUiResources(channel), list: undefined };
  void listing.answered.then((list) => (listing.list = list));
  return listing;
}

/** The content item's meta, merged with the listing's now if it has answered, else when it does (`listed`). */
function withListing(item: UiResource, uri: string, listing: Listing): CachedUiResource {
  if (listing.list) {
    const meta = mergeUiMeta(listedUiMeta(listing.list, uri), item.meta);
    return { html: item.html, meta, listed: Promise.resolve(meta) };
  }
  return { html: item.html, meta: item.meta, listed: listing.answered.then((list) => mergeUiMeta(listedUiMeta(list, uri), item.meta)) };
}

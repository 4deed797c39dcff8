import type { McpChannel } from '../client/mcp-channel.js';
import { listUiResources, readUiResource, type UiResource } from './resource.js';

interface ServerStart {
  /** What marks this start of the server (see `UiResourceCache.read`). */
  start: unknown;
  listing: Promise<unknown[]> | undefined;
  reads: Map<string, Promise<UiResource>>;
  settled: Map<string, UiResource>;
}

/**
 * `ui://` resources read once per server start and shared by every App of that server: the first App (or a prefetch
 * as soon as a tool call names its resource) reads, the rest reuse the answer. The server's listing is requested
 * once per start too, alongside the first read. A failed read is forgotten so the next App tries again.
 */
export class UiResourceCache {
  private byChannel = new WeakMap<McpChannel, ServerStart>();

  /**
   * The resource as this start of the server serves it. `start` is anything that changes when the server restarts
   * (e.g. its state object in the session); a different value than last time drops what was read before.
   */
  read(channel: McpChannel, uri: string, start?: unknown): Promise<UiResource> {
    const entry = this.entryFor(channel, start);
    let reading = entry.reads.get(uri);
    if (!reading) {
      entry.listing ??= listUiResources(channel);
      reading = readUiResource(channel, uri, entry.listing);
      const current = reading;
      entry.reads.set(uri, current);
      current.then(
        (resource) => entry.reads.get(uri) === current && entry.settled.set(uri, resource),
        () => entry.reads.get(uri) === current && entry.reads.delete(uri),
      );
    }
    return reading;
  }

  /** The resource if this start of the server already served it (no request). */
  peek(channel: McpChannel, uri: string, start?: unknown): UiResource | undefined {
    const entry = this.byChannel.get(channel);
    return entry && entry.start === start ? entry.settled.get(uri) : undefined;
  }

  /** Forgets everything read so far. */
  clear(): void {
    this.byChannel = new WeakMap();
  }

  private entryFor(channel: McpChannel, start: unknown): ServerStart {
    let entry = this.byChannel.get(channel);
    if (!entry || entry.start !== start) this.byChannel.set(channel, (entry = { start, listing: undefined, reads: new Map(), settled: new Map() }));
    return entry;
  }
}

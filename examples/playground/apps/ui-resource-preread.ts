/**
 * What an App asks its server first, asked by the host as soon as the server is ready: the resource listing (of a
 * server that announces its changes) and the
 * `ui://` Views its tools declare. The `mcp://` channel's `resources/list` and `resources/read` of them are answered
 * from that. The MCP Apps specification (SEP-1865) allows exactly this at connect time: a host lists tools and
 * resources, caches the listing's `_meta.ui`, and MAY prefetch and cache the `ui://` HTML.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { prepareJsonResult } from '../../../src/host.js';
import { resourceUriOf } from '../../../src/apps/tool-call.js';
import { listedUiMeta, mergeUiMeta } from '../../../src/apps/resource.js';
import { isRecord } from '../../../src/protocol/guards.js';

/** What the pre-read needs from one running server (an `McpServerRuntime` fits). */
export interface PrereadServer {
  /**
   * The server's `initialize` capabilities: nothing is asked of a server without `resources`, and its listing only
   * when it announces changes to it (`resources.listChanged`: a kept listing is dropped on that notification).
   */
  readonly serverCapabilities?: { resources?: { listChanged?: boolean } } | undefined;
  listTools(): Promise<Tool[]>;
  request(method: string, params?: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<Record<string, unknown>>;
}

/** Memory bounds of the kept answers (UTF-16 code units; an answer counts twice, as value and as prepared JSON text). */
export interface PrereadLimits {
  /** An answer larger than this is passed on to whoever waits for it but not kept. Default 16 Mi (the pdf View counts 8.4 M). */
  maxAnswerChars?: number;
  /** All kept answers together; the oldest are dropped to make room. Default 64 Mi. */
  maxTotalChars?: number;
  /** At most this many Views per server start are read (the first its tools name). Default 16. */
  maxViewsPerServer?: number;
  /** How long one request may take (the relay's own limit, so a shared request waits no less than an App's own). */
  timeoutMs?: number;
}

type Answer = Record<string, unknown>;

interface Entry {
  answer: Promise<Answer>;
  /** Set once the answer is kept. */
  chars?: number;
  /** The answer, once kept. */
  kept?: Answer;
}

interface ServerStart {
  server: PrereadServer;
  /** The `ui://` resources this start's tools declare: only their reads are answered here. */
  views: Set<string>;
  /** The server announces listing changes, so its listing may be kept. */
  keepsListing: boolean;
  /** By request: LISTING, or the View's URI for its read. */
  entries: Map<string, Entry>;
  /** The Views whose content item's `_meta.ui` a listing of this start carried (see `listWhatViewsSaid`). */
  listed: ReadonlySet<string>;
}

/** The entry of the listing's first page (URIs cannot collide with it: those kept are all `ui://`). */
const LISTING = 'resources/list';

type Obj = Record<string, unknown>;

/** The `_meta.ui` of a read answer's content item, when it is exactly one for `uri` (as an App takes it) and has keys. */
function contentUiOf(answer: Answer | undefined, uri: string): Obj | undefined {
  const contents = answer?.contents;
  const ui = Array.isArray(contents) && contents.length === 1 ? listedUiMeta(contents, uri) : undefined;
  return ui && Object.keys(ui).length ? (ui as Obj) : undefined;
}

/**
 * A copy of `listing` in which the first entry of each URI in `said` has `_meta.ui` = its own under `said`'s, key by
 * key (read and merged as an App does: `listedUiMeta`, `mergeUiMeta`); undefined when no entry changes (the answer
 * is then served as the server gave it).
 */
function withContentUi(listing: Answer, said: ReadonlyMap<string, Obj>): Answer | undefined {
  const list = listing.resources;
  if (!Array.isArray(list)) return undefined;
  const resources = [...list];
  for (const [uri, ui] of said) {
    const at = list.findIndex((entry) => isRecord(entry) && entry['uri'] === uri);
    const entry = list[at] as Obj | undefined;
    if (entry) resources[at] = { ...entry, _meta: { ...(isRecord(entry['_meta']) ? entry['_meta'] : {}), ui: mergeUiMeta(listedUiMeta(list, uri), ui) } };
  }
  return resources.some((entry, i) => entry !== list[i]) ? { ...listing, resources } : undefined;
}

/** The size of an answer: a read's `text`/`blob` strings, or a listing's JSON. */
function charsOf(key: string, answer: Answer): number {
  if (key === LISTING) return JSON.stringify(answer).length;
  const contents = Array.isArray(answer.contents) ? (answer.contents as { text?: unknown; blob?: unknown }[]) : [];
  return contents.reduce((n, c) => n + (typeof c?.text === 'string' ? c.text.length : 0) + (typeof c?.blob === 'string' ? c.blob.length : 0), 0);
}

/**
 * Per server start (its `mcp://` channel), the listing and the reads of the Views its tools declare, asked once when
 * the server became ready and shared with every App on that channel: a request still in flight is joined, a kept
 * answer is served at once, frozen and with its JSON text prepared (`prepareJsonResult`: the host's WebSocket sends
 * it without serializing it again). Never across channels (a channel is one start of one server). A View's answer is dropped
 * on the server's `notifications/resources/updated` for its URI; everything on `notifications/resources/list_changed`
 * and when the server stops or restarts (a new channel). A failed request is not kept, and an App that joined it asks
 * the server itself.
 */
export class UiResourcePreread {
  private readonly starts = new Map<string, ServerStart>();
  private readonly maxAnswerChars: number;
  private readonly maxTotalChars: number;
  private readonly maxViews: number;
  private readonly timeoutMs: number | undefined;
  private totalChars = 0;
  /** Kept answers, oldest first: [channel, key]. */
  private readonly kept: [string, string][] = [];

  constructor(limits: PrereadLimits = {}) {
    this.maxAnswerChars = limits.maxAnswerChars ?? 16 * 1024 * 1024;
    this.maxTotalChars = limits.maxTotalChars ?? 64 * 1024 * 1024;
    this.maxViews = limits.maxViewsPerServer ?? 16;
    this.timeoutMs = limits.timeoutMs;
  }

  /**
   * The server is ready on `channel`: asks its listing, lists its tools and reads every View they declare, whatever
   * is not asked yet (called again after `notifications/tools/list_changed`, it reads only the new Views). Resolves
   * when all have answered or failed; never rejects.
   */
  async serverReady(channel: string, server: PrereadServer): Promise<void> {
    if (!server.serverCapabilities?.resources) return;
    let start = this.starts.get(channel);
    if (!start) this.starts.set(channel, (start = { server, views: new Set(), keepsListing: server.serverCapabilities.resources.listChanged === true, entries: new Map(), listed: new Set() }));
    const listing = start.keepsListing ? this.answerFor(channel, start, LISTING).catch(() => {}) : undefined;
    const tools = await server.listTools().catch(() => [] as Tool[]);
    if (this.starts.get(channel) !== start) return;
    for (const tool of tools) {
      const uri = resourceUriOf(tool);
      if (uri && start.views.size < this.maxViews) start.views.add(uri);
    }
    await Promise.all([listing, ...[...start.views].map((uri) => this.answerFor(channel, start, uri).catch(() => {}))]);
  }

  /**
   * The answer to `method` with these params (without `channel`) on `channel`, or undefined when it is not one kept
   * here: a read of exactly `{ uri }` of one of this start's Views, or the listing's first page (no params) of a server
   * with `resources.listChanged`. Then the
   * caller relays it. A kept or in-flight answer is shared; when the shared request fails, the caller's own request
   * goes to the server (an App never gets an error of the pre-read).
   */
  answer(channel: string, method: string, params: Record<string, unknown>): Promise<Answer> | undefined {
    const start = this.starts.get(channel);
    if (!start) return undefined;
    const keys = Object.keys(params);
    let key: string;
    if (method === 'resources/list' && keys.length === 0 && start.keepsListing) key = LISTING;
    else if (method === 'resources/read' && keys.length === 1 && typeof params.uri === 'string' && start.views.has(params.uri)) key = params.uri;
    else return undefined;
    const entry = start.entries.get(key);
    if (!entry) return this.answerFor(channel, start, key);
    return entry.answer.catch(() => this.ask(start.server, key));
  }

  /**
   * The server said the resource at `uri` changed: the next read of it goes to the server, and so does the next
   * listing when it carries what the old read said.
   */
  resourceUpdated(channel: string, uri: string): void {
    const listed = this.starts.get(channel)?.listed.has(uri);
    this.forget(channel, (key) => key === uri || (listed === true && key === LISTING));
  }

  /** The server's resource list changed: every answer of this start goes. */
  resourcesChanged(channel: string): void {
    this.forget(channel, () => true);
  }

  /** The server stopped, failed or restarted (its channel ends with the start): everything of `channel` goes. */
  serverGone(channel: string): void {
    this.forget(channel, () => true);
    this.starts.delete(channel);
  }

  /** Characters kept over all channels (for tests and logs). */
  get keptChars(): number {
    return this.totalChars;
  }

  private ask(server: PrereadServer, key: string): Promise<Answer> {
    const options = this.timeoutMs === undefined ? {} : { timeoutMs: this.timeoutMs };
    return key === LISTING ? server.request('resources/list', undefined, options) : server.request('resources/read', { uri: key }, options);
  }

  /** Asks for `key` now and keeps the answer (unless it is dropped, too large or failed meanwhile). */
  private answerFor(channel: string, start: ServerStart, key: string): Promise<Answer> {
    const existing = start.entries.get(key);
    if (existing) return existing.answer;
    const entry: Entry = { answer: this.ask(start.server, key) };
    start.entries.set(key, entry);
    entry.answer.then(
      (answer) => start.entries.get(key) === entry && this.starts.get(channel) === start && this.keep(channel, start, key, entry, answer),
      () => start.entries.get(key) === entry && start.entries.delete(key),
    );
    // A listing is served as kept, with what the kept reads said (`listWhatViewsSaid`) from its first asker on.
    return key === LISTING ? entry.answer.then((answer) => start.entries.get(LISTING)?.kept ?? answer) : entry.answer;
  }

  /**
   * Keeps `answer` as `entry` of `key`, unless it is too large (then the next request asks the server); a server's
   * answer (not `listWhatViewsSaid`'s own listing) then updates what the listing carries.
   */
  private keep(channel: string, start: ServerStart, key: string, entry: Entry, answer: Answer, fromServer = true): void {
    // A kept answer is held twice: as the value and as the JSON text the host sends for it (prepareJsonResult).
    const chars = 2 * charsOf(key, answer);
    if (chars > this.maxAnswerChars || chars > this.maxTotalChars) return void start.entries.delete(key);
    // After the requests that joined it are answered (the preparing takes as long as serializing it twice).
    setImmediate(() => start.entries.get(key) === entry && prepareJsonResult(answer));
    while (this.totalChars + chars > this.maxTotalChars && this.kept.length) {
      const [oldChannel, oldKey] = this.kept[0]!;
      this.forget(oldChannel, (k) => k === oldKey);
    }
    entry.chars = chars;
    entry.kept = answer;
    this.totalChars += chars;
    this.kept.push([channel, key]);
    if (fromServer) this.listWhatViewsSaid(channel, start);
  }

  /**
   * With the listing and View reads of this start kept: from now on the listing is served with each read View's entry
   * carrying its content item's `_meta.ui` over the entry's own, key by key, which is the metadata every host merges
   * (and must) before it shows the View: the content item wins. An App then knows its View's sandbox from the small
   * listing (a CSP stated only in the content item, as the pdf viewer's) and loads its proxy while the large read is
   * on its way. A read View whose item states nothing leaves its entry as the server listed it.
   */
  private listWhatViewsSaid(channel: string, start: ServerStart): void {
    const listing = start.entries.get(LISTING)?.kept;
    if (!listing) return;
    const said = new Map<string, Record<string, unknown>>();
    for (const uri of start.views) {
      const ui = contentUiOf(start.entries.get(uri)?.kept, uri);
      if (ui) said.set(uri, ui);
    }
    const merged = said.size ? withContentUi(listing, said) : undefined;
    if (!merged) return;
    this.forget(channel, (key) => key === LISTING);
    const entry: Entry = { answer: Promise.resolve(merged) };
    start.entries.set(LISTING, entry);
    start.listed = new Set([...start.listed, ...said.keys()]);
    this.keep(channel, start, LISTING, entry, merged, false);
  }

  private forget(channel: string, which: (key: string) => boolean): void {
    const start = this.starts.get(channel);
    if (!start) return;
    for (const [key, entry] of [...start.entries]) {
      if (!which(key)) continue;
      start.entries.delete(key);
      if (entry.chars === undefined) continue;
      this.totalChars -= entry.chars;
      const at = this.kept.findIndex(([c, k]) => c === channel && k === key);
      if (at >= 0) this.kept.splice(at, 1);
    }
  }
}

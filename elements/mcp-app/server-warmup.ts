import type { SessionHandle } from '../../src/client/session-handle.js';
import type { SessionState } from '../../src/protocol/session.js';
import { chunksOf, type Chunks } from '../../src/reducers/customization-chunks.js';
import { locateMcpServer } from '../../src/reducers/customizations.js';
import { changedIdsOfChunks } from '../../src/store/server-changes.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { proxyFor } from '../../src/apps/app-frame.js';
import { sandboxPolicyOf } from '../../src/apps/csp.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import { checkSandboxUrl } from '../../src/apps/sandbox-frame.js';
import { isViewUri } from '../../src/apps/tool-call.js';
import type { AppPageSettings } from './app-lifecycle.js';

/**
 * Warms a sandbox proxy for a session's MCP servers before their first App: when a server is ready and offers Apps
 * (`mcpApp` with `serverResources`, and a `channel`), its `resources/list` is asked once per server start (the
 * listing the first App's read uses, not a second one); when it lists a `ui://` resource, a spare proxy for that
 * View's proxy URL (page-wide `sandboxUrlFor`, `sandboxPolicy`; its CSP and permissions from the listing, under what
 * the View's content item said in an earlier start of the server) loads out of sight, if its origin has none yet and
 * the page has room. Servers without a `ui://` resource, or that the page's resolver refuses, get no frame. A spare left
 * untaken is removed when its server is no longer ready or the watch stops. Does nothing (not even read the state)
 * while the page sets no `sandboxUrlFor`. Returns the stop.
 */
export function warmAppServers(store: SessionStoreLike, handle: SessionHandle, page: AppPageSettings): () => void {
  // Without a page-wide resolver nothing can be warmed, and the state is not read at all (setting one starts this again).
  if (handle.unavailable('mcpChannel') || !page.sandboxUrlFor) return () => {};
  /** Server starts (state objects) already looked at. */
  const seen = new WeakSet<object>();
  /** The spare warmed for each server, until it is gone. */
  const warmed = new Map<string, { url: string; allow: string | undefined }>();
  let stopped = false;
  const release = (id: string) => {
    const proxy = warmed.get(id)!;
    page.warmer.take(proxy.url, proxy.allow)?.remove();
    warmed.delete(id);
  };
  const warm = (serverId: string, channel: McpChannel, start: unknown, list: unknown[]) => {
    const entry = list.find((r) => isViewUri((r as { uri?: unknown } | undefined)?.uri)) as { uri: string } | undefined;
    const resolve = page.sandboxUrlFor;
    if (stopped || !entry || !resolve) return;
    // The listing's `_meta.ui`, under what the View's content item said in an earlier start (a View whose CSP is only
    // in its content item, as the PDF viewer's, gets its own proxy from its second server start on).
    const meta = page.resources.likely(channel, entry.uri, start);
    const sandbox = checkSandboxUrl(resolve({ serverId, resourceUri: entry.uri, domain: meta.domain }), document.baseURI, location.origin);
    if (typeof sandbox === 'string') return;
    const proxy = proxyFor(sandbox, meta, location.origin, sandboxPolicyOf(page.sandboxPolicy));
    page.warmer.warm(proxy.url, proxy.allow, true);
    warmed.set(serverId, proxy);
  };
  /** Looks at one server (by id, with the store's precedence): lists a new start of a ready App server, releases the spare of one that is not. */
  const look = (id: string, state: SessionState | undefined) => {
    const server = locateMcpServer(state, id)?.server;
    if (server?.state.kind !== 'ready' || !server.mcpApp?.capabilities?.serverResources || !server.channel) {
      if (warmed.has(id)) release(id);
      return;
    }
    const start = server.state;
    if (seen.has(start)) return;
    seen.add(start);
    const stillThisStart = () => locateMcpServer(store.getState(), id)?.server.state === start;
    const channel = handle.mcpChannel(id);
    void page.resources.listing(channel, start).then((list) => stillThisStart() && warm(id, channel, start, list)).catch(() => {});
  };
  // Servers are followed by the list's chunks (reducers/customization-chunks.ts): a server change differs from the last
  // look in one chunk, so only its ids are looked up and the lazy customizations array is never built. A new list
  // (servers came or went, a snapshot) is compared the same way; the first look compares with no list at all.
  const none: Chunks = Object.assign([], { base: [] });
  let chunks = none;
  const scan = () => {
    const state = store.getState();
    const next = (state && chunksOf(state)) || none;
    if (next === chunks) return;
    const ids = changedIdsOfChunks(chunks, next);
    chunks = next;
    for (const id of ids) look(id, state);
  };
  const unsubscribe = store.subscribe(scan);
  scan();
  return () => {
    stopped = true;
    unsubscribe();
    for (const id of warmed.keys()) release(id);
  };
}

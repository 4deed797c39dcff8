import type { McpChannel } from '../client/mcp-channel.js';
import { normalizeCsp, type SandboxPolicy } from './csp.js';
import { buildAllowAttribute, normalizePermissions } from './permissions.js';
import type { CachedUiResource, UiResourceCache } from './resource-cache.js';
import { SandboxFrame, checkSandboxUrl, type SandboxUrlProblem } from './sandbox-frame.js';
import type { SandboxWarmer } from './sandbox-warm.js';
import type { McpUiResourceCsp, McpUiResourceMeta, McpUiResourcePermissions } from './types.js';

/** Why an App could not get as far as a sandbox frame: `openAppFrame` throws it (or the read's error). */
export type AppFrameProblem = { kind: 'sandbox'; problem: SandboxUrlProblem; url: string | undefined };

export interface AppFrameOptions {
  channel: McpChannel;
  /** The View's `ui://` resource. */
  uri: string;
  /** Marks the server's current start (see `UiResourceCache.read`). */
  serverStart?: unknown;
  /** The page's own sandbox URL for this App, checked before anything is read; else `sandboxUrlFor`. */
  sandboxUrl?: string | null | undefined;
  /** Resolves the sandbox URL once the resource's `_meta.ui.domain` is known. */
  sandboxUrlFor: (domain: string | undefined) => string | undefined;
  /** The sandbox policy, as `sandboxPolicyOf` gives it. */
  policy: SandboxPolicy;
  cache: UiResourceCache;
  warmer: SandboxWarmer;
  /**
   * Takes the frame started before the resource is read (for the likely proxy URL: a warmed one, else a new one) to
   * put it in its place at once, so the proxy loads in view while the resource is read. The frame is the App's when
   * the resource confirms its URL, else it is removed.
   */
  early: (frame: SandboxFrame) => void;
  /** The page's origin and base URI (default: the current document's). */
  pageOrigin?: string;
  baseUri?: string;
}

/** A sandbox frame for one View, with the View's resource and what the sandbox applies. */
export interface AppFrame {
  frame: SandboxFrame;
  /** `resource.meta` is what the frame was chosen for; `resource.listed` may add to it once the listing answers. */
  resource: CachedUiResource;
  csp: McpUiResourceCsp | undefined;
  permissions: McpUiResourcePermissions | undefined;
  /** Starts loading a spare proxy for the next App on this origin (call once this one is up, not to compete with it). */
  warmNext(): void;
  /** Whether `meta` (e.g. with the listing's keys) needs another sandbox than this frame's: CSP, permissions or origin. */
  needsOtherFrame(meta: McpUiResourceMeta): boolean;
}

/**
 * The first half of starting an App: checks the sandbox URL, reads the View's resource (once per server start),
 * and gives a sandbox proxy frame for it: a warmed one when the page has one for the same proxy URL, else a new
 * one (`warmNext` loads another spare for the next App on that origin). The caller places the frame, waits for
 * `frame.ready`, starts its bridge and hands the resource over (`frame.sendResource`). Throws an `AppFrameProblem`,
 * or the read's error. The caller checks an explicit `sandboxUrl` before (nothing is fetched for a bad one).
 */
export async function openAppFrame(options: AppFrameOptions): Promise<AppFrame> {
  const pageOrigin = options.pageOrigin ?? location.origin;
  const baseUri = options.baseUri ?? document.baseURI;
  const check = (url: string | undefined): URL => {
    const checked = checkSandboxUrl(url, baseUri, pageOrigin);
    if (typeof checked === 'string') throw { kind: 'sandbox', problem: checked, url } satisfies AppFrameProblem;
    return checked;
  };
  // Load the proxy while the resource is read: the right URL when the resource is already known, else the likely
  // one (from the server's listing, e.g. for a proxy warmed when the server became ready, and the View's content item
  // in an earlier start of the server).
  const { channel, uri, serverStart, cache, warmer } = options;
  let early: SandboxFrame | undefined;
  const startEarly = (): void => {
    const known = cache.likely(channel, uri, serverStart);
    const guess = checkSandboxUrl(options.sandboxUrl || options.sandboxUrlFor(known.domain), baseUri, pageOrigin);
    if (typeof guess === 'string') return;
    const likely = proxyFor(guess, known, pageOrigin, options.policy);
    if (early && !early.hijacked && early.url === likely.url && early.allow === likely.allow) return;
    const frame = warmer.take(likely.url, likely.allow) ?? new SandboxFrame(likely);
    // A frame for another proxy URL: out of sight now, gone once the new one is up. Removing it at once could end the
    // origin's renderer process, which the new frame would then have to start again.
    if (early) retire(early, frame);
    options.early((early = frame));
  };
  const reading = cache.read(channel, uri, serverStart);
  // The first proxy loads once the listing or the read has answered (at once when the listing answered before, as
  // when the server became ready): a host that read the View lists what its content item states (the pdf viewer's
  // CSP), and a guess made without it loaded a second proxy beside the right one, which slowed the read and the
  // right proxy alike (pdf cold, paired A/B: -101 ms). After the read, `likely` is what the read said.
  await Promise.race([reading, cache.listing(channel, serverStart)]).then(startEarly, () => {});
  let resource: CachedUiResource;
  try {
    resource = await reading;
    check(options.sandboxUrl || options.sandboxUrlFor(resource.meta.domain));
  } catch (error) {
    early?.remove();
    throw error;
  }
  // `likely` is now what the read said: the early frame becomes the one for it (unless it already is).
  startEarly();
  const frame = early!;
  const { url, allow } = frame;
  const csp = normalizeCsp(resource.meta.csp);
  const permissions = normalizePermissions(resource.meta.permissions);
  const needsOtherFrame = (meta: McpUiResourceMeta): boolean => {
    const other = checkSandboxUrl(options.sandboxUrl || options.sandboxUrlFor(meta.domain), baseUri, pageOrigin);
    if (typeof other === 'string') return true;
    const proxy = proxyFor(other, meta, pageOrigin, options.policy);
    return proxy.url !== url || proxy.allow !== allow;
  };
  return { frame, resource, csp, permissions, warmNext: () => warmer.warm(url, allow), needsOtherFrame };
}

/**
 * The proxy page URL on `sandbox` for a View with the `_meta.ui` `meta` (its CSP, which the sandbox server turns
 * into a header, the page origin, and the policy unless `compat`), and the frame's `allow` attribute.
 */
export function proxyFor(sandbox: URL, meta: McpUiResourceMeta | undefined, parentOrigin: string, policy: SandboxPolicy): { url: string; allow: string | undefined } {
  const url = new URL(sandbox);
  const csp = normalizeCsp(meta?.csp);
  if (csp) url.searchParams.set('csp', JSON.stringify(csp));
  url.searchParams.set('parent', parentOrigin);
  if (policy !== 'compat') url.searchParams.set('policy', policy);
  return { url: url.href, allow: buildAllowAttribute(meta?.permissions) || undefined };
}

function retire(old: SandboxFrame, successor: SandboxFrame): void {
  old.element.style.display = 'none';
  void successor.ready.then(() => old.remove());
}

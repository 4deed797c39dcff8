import type { McpChannel } from '../client/mcp-channel.js';
import { errorText } from '../protocol/guards.js';
import { normalizeCsp, type SandboxPolicy } from './csp.js';
import { buildAllowAttribute, normalizePermissions } from './permissions.js';
import type { CachedUiResource, UiResourceCache } from './resource-cache.js';
import type { UiResource } from './resource.js';
import { SandboxFrame, checkSandboxUrl, proxyPageUrl, type SandboxUrlProblem } from './sandbox-frame.js';
import type { SandboxWarmer } from './sandbox-warm.js';
import type { McpUiResourceCsp, McpUiResourceMeta, McpUiResourcePermissions } from './types.js';

/** Why an App could not get as far as a sandbox frame. */
export type AppFrameProblem =
  | { kind: 'sandbox'; problem: SandboxUrlProblem; url: string | undefined }
  | { kind: 'load'; message: string };

/** Thrown by `openAppFrame`; `problem` says what to tell the user. */
export class AppFrameError extends Error {
  readonly problem: AppFrameProblem;
  constructor(problem: AppFrameProblem) {
    super(problem.kind === 'load' ? problem.message : `sandbox URL ${problem.url ?? '(none)'}: ${problem.problem}`);
    this.name = 'AppFrameError';
    this.problem = problem;
  }
}

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
  policy: SandboxPolicy;
  cache: UiResourceCache;
  warmer: SandboxWarmer;
  /**
   * Takes the frame started before the resource is read (for the likely proxy URL: a warmed one, else a new one) to
   * put it in its place at once, so the proxy loads in view while the resource is read. Without it the likely URL
   * is only warmed. The frame is the App's when the resource confirms its URL, else it is removed.
   */
  early?: (frame: SandboxFrame) => void;
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
 * `frame.ready`, starts its bridge and hands the resource over (`frame.sendResource`). Throws `AppFrameError`.
 */
export async function openAppFrame(options: AppFrameOptions): Promise<AppFrame> {
  const pageOrigin = options.pageOrigin ?? location.origin;
  const baseUri = options.baseUri ?? document.baseURI;
  const check = (url: string | undefined): URL => {
    const checked = checkSandboxUrl(url, baseUri, pageOrigin);
    if (typeof checked === 'string') throw new AppFrameError({ kind: 'sandbox', problem: checked, url });
    return checked;
  };
  // An explicit sandbox-url is checked before anything is fetched.
  if (options.sandboxUrl) check(options.sandboxUrl);
  const urlFor = (resource: UiResource | undefined, sandbox: URL) =>
    proxyPageUrl(sandbox, { csp: normalizeCsp(resource?.meta.csp), parentOrigin: pageOrigin, policy: options.policy });
  // Load the proxy while the resource is read: the right URL when the resource is already known, else the likely one.
  const known = options.cache.peek(options.channel, options.uri, options.serverStart);
  const guess = checkSandboxUrl(options.sandboxUrl || options.sandboxUrlFor(known?.meta.domain), baseUri, pageOrigin);
  let early: SandboxFrame | undefined;
  if (typeof guess !== 'string') {
    const likely = urlFor(known, guess);
    const likelyAllow = buildAllowAttribute(normalizePermissions(known?.meta.permissions)) || undefined;
    if (!options.early) options.warmer.warm(likely, likelyAllow);
    else options.early((early = options.warmer.take(likely, likelyAllow) ?? new SandboxFrame({ url: likely, allow: likelyAllow })));
  }
  let resource: CachedUiResource;
  let sandbox: URL;
  try {
    resource = await options.cache.read(options.channel, options.uri, options.serverStart).catch((error: unknown) => {
      throw new AppFrameError({ kind: 'load', message: errorText(error) });
    });
    sandbox = check(options.sandboxUrl || options.sandboxUrlFor(resource.meta.domain));
  } catch (error) {
    early?.remove();
    throw error;
  }
  const csp = normalizeCsp(resource.meta.csp);
  const permissions = normalizePermissions(resource.meta.permissions);
  const url = urlFor(resource, sandbox);
  const allow = buildAllowAttribute(permissions) || undefined;
  const usable = early && !early.hijacked && early.url === url && early.allow === allow ? early : undefined;
  const frame = usable ?? (options.warmer.take(url, allow) || new SandboxFrame({ url, allow }));
  // The early frame was for another proxy URL: out of sight now, gone once the right one is up. Removing it at once
  // could end the origin's renderer process, which the right frame would then have to start again.
  if (early && !usable) retire(early, frame);
  const needsOtherFrame = (meta: McpUiResourceMeta): boolean => {
    const other = checkSandboxUrl(options.sandboxUrl || options.sandboxUrlFor(meta.domain), baseUri, pageOrigin);
    return typeof other === 'string' || urlFor({ html: '', meta }, other) !== url || (buildAllowAttribute(normalizePermissions(meta.permissions)) || undefined) !== allow;
  };
  return { frame, resource, csp, permissions, warmNext: () => options.warmer.warm(url, allow), needsOtherFrame };
}

function retire(old: SandboxFrame, successor: SandboxFrame): void {
  old.element.style.display = 'none';
  void successor.ready.then(() => old.remove());
}

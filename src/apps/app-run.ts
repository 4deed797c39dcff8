import type { McpChannel } from '../client/mcp-channel.js';
import { errorText } from '../protocol/guards.js';
import { AppBridgeHost, type AppBridgeHandlers, type AppBridgeHostOptions } from './bridge.js';
import { openAppFrame, type AppFrame, type AppFrameOptions, type AppFrameProblem } from './app-frame.js';
import type { UiResource } from './resource.js';
import { checkSandboxUrl, type SandboxFrame, type SandboxUrlProblem } from './sandbox-frame.js';

/** Why an App did not start or stopped on its own; the embedder tells the user. */
export type AppProblem =
  | { kind: 'sandbox'; problem: SandboxUrlProblem; url: string | undefined }
  | { kind: 'noChannel' }
  | { kind: 'load'; message: string }
  /** The View's HTML is longer than `limit` (UTF-16 code units; see `MAX_VIEW_LENGTH`): not shown, not cached. */
  | { kind: 'tooLarge'; length: number; limit: number }
  /** The sandbox proxy never announced itself. */
  | { kind: 'noAnswer'; origin: string }
  /** The View did not initialize in time; `viewErrors` are what the proxy saw fail in its document. */
  | { kind: 'notStarted'; viewErrors: string[]; timeoutMs: number }
  /** The proxy frame stopped being ours (see `SandboxFrame`); the run was cut off. */
  | { kind: 'hijacked' };

export interface AppRunOptions extends Omit<AppFrameOptions, 'channel' | 'early'>, Omit<AppBridgeHostOptions, 'transport' | 'sandbox' | 'channel'> {
  /** The server's `mcp://` channel; without one the run stops with `noChannel` (after the sandbox URL check). */
  channel: McpChannel | undefined;
  /** How long the View may take to send `ui/notifications/initialized` (ms). */
  startTimeoutMs: number;
  /**
   * Where a frame goes (it is not in its place yet): called for the frame started while the resource is read, and
   * again if the resource needs another one; undefined ends the run quietly (the embedder moved on).
   */
  place(frame: HTMLIFrameElement): Element | undefined | Promise<Element | undefined>;
  /** The View's resource was read. */
  resourceRead?(resource: UiResource): void;
  /** The run stopped or could not start (not called after `close`, `teardown` or `contain`). */
  onProblem(problem: AppProblem): void;
  /**
   * The server's listing answered after the View started and its `_meta.ui` needs another sandbox (CSP, permissions
   * or origin the content item did not state): the run has ended; start a new one (the cache now serves the merged
   * meta). The View never waits for the listing: until it answers, the content item's `_meta.ui` applies (the listing
   * only fills keys the content item lacks: without a CSP the View has no network, without permissions it has none).
   */
  onStale(): void;
}

/**
 * One App from its resource to its end, the sandbox frame lifecycle: checks the sandbox URL, reads the View's
 * resource (once per server start), takes a warmed proxy frame or loads one, waits for the proxy's handshake, starts
 * the bridge, hands the View its HTML as transferred bytes, applies the View's size reports to the frame, bounds the
 * start, and tears down (`teardown`, with the View's goodbye), stops (`close`, best-effort goodbye) or cuts it off
 * (`contain`, no further word to the View).
 */
export class AppRun {
  // Fields set in the constructor or later are `declare`d: the build then has no empty field definitions for them.
  /** The bridge to the View, from when the proxy answered until the run ends. */
  declare bridge: AppBridgeHost | undefined;
  /** The sandbox iframe, once there is one. */
  declare frame: HTMLIFrameElement | undefined;
  declare private app: AppFrame | undefined;
  declare private readonly options: AppRunOptions;
  private readonly viewErrors: string[] = [];
  declare private startTimer: ReturnType<typeof setTimeout> | undefined;
  declare private ended?: boolean;
  /** The frame started while the resource is read, until the read decides on it. */
  declare private early: SandboxFrame | undefined;

  constructor(options: AppRunOptions) {
    this.options = options;
  }

  /** Runs the start; true once the View has its HTML (the bridge then buffers until the View initializes). */
  async start(): Promise<boolean> {
    const o = this.options;
    const explicit = o.sandboxUrl ? checkSandboxUrl(o.sandboxUrl, o.baseUri ?? document.baseURI, o.pageOrigin ?? location.origin) : undefined;
    if (typeof explicit === 'string') return this.problem({ kind: 'sandbox', problem: explicit, url: o.sandboxUrl ?? undefined });
    if (!o.channel) return this.problem({ kind: 'noChannel' });
    let app: AppFrame;
    let earlyPlaced: Promise<Element | undefined> | undefined;
    const placing = (frame: SandboxFrame) => {
      this.frame = frame.element;
      return Promise.resolve(o.place(frame.element)).then((p) => (p && !this.ended && frame.place(p), p));
    };
    try {
      app = await openAppFrame({ ...o, channel: o.channel, early: (frame) => (this.ended ? frame.remove() : void (earlyPlaced = placing((this.early = frame)))) });
    } catch (error) {
      // Both are problems as they are (a `ViewTooLargeError` has the `tooLarge` problem's fields).
      const kind = (error as AppProblem | undefined)?.kind;
      return this.problem(kind === 'sandbox' || kind === 'tooLarge' ? (error as AppProblem) : { kind: 'load', message: errorText(error) });
    }
    const early = this.early;
    this.early = undefined;
    if (this.ended) return void app.frame.remove(), false;
    this.app = app;
    const { frame } = app;
    frame.onHijack = () => {
      this.contain();
      o.onProblem({ kind: 'hijacked' });
    };
    o.resourceRead?.(app.resource);
    void app.resource.listed.then((meta) => {
      if (this.ended || this.app !== app || meta === app.resource.meta) return;
      if (!app.needsOtherFrame(meta)) return o.resourceRead?.({ html: app.resource.html, meta });
      this.close('replaced');
      o.onStale();
    });
    const parent = await (frame === early ? earlyPlaced : placing(frame));
    if (this.ended || !parent) return this.end(), false;
    const ready = await frame.ready;
    if (this.ended) return false;
    if (!ready) return frame.hijacked ? false : this.problem({ kind: 'noAnswer', origin: frame.origin });
    this.bridge = new AppBridgeHost({ ...o, transport: frame.transport(), sandbox: { csp: app.csp, permissions: app.permissions }, handlers: this.wrap(o.handlers ?? {}) }).start();
    this.startTimer = setTimeout(() => {
      if (!this.ended && !this.bridge?.initialized) this.problem({ kind: 'notStarted', viewErrors: [...this.viewErrors], timeoutMs: o.startTimeoutMs });
    }, o.startTimeoutMs);
    frame.sendResource({ html: app.resource.html, csp: app.csp, permissions: app.permissions });
    return true;
  }

  /** Sends `ui/resource-teardown`, waits (bounded) for the View, then ends the run. True when the View answered. */
  async teardown(reason: string): Promise<boolean> {
    const answered = this.bridge && !this.ended ? await this.bridge.teardown(reason) : false;
    this.end();
    return answered;
  }

  /** Ends the run at once; the View is asked to tear down on a best-effort basis (its frame may be gone already). */
  close(reason: string): void {
    if (this.ended) return;
    void this.bridge?.teardown(reason).catch(() => {});
    this.end();
  }

  /** Ends the run without another word to the View (its proxy is no longer ours, or it floods). */
  contain(): void {
    this.bridge?.close();
    this.end();
  }

  private wrap(handlers: AppBridgeHandlers): AppBridgeHandlers {
    return {
      ...handlers,
      sizeChanged: (size) => {
        this.app?.frame.applySize(size);
        handlers.sizeChanged?.(size);
      },
      initialized: () => {
        clearTimeout(this.startTimer);
        handlers.initialized?.();
        this.app?.warmNext();
      },
      viewError: (message) => {
        if (this.viewErrors.length < 5) this.viewErrors.push(message);
        handlers.viewError?.(message);
      },
    };
  }

  private problem(problem: AppProblem): false {
    if (!this.ended) this.options.onProblem(problem);
    return false;
  }

  private end(): void {
    this.ended = true;
    clearTimeout(this.startTimer);
    this.bridge?.close();
    this.bridge = undefined;
    this.app?.frame.remove();
    this.early?.remove();
  }
}

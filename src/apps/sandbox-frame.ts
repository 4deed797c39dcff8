import { LoadSlots } from './load-slots.js';
import { SANDBOX_METHODS, methodOf } from './sandbox-methods.js';
import type { BridgeTransport } from './transport.js';
import type { McpUiResourceCsp, McpUiResourcePermissions } from './types.js';

/** Size reports this close to the applied height are echoes of our own change (no resize loops). */
const SIZE_SLACK_PX = 2;
/** The tallest an inline View may make its frame. */
export const MAX_INLINE_HEIGHT = 6000;
/** How long the proxy page may take to announce itself (`sandbox-proxy-ready`), counted from when its load begins. */
const READY_TIMEOUT_MS = 10_000;
/** At most this many proxy pages of one sandbox origin load at once (they share its renderer process). */
const PROXY_LOADS_PER_ORIGIN = 4;

/** Why a sandbox URL cannot be used: none configured, not a URL, or not on another http(s) origin than the page. */
export type SandboxUrlProblem = 'missing' | 'invalid' | 'same-origin';

/**
 * `html` as UTF-8. `encodeInto` a buffer of the largest size (3 bytes per UTF-16 unit), then the used part copied
 * out: for the 4.3 MB PDF View 25–40 ms, where Chromium's `encode` takes 140–260 ms (measured in the page, quiet).
 */
function utf8Bytes(html: string): ArrayBuffer {
  const bytes = new Uint8Array(html.length * 3);
  return bytes.slice(0, new TextEncoder().encodeInto(html, bytes).written).buffer;
}

/** UTF-16 code units of a View's HTML per `sandbox-resource-ready` message (a longer View is sent in parts). */
const RESOURCE_PART = 512 * 1024;

/** A sandbox proxy URL resolved against the page, or why it cannot be used. */
export function checkSandboxUrl(url: string | undefined, baseUri: string, pageOrigin: string): URL | SandboxUrlProblem {
  if (!url) return 'missing';
  let sandbox: URL;
  try {
    sandbox = new URL(url, baseUri);
  } catch {
    return 'invalid';
  }
  return sandbox.origin === pageOrigin || !/^https?:$/.test(sandbox.protocol) ? 'same-origin' : sandbox;
}

export interface SandboxFrameOptions {
  /** The proxy page URL (see `proxyFor`). */
  url: string;
  /** The iframe's `allow` attribute (permission policy), if any. */
  allow?: string | undefined;
  /** The window whose document gets the iframe (default: the global `window`). */
  win?: Window;
}

/**
 * One sandbox proxy iframe on another origin and its lifecycle: the proxy handshake (`sandbox-proxy-ready` from
 * exactly that frame and origin, bounded), the View's HTML handed over as transferred bytes, sizing from the View's
 * reports, and removal. From creation on it watches for the frame no longer being ours (a second load, a message
 * from another origin, a second ready) and reports it once to `onHijack`. Proxy pages of one origin load a few at a
 * time (`SandboxFrame.loads`): a frame waits for its turn before its page is requested, and the handshake's time limit
 * counts from then, so a busy machine makes Apps wait rather than fail.
 * Creating one touches the DOM; importing this module does not.
 */
export class SandboxFrame {
  // Fields set in the constructor or later are `declare`d: the build then has no empty field definitions for them.
  /** Proxy page loads per sandbox origin, page-wide: a few at once, the rest in order. */
  static readonly loads = new LoadSlots(PROXY_LOADS_PER_ORIGIN);
  /** The iframe (not yet placed anywhere until `place()`, unless warmed). */
  declare readonly element: HTMLIFrameElement;
  /** The proxy page URL it loads. */
  declare readonly url: string;
  /** Its permission policy (`allow` attribute), fixed when it loads. */
  declare readonly allow: string | undefined;
  /** The sandbox origin every message must come from and go to. */
  declare readonly origin: string;
  /** True once the proxy announced itself; false when it did not within the time limit or the frame was removed. */
  declare readonly ready: Promise<boolean>;
  /** True once hijacking was seen. */
  declare hijacked?: boolean;
  declare private readonly win: Window;
  /** The open pipe to the View (`transport()`): it gets the frame's messages other than the handshake, and the port's. */
  declare private pipe: BridgeTransport | undefined;
  private resolveReady: (ok: boolean) => void = () => {};
  declare private readyTimer: ReturnType<typeof setTimeout> | undefined;
  declare private announced?: boolean;
  /** The proxy takes a large View in parts (it said so when it announced itself). */
  declare private parts: boolean;
  private loads = 0;
  private appliedHeight = 0;
  /** Messages for the View sent while its HTML goes out in parts: posted after the last part, in order. */
  declare private held: unknown[] | undefined;
  declare private hijackHandler: (() => void) | undefined;
  declare private readonly releaseLoad: () => void;

  constructor(options: SandboxFrameOptions) {
    this.win = options.win ?? window;
    this.url = options.url;
    this.allow = options.allow || undefined;
    this.origin = new URL(options.url).origin;
    const frame = this.win.document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    if (options.allow) frame.setAttribute('allow', options.allow);
    // No inline height until the View reports one: the stylesheet's default keeps a View that never reports visible.
    this.element = frame;
    this.ready = new Promise<boolean>((resolve) => (this.resolveReady = resolve));
    void this.ready.then(() => this.releaseLoad());
    this.win.addEventListener('message', this.onMessage);
    this.releaseLoad = SandboxFrame.loads.acquire(this.origin, this.beginLoad);
  }

  /** Called once when the frame stops being ours (immediately if that already happened). */
  set onHijack(handler: (() => void) | undefined) {
    this.hijackHandler = handler;
    if (handler && this.hijacked) handler();
  }

  /**
   * Puts the frame into `parent`. A frame that is already in the document (warmed) moves without reloading where
   * the browser can (`moveBefore`); `SandboxFrame.canMoveLive` says whether it can.
   */
  place(parent: Element): void {
    const frame = this.element;
    const moveBefore = (parent as Element & { moveBefore?: (node: Node, child: Node | null) => void }).moveBefore;
    if (frame.isConnected && moveBefore) moveBefore.call(parent, frame, null);
    else parent.appendChild(frame);
  }

  /** Whether this browser moves a loaded iframe without reloading it (so a warmed frame can be placed later). */
  static canMoveLive(): boolean {
    return 'moveBefore' in Element.prototype;
  }

  /**
   * The message pipe to the View through the proxy, pinned to the frame and its origin: what it sends is posted to the
   * frame for the sandbox origin only; it receives the frame's messages from that origin (as `windowTransport` would)
   * and those of the port `sendResource` hands the proxy. What it sends while the View's HTML is still going out follows
   * the last part. After `close()` nothing is sent or received.
   */
  transport(): BridgeTransport {
    const pipe: BridgeTransport = (this.pipe = {
      send: (message) => this.pipe === pipe && (this.held ? this.held.push(message) : this.element.contentWindow?.postMessage(message, this.origin)),
      close: (reason) => {
        if (this.pipe !== pipe) return;
        this.pipe = undefined;
        pipe.onclose?.(reason);
      },
    });
    return pipe;
  }

  /**
   * Hands the View's HTML to the proxy as UTF-8 bytes whose buffer is transferred (no copy of a large string), and with
   * it, for the sandbox origin only, one end of a MessageChannel whose other end feeds the transport. The proxy sends
   * the View's messages through it in the View's own call: a message posted to this window is sent only in a task of
   * the proxy page, which shares the View's busy thread (debug's `initialized` waited 90-150 ms behind its start-up
   * code). A proxy that ignores the port keeps posting to this window. The port closes with the frame.
   */
  sendResource({ html, csp, permissions }: { html: string; csp?: McpUiResourceCsp | undefined; permissions?: McpUiResourcePermissions | undefined }): void {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = (event) => this.pipe?.onmessage?.(event.data);
    // A large View goes in parts, each encoded in a task of its own: the proxy (another process) decodes and parses
    // one while this page encodes the next, as a browser parses a page while it downloads. Chromium forwards a message
    // to another process's frame only after the task that posted it, so parts posted in one task would all leave
    // together at its end. Only to a proxy that said it takes parts (one deployed from an earlier version gets the
    // whole HTML in one message). Once the frame has gone, the part whose turn comes next is still encoded, then none.
    let at = 0;
    this.held = [];
    const post = (): void => {
      const target = this.element.contentWindow;
      const first = !at;
      let end = at + (this.parts ? RESOURCE_PART : html.length);
      // Never between the two halves of a surrogate pair.
      if ((html.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
      const bytes = utf8Bytes(html.slice(at, (at = end)));
      const more = at < html.length;
      target?.postMessage(
        { jsonrpc: '2.0', method: SANDBOX_METHODS.resourceReady, params: first ? { html: bytes, more, csp, permissions } : { html: bytes, more } },
        { targetOrigin: this.origin, transfer: first ? [bytes, port2] : [bytes] },
      );
      if (target && more) return void setTimeout(post);
      for (const message of this.held!) target?.postMessage(message, this.origin);
      this.held = undefined;
    };
    post();
  }

  /** Applies the View's reported height (capped; reports within a few pixels of the current one are ignored). */
  applySize(size: { height?: number }): void {
    if (size.height === undefined) return;
    const height = Math.min(Math.ceil(size.height), MAX_INLINE_HEIGHT);
    if (Math.abs(height - this.appliedHeight) <= SIZE_SLACK_PX) return;
    this.appliedHeight = height;
    this.element.style.height = `${height}px`;
  }

  /** Stops watching and removes the frame (the View goes with it). */
  remove(): void {
    clearTimeout(this.readyTimer);
    this.resolveReady(false);
    this.releaseLoad();
    this.win.removeEventListener('message', this.onMessage);
    this.hijackHandler = undefined;
    this.element.remove();
  }

  /** Our turn to load: from here the proxy page is requested and has its time to announce itself. */
  private readonly beginLoad = (): void => {
    // Before `src`: a frame already placed loaded about:blank, which is not a second load of the proxy.
    this.element.addEventListener('load', this.onLoad);
    this.element.src = this.url;
    this.readyTimer = setTimeout(() => this.resolveReady(false), READY_TIMEOUT_MS);
  };

  private readonly onLoad = (): void => {
    if (++this.loads > 1) this.hijack();
  };

  private readonly onMessage = (event: MessageEvent): void => {
    if (event.source !== this.element.contentWindow || this.hijacked) return;
    const isReady = methodOf(event.data) === SANDBOX_METHODS.proxyReady;
    if (event.origin !== this.origin || (isReady && this.announced)) return this.hijack();
    if (!isReady) return this.pipe?.onmessage?.(event.data);
    this.announced = true;
    this.parts = (event.data as { params?: { resourceParts?: unknown } }).params?.resourceParts === true;
    clearTimeout(this.readyTimer);
    this.resolveReady(true);
  };

  private hijack(): void {
    if (this.hijacked) return;
    this.hijacked = true;
    this.resolveReady(false);
    this.hijackHandler?.();
  }
}

import { DEFAULT_TRAFFIC_LIMITS, TokenBucket } from './limits.js';
import { allowAttributeOf, buildAllowAttribute } from './permissions.js';
import { SANDBOX_METHODS, isSandboxMethod, methodOf } from './sandbox-methods.js';

const MAX_VIEW_ERRORS = 20;
/** A View whose deferred scripts still wait on the network by then is shown meanwhile (its own placeholder). */
const SHOW_WAITING_VIEW_MS = 100;
/** The View's iframe sandbox (spec); an override may only drop tokens, never add them. */
const INNER_SANDBOX = ['allow-scripts', 'allow-same-origin', 'allow-forms'];

/** Why the proxy refused to run (shown in the page and thrown). */
export class SandboxProxyError extends Error {
  constructor(message: string) {
    super(`[ahp sandbox] ${message}`);
    this.name = 'SandboxProxyError';
  }
}

/**
 * The View's HTML (or a part of it) from a `sandbox-resource-ready`: a string, or UTF-8 bytes (an ArrayBuffer the host
 * transferred), decoded by `decoder` (one per View: a character may span two parts).
 */
function htmlOf(params: Record<string, unknown>, decoder: TextDecoder): string | undefined {
  const value = params['html'];
  if (typeof value === 'string') return value;
  if (value instanceof ArrayBuffer) return decoder.decode(value, { stream: params['more'] === true });
  return undefined;
}

/** The inner sandbox tokens for an optional override: the intersection with the default set. */
export function innerSandboxTokens(override: unknown): string {
  if (typeof override !== 'string') return INNER_SANDBOX.join(' ');
  return override.split(/\s+/).filter((t) => INNER_SANDBOX.includes(t)).join(' ');
}

/**
 * The sandbox proxy page's script. Refuses to run unframed or when the top window is reachable
 * (same origin as the host page); pins the host origin from `?parent=` and the View frame by
 * `event.source`; on `sandbox-resource-ready` creates the View iframe and writes the HTML into it (the
 * View inherits this page's origin and its header CSP; the frame stays out of rendering until the View's scripts
 * ran or it first speaks); relays every other message both ways: the View's over the MessagePort that came with the
 * resource (taken once, with the View), sent in the View's own call, until the user has interacted with the View,
 * and otherwise (no port, or after an interaction) posted to the host window.
 * Returns the stop function.
 */
export function runSandboxProxy(win: Window = window): () => void {
  const doc = win.document;
  const fail = (message: string): never => {
    const error = new SandboxProxyError(message);
    doc.body?.replaceChildren(Object.assign(doc.createElement('p'), { textContent: error.message }));
    throw error;
  };
  if (win.self === win.top) fail('this page only runs inside an MCP Apps host iframe');
  let topReachable = false;
  try {
    topReachable = !!win.top && typeof win.top.document === 'object' && win.top.document !== null;
  } catch {
    topReachable = false;
  }
  if (topReachable) fail('the host page has the same origin as the sandbox; serve the sandbox from another origin');
  const ownOrigin = win.location.origin;
  let parentOrigin = '';
  try {
    parentOrigin = new URL(new URL(win.location.href).searchParams.get('parent') ?? '').origin;
  } catch {
    fail('missing or invalid ?parent=<host origin>');
  }
  if (!/^https?:\/\//.test(parentOrigin)) fail('missing or invalid ?parent=<host origin>');
  if (parentOrigin === ownOrigin) fail('the host page has the same origin as the sandbox');

  let inner: HTMLIFrameElement | undefined;
  /** Takes the next part of the View's HTML while the host said more follow (`more: true`). */
  let nextPart: ((params: Record<string, unknown>) => void) | undefined;
  /** The channel the host gave for the View's messages (sent from here at once); without one, posted to the host. */
  let toHost: MessagePort | undefined;
  // A flooding View is cut here, in the sandbox's own process, so the host page never has to receive the flood
  // (the host enforces its own limits too: a View that scripts this page can bypass these).
  const relayBucket = new TokenBucket(DEFAULT_TRAFFIC_LIMITS.messagesPerSecond, DEFAULT_TRAFFIC_LIMITS.burst);
  const errorBucket = new TokenBucket(20, 20);
  const onMessage = (event: MessageEvent): void => {
    const method = methodOf(event.data);
    if (event.source === win.parent) {
      if (event.origin !== parentOrigin) return;
      if (method === SANDBOX_METHODS.resourceReady) {
        const params = (event.data as { params?: Record<string, unknown> }).params ?? {};
        if (!inner) load(params, event.ports[0]);
        else nextPart?.(params);
        return;
      }
      if (isSandboxMethod(method)) return;
      inner?.contentWindow?.postMessage(event.data, ownOrigin);
      return;
    }
    if (inner && event.source === inner.contentWindow && event.origin === ownOrigin) {
      show(inner);
      fromView(inner, event.data);
    }
  };
  const fromView = (view: HTMLIFrameElement, data: unknown): void => {
    const method = methodOf(data);
    if (isSandboxMethod(method)) return;
    if (!relayBucket.take()) {
      const id = (data as { id?: unknown } | null)?.id;
      if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') && errorBucket.take()) {
        view.contentWindow?.postMessage({ jsonrpc: '2.0', id, error: { code: -32000, message: 'Too many messages from this App; slow down' } }, ownOrigin);
      }
      return;
    }
    // Once the user has interacted with the View, its messages go the window's way, as the browser's focus and
    // activation updates for this frame do, so the host sees the interaction before a side effect it is asked for
    // in the same click (the port, a direct pipe, overtakes them; the host would ask the user instead).
    const activation = (view.contentWindow?.navigator as { userActivation?: { hasBeenActive: boolean } } | undefined)?.userActivation;
    if (toHost && !activation?.hasBeenActive) toHost.postMessage(data);
    else win.parent.postMessage(data, parentOrigin);
  };
  // The View (same origin) reaches this window's own postMessage: its messages are relayed in its call, through the
  // host's port, which sends at once, instead of in a task of this page, which shares the View's thread and so ran
  // only after the View's work of that moment (the debug View's `initialized` waited 90-150 ms behind its own start-up
  // code). Posting to the host window from here would not help: Chromium sends a cross-origin window message in a
  // task too (measured: no gain). Taken as a posted message would be: only with a target origin that admits this
  // page and no transfer (else the built-in: an event, as before). Cross-origin callers (the host page) always get the
  // built-in postMessage; same-origin callers (the View, other Views of this origin) could script this page anyway.
  // Messages on the port and the ones this page posts itself (view errors, Escape) are not ordered with each other.
  const post = win.postMessage;
  function postHere(...args: unknown[]): void {
    const [message, target] = args;
    if (inner && args.length === 2 && (target === '*' || target === '/' || target === ownOrigin)) {
      // Shown in a task of its own, as when its message event ran: not inside the task that ends the View's parsing.
      showSoon(inner);
      return fromView(inner, message);
    }
    Reflect.apply(post, win, args);
  }
  /** A frame for the View, in the page and out of rendering; `sandbox` and `allow` apply to every document it gets. */
  const viewFrame = (sandbox: string, allow: string): HTMLIFrameElement => {
    const frame = doc.createElement('iframe');
    frame.setAttribute('sandbox', sandbox);
    if (allow) frame.setAttribute('allow', allow);
    frame.title = 'MCP App';
    // Out of rendering while the View's document is built, as when a browser navigates to the HTML: the View's
    // deferred and module scripts run before its first style and layout. (Written into a shown frame, a rendering
    // update of the whole written document, with the first text shaping of a new process, came between close() and
    // the View's module script.) Shown when the View first speaks, its deferred scripts ran, it loaded, or its
    // deferred scripts are still loading a moment after its document was written.
    frame.style.display = 'none';
    return doc.body.appendChild(frame);
  };
  /**
   * The View's frame, made while the proxy waits for the resource (making one took 20-50 ms of the cold PDF View's
   * start), with the default sandbox and the `allow` of the permissions the host gave this page's frame (where the
   * browser tells them: Chromium's `document.featurePolicy`; elsewhere none). Used only for a resource that asks for
   * exactly these. Before the View's document is written into it, only what could script the View anyway (this
   * page's origin) or remove it (the host page) can reach it.
   */
  let ahead: HTMLIFrameElement | undefined;
  const policy = (doc as { featurePolicy?: { allowsFeature(feature: string): boolean } }).featurePolicy;
  const aheadAllow = policy ? allowAttributeOf((feature) => policy.allowsFeature(feature)) : '';
  const load = (params: Record<string, unknown>, port: MessagePort | undefined): void => {
    const decoder = new TextDecoder();
    const html = htmlOf(params, decoder);
    if (html === undefined) return;
    // Taken with the View it is for, once: a later resource-ready (ignored) cannot swap it.
    toHost = port;
    const sandbox = innerSandboxTokens(params['sandbox']);
    const allow = buildAllowAttribute(params['permissions']);
    // The frame made ahead serves a View that needs exactly its sandbox and `allow` (both fixed when a frame is made)
    // while it still has its first, empty document (nothing navigated it meanwhile); else it goes, a new one is made.
    let frame = ahead;
    ahead = undefined;
    if (!frame || sandbox !== INNER_SANDBOX.join(' ') || allow !== aheadAllow || frame.contentDocument?.URL !== 'about:blank') {
      frame?.remove();
      frame = viewFrame(sandbox, allow);
    }
    // One task later: shown in the task that ends its parsing (DOMContentLoaded), the View's whole first style and
    // layout ran in that task, before the `ui/initialize` its module script had just posted was relayed (a cold
    // basic-vanillajs: 510 ms of layout, first text shaping of a new process, ahead of its first message). Its first
    // message, read first, shows it as well.
    // After insertion, which fired the initial about:blank's load at once: this one is the View's.
    frame.addEventListener('load', () => showSoon(frame), { once: true });
    inner = frame;
    const viewDoc = frame.contentDocument;
    // The HTML so far (only where the document cannot be written: srcdoc takes it whole).
    let whole = '';
    /** Writes a part; after the last one the document is closed (its parsing ends). */
    const write = (part: string, more: boolean): void => {
      nextPart = more
        ? (next) => {
            const html = htmlOf(next, decoder);
            if (html !== undefined) write(html, next['more'] === true);
          }
        : undefined;
      if (!viewDoc) {
        whole += part;
        if (!more) (show(frame), (frame.srcdoc = whole));
        return;
      }
      viewDoc.write(part);
      if (more) return;
      viewDoc.close();
      // Queued behind the task that runs the View's inline module scripts, so it cannot come before them.
      win.setTimeout(() => show(frame), SHOW_WAITING_VIEW_MS);
    };
    if (viewDoc) {
      // document.write keeps this page's origin and CSP for the View; a srcdoc navigation measured slower (the
      // HTML makes a round trip through the browser process: 2x for a 1 MB View). Written part by part as the parts
      // arrive (the parser takes each at once, as it takes a page's bytes from the network).
      viewDoc.open();
      // After open() (which erases listeners) and before write() (which runs the View's scripts).
      if (frame.contentWindow) reportViewErrors(frame.contentWindow);
      viewDoc.addEventListener('DOMContentLoaded', () => showSoon(frame), { once: true });
    }
    write(html, params['more'] === true);
  };
  const show = (frame: HTMLIFrameElement): void => {
    if (frame.style.display === 'none') frame.style.removeProperty('display');
  };
  const showSoon = (frame: HTMLIFrameElement): void => {
    if (frame.style.display === 'none') win.setTimeout(() => show(frame));
  };
  let reported = 0;
  const reportViewErrors = (view: Window): void => {
    const report = (message: string): void => {
      if (reported++ >= MAX_VIEW_ERRORS) return;
      win.parent.postMessage({ jsonrpc: '2.0', method: SANDBOX_METHODS.viewError, params: { message: message.slice(0, 500) } }, parentOrigin);
    };
    view.addEventListener('error', (e) => report(`Error in the App: ${e.message || 'unknown error'}`));
    view.addEventListener('unhandledrejection', (e) => {
      const reason = (e as PromiseRejectionEvent).reason;
      report(`Unhandled rejection in the App: ${reason instanceof Error ? reason.message : String(reason)}`);
    });
    // Escape the View left unhandled: the host leaves fullscreen / picture-in-picture (it cannot see the key).
    view.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !e.defaultPrevented) win.parent.postMessage({ jsonrpc: '2.0', method: SANDBOX_METHODS.escape, params: {} }, parentOrigin);
    });
    view.addEventListener('securitypolicyviolation', (e) => {
      const v = e as SecurityPolicyViolationEvent;
      report(`Blocked by the sandbox policy (${v.effectiveDirective}): ${v.blockedURI || 'inline code'}`);
    });
  };
  win.addEventListener('message', onMessage);
  win.postMessage = postHere as Window['postMessage'];
  // `resourceParts`: this proxy takes a large View's HTML in parts (`more`); a host sends parts only to a proxy that says so.
  win.parent.postMessage({ jsonrpc: '2.0', method: SANDBOX_METHODS.proxyReady, params: { resourceParts: true } }, parentOrigin);
  // Made before any resource can arrive. The handshake leaves only when this task ends (Chromium sends a message to a
  // frame of another process after the task that posted it), so this holds it back 20-50 ms on a cold start; making
  // the frame in the next task instead gave no earlier `ui/initialize` (the resource then waits for the frame).
  ahead = viewFrame(INNER_SANDBOX.join(' '), aheadAllow);
  return () => {
    win.removeEventListener('message', onMessage);
    win.postMessage = post;
    toHost?.close();
  };
}

import type { ReactiveController, ReactiveControllerHost, ReactiveElement } from 'lit';
import type { SessionStoreLike } from '../../src/store/types.js';

/**
 * True in source and in the `development` build (`dist/lib-dev`, the `development` export condition). The production
 * builds (`dist/lib`, the CDN file) replace it with `false` (rollup.config.mjs `productionBuild`), so every
 * `if (DEV)` branch and this module's warnings drop out of them.
 */
export const DEV: boolean = true;

/** Where the warnings point: the README sections on each mistake. */
const DOCS = 'https://www.npmjs.com/package/ahp-elements#';

/** What each warning is about; the value is its README anchor. */
export const DEV_WARNINGS = {
  noStore: 'dev-no-store',
  unknownServer: 'dev-unknown-server',
  sameOriginSandbox: 'dev-same-origin-sandbox',
} as const;
type WarningCode = keyof typeof DEV_WARNINGS;

// Each warning once per element instance.
const warned = new WeakMap<object, Set<WarningCode>>();

/** A store left unset this long after connecting counts as missing (frameworks set `.store` right after insertion). */
export const STORE_GRACE_MS = 300;

/** Logs `message` with a link to its README section, once per element instance and code. */
export function devWarn(el: Element, code: WarningCode, message: string): void {
  let codes = warned.get(el);
  if (!codes) warned.set(el, (codes = new Set()));
  if (codes.has(code)) return;
  codes.add(code);
  console.warn(`[ahp-elements] <${el.localName}>: ${message} See ${DOCS}${DEV_WARNINGS[code]}`, el);
}

/** Whether `el` has an `<ahp-session>` ancestor, looking through shadow roots. */
function hasSessionAncestor(el: Element): boolean {
  for (let n: Node | null = el.parentNode; n; n = n instanceof ShadowRoot ? n.host : n.parentNode) {
    if (n instanceof Element && n.localName === 'ahp-session') return true;
  }
  return false;
}

/** What a `DevChecks` controller checks on its host. */
export interface DevCheckOptions {
  /** The store in use (`.store` or the provided one). */
  store: () => unknown;
  /** The server id the host names that the loaded session does not have, if any (checked on every store change). */
  unknownServerId?: (store: SessionStoreLike) => string | null | undefined;
  /** The session store to watch for `unknownServerId`. */
  sessionStore?: () => SessionStoreLike | undefined;
}

/** Adds development checks to every instance of `ctor`; call it only under `if (DEV)`. */
export function addDevChecks<T extends ReactiveElement>(ctor: (new () => T) & { addInitializer(init: (el: ReactiveElement) => void): void }, options: (el: T) => DevCheckOptions): void {
  ctor.addInitializer((el) => void new DevChecks(el, options(el as T)));
}

/** Development-only checks of an element's setup (see `addDevChecks`). */
export class DevChecks implements ReactiveController {
  declare private readonly host: ReactiveControllerHost & HTMLElement;
  declare private readonly options: DevCheckOptions;
  declare private timer: ReturnType<typeof setTimeout> | undefined;
  declare private watched: SessionStoreLike | undefined;
  declare private unwatch: (() => void) | undefined;

  constructor(host: ReactiveControllerHost & HTMLElement, options: DevCheckOptions) {
    this.host = host;
    this.options = options;
    host.addController(this);
  }

  hostConnected(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const el = this.host;
      if (!el.isConnected || this.options.store() || hasSessionAncestor(el)) return;
      devWarn(
        el,
        'noStore',
        'no store: it has no <ahp-session> ancestor and no `.store` was set, so it will stay "Loading…". ' +
          'Put it inside <ahp-session url=… session=…> or set `el.store` to a SessionStore.',
      );
    }, STORE_GRACE_MS);
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
    this.unwatch?.();
    this.unwatch = this.watched = undefined;
  }

  // The host may not re-render when a snapshot arrives without its server, so the store is watched directly.
  hostUpdated(): void {
    const store = this.options.sessionStore?.();
    if (store !== this.watched) {
      this.unwatch?.();
      this.watched = store;
      this.unwatch = store?.subscribe(() => this.checkServer());
    }
    this.checkServer();
  }

  private checkServer(): void {
    const store = this.watched;
    const id = store && this.host.isConnected ? this.options.unknownServerId?.(store) : undefined;
    if (id) devWarn(this.host, 'unknownServer', `server-id "${id}" is not an MCP server of the loaded session.`);
  }
}

/** Warns that the MCP Apps sandbox URL is on the page's own origin. */
export function warnSameOriginSandbox(el: Element, url: string): void {
  devWarn(
    el,
    'sameOriginSandbox',
    `sandbox-url ${url} is on this page's origin (${location.origin}); a View there could read the page. ` +
      'Serve the sandbox proxy from another origin.',
  );
}

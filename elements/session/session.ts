import { LitElement, html } from 'lit';
import type { PropertyValues } from 'lit';
import { ContextProvider } from '../shared/context.js';
import { connectSession, type ReconnectPolicy } from '../../src/connection/connect-session.js';
import type { ConnectionState } from '../../src/client/connection-state.js';
import { createMcpChannel } from '../../src/client/mcp-channel.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import type { WorkerSessionOptions } from '../../src/worker/worker-store.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { handleContext, storeContext } from '../shared/store-context.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { AhpConnectionChangeEvent } from './events.js';
import { handleAuthRequest, resumeAuth, type SessionAuthOptions } from './session-auth.js';
import { SessionDiscovery } from './session-discovery.js';
import { sessionStyles } from './session.styles.js';
import { LocaleController } from '../shared/i18n.js';
import { watchRootOf } from '../shared/lazy-define.js';
import { provideAppServers } from '../shared/app-servers.js';
import { frameScheduler } from '../shared/frame-scheduler.js';
import { errorText } from '../../src/protocol/guards.js';

interface OwnConnection {
  key: string;
  /** Undefined while the worker-mode code is still loading. */
  store?: SessionStoreLike;
  handle?: SessionHandle;
  close(): void;
}

// Worker mode is optional: its code (comlink + the page-side worker store) loads only when `worker` is set.
const workerStore = () => import('../../src/worker/worker-store.js');


/**
 * Connects to an AHP host (`url` + `session`) or takes a ready `store` (and its `handle`), and provides both to
 * every descendant element through the context protocol (`context-request` events; the keys are `@lit/context`
 * contexts, so page code can read them with `@lit/context` too): the store (state, selectors, dispatch) and the session
 * handle (connection state, authenticate, `mcp://` channels, createChat). It never touches the socket itself.
 *
 * Handles `ahp-auth-request` from descendants that nobody cancelled: runs the OAuth driver (`ahp-elements/auth`) and
 * hands the token to the host through the handle's `authenticate`.
 *
 * @summary Provides an AHP session store to the elements inside it.
 * @tag ahp-session
 * @slot - Elements that use the session (`<ahp-mcp-server-list>`, `<ahp-mcp-server>`, ...).
 * @csspart sessions - Without a `session` attribute: the host's sessions to choose from (several, no default), or why there is none.
 * @cssstate connecting, open, reconnecting, closed - Connection state of the store in use.
 * @fires {AhpConnectionChangeEvent} ahp-connection-change - When the connection state changes.
 * @fires {AhpAuthStartEvent} ahp-auth-start - The built-in sign-in started (fired at the element that asked, bubbling).
 * @fires {AhpAuthCompleteEvent} ahp-auth-complete - The token was handed to the host (at the element that asked; at the session for a resumed redirect).
 * @fires {AhpAuthErrorEvent} ahp-auth-error - A sign-in failed (fired at the element that asked, bubbling; at the session for a resumed redirect).
 */
export class AhpSession extends LitElement {
  static override styles = sessionStyles;
  static override properties = {
    url: {},
    session: {},
    clientId: { attribute: 'client-id' },
    worker: {},
    workerUrl: { attribute: 'worker-url' },
    store: { attribute: false },
    handle: { attribute: false },
    authRedirectUri: { attribute: 'auth-redirect-uri' },
    authMode: { attribute: 'auth-mode' },
    authOptions: { attribute: false },
    reconnect: { attribute: false },
  };

  /** WebSocket URL of the AHP host (`ws://…`). */
  declare url: string | null | undefined;
  /**
   * Session channel URI to subscribe to (`ahp-session:/…`). Without it the element asks the host (root channel and
   * `listSessions`) and opens its default or only session; with several and no default it shows them to choose from.
   */
  declare session: string | null | undefined;
  /** Client id to initialize with; generated when unset. */
  declare clientId: string | null | undefined;
  /**
   * Where the connection runs: unset = in this page; `shared` = a SharedWorker shared by every same-origin
   * page (one WebSocket), `dedicated` = a Worker of this page. Falls back shared → dedicated → page.
   */
  declare worker: 'shared' | 'dedicated' | null | undefined;
  /** Worker module URL for `worker` mode (default: the entry shipped next to the worker store; see `connectSessionInWorker`). */
  declare workerUrl: string | null | undefined;
  /** A store to provide instead of connecting; takes precedence over `url`/`session`. */
  declare store: SessionStoreLike | undefined;
  /**
   * The session handle to provide with `store` (connection state, authenticate, `mcp://`, createChat), e.g. the
   * `handle` of `connectSession`. Without it, elements say that the session cannot sign in or open Apps.
   */
  declare handle: SessionHandle | undefined;
  /** OAuth redirect URI for sign-ins (default: the callback page shipped next to the driver). */
  declare authRedirectUri: string | null | undefined;
  /** `popup` (default) or `redirect` (full page; the flow resumes when the session is open again). */
  declare authMode: string | null | undefined;
  /** Driver options: `tokenStore`, `registrationStore`, `clientName`, `clientMetadataUrl`, `fetch`. */
  declare authOptions: SessionAuthOptions | undefined;
  /**
   * Retrying (in-page connections): backoff options (`initialDelayMs` 250, `maxDelayMs` 5 000, `factor`, `jitter`,
   * `maxAttempts` Infinity), or `false` to stop at the first failure. Applies whether the first or a later connection fails.
   */
  declare reconnect: ReconnectPolicy | false | undefined;

  readonly #provider = new ContextProvider(this, storeContext);
  private readonly handleProvider = new ContextProvider(this, handleContext);
  private readonly internals = tryAttachInternals(this);
  readonly #locale = new LocaleController(this);
  readonly #discovery = new SessionDiscovery(() => {
    this.reconcile();
    this.requestUpdate();
  });
  #own: OwnConnection | undefined;
  #bound: SessionStoreLike | undefined;
  declare private boundHandle: SessionHandle | undefined;
  declare private unbindConnection: (() => void) | undefined;
  #state: ConnectionState | undefined;

  /** The store provided to descendants (the `store` property or the one this element connected). */
  get currentStore(): SessionStoreLike | undefined {
    return this.#bound;
  }

  /** The session handle provided to descendants (the `handle` property or the one of this element's connection). */
  get currentHandle(): SessionHandle | undefined {
    return this.boundHandle;
  }

  /** Connection state of the provided handle; undefined while there is none. */
  get connectionState(): ConnectionState | undefined {
    return this.#state;
  }

  constructor() {
    super();
    this.addEventListener('ahp-auth-request', (e) => handleAuthRequest(this, e));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    watchRootOf(this);
    // Re-open after being moved or re-attached; the first connection happens in willUpdate.
    if (this.hasUpdated) this.reconcile();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#discovery.reset();
    this.closeOwn();
    this.#bind(undefined, undefined);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const keys = ['url', 'session', 'clientId', 'worker', 'workerUrl', 'store', 'handle'] as const;
    if (!this.hasUpdated || keys.some((k) => changed.has(k))) {
      this.reconcile();
    }
  }

  protected override render() {
    return html`${this.url && !this.session && !this.store ? this.#discovery.render(this.#locale) : ''}<slot></slot>`;
  }

  private reconcile(): void {
    if (!this.isConnected) return;
    if (this.store) {
      this.closeOwn();
      this.#bind(this.store, this.handle);
      return;
    }
    if (this.session || !this.url) this.#discovery.reset();
    const session = this.session || (this.url ? this.#discovery.sessionFor(this.url) : undefined);
    if (!this.url || !session) {
      this.closeOwn();
      this.#bind(undefined, undefined);
      return;
    }
    const mode = this.workerMode();
    const workerUrl = mode ? (this.workerUrl ?? undefined) : undefined;
    const key = JSON.stringify([this.url, session, this.clientId ?? null, mode ?? null, workerUrl ?? null]);
    if (this.#own?.key !== key) {
      this.closeOwn();
      this.#open(key, this.url, session, this.clientId ?? undefined, mode, workerUrl);
    }
    this.#bind(this.#own?.store, this.#own?.handle);
  }

  /** `worker` attribute → mode: absent = in page, `dedicated`, anything else = `shared`. */
  private workerMode(): 'shared' | 'dedicated' | undefined {
    if (this.worker === null || this.worker === undefined) return undefined;
    return this.worker === 'dedicated' ? 'dedicated' : 'shared';
  }

  #open(key: string, url: string, session: string, clientId: string | undefined, mode?: 'shared' | 'dedicated', workerUrl?: string): void {
    const options = { url, session, ...(clientId ? { clientId } : {}) };
    if (mode) {
      this.openInWorker(key, { ...options, mode, ...(workerUrl ? { workerUrl } : {}) });
      return;
    }
    try {
      // createMcpChannel gives the handle its mcp:// capability (MCP Apps).
      // Elements hear of envelopes once per frame (one fold, one render each), not once per envelope.
      const conn = connectSession({ ...options, createMcpChannel, scheduleNotify: frameScheduler, reconnect: this.reconnect });
      this.adopt({ key, store: conn.store, handle: conn.handle, close: () => conn.close() }, conn.ready);
    } catch (e) {
      this.#fail(e);
    }
  }

  /** Worker mode: loads its code first; the connection opens (and the store is provided) once it is there. */
  private openInWorker(key: string, options: WorkerSessionOptions): void {
    let conn: { close(): void } | undefined;
    let closed = false;
    const own: OwnConnection = {
      key,
      close: () => {
        closed = true;
        conn?.close();
      },
    };
    this.#own = own;
    this.#setState({ kind: 'connecting' });
    workerStore().then(
      ({ connectSessionInWorker }) => {
        if (closed) return;
        try {
          const c = connectSessionInWorker(options);
          conn = c;
          own.store = c.store;
          own.handle = c.handle;
          this.adopt(own, c.ready);
          this.#bind(c.store, c.handle);
        } catch (e) {
          this.#fail(e);
        }
      },
      (e: unknown) => {
        if (!closed) this.#fail(e);
      },
    );
  }

  private adopt(own: OwnConnection, ready: Promise<void>): void {
    this.#own = own;
    ready.catch((e: unknown) => {
      if (this.#own === own && this.#state?.kind !== 'closed') this.#setState({ kind: 'closed', reason: errorText(e) });
    });
  }

  #fail(e: unknown): void {
    this.#own = undefined;
    this.#setState({ kind: 'closed', reason: errorText(e) });
  }

  private closeOwn(): void {
    const own = this.#own;
    this.#own = undefined;
    own?.close();
  }

  #bind(store: SessionStoreLike | undefined, handle: SessionHandle | undefined): void {
    if (store === this.#bound && handle === this.boundHandle) return;
    this.unbindConnection?.();
    this.unbindConnection = undefined;
    this.#bound = store;
    this.boundHandle = handle;
    this.#provider.setValue(store);
    this.handleProvider.setValue(handle);
    if (!handle) {
      // An own connection without a handle is still loading (worker mode) and reports `connecting`.
      if (!this.#own && this.#state && this.#state.kind !== 'closed') this.#setState({ kind: 'closed' });
      return;
    }
    this.#setState(handle.getConnectionState());
    const unsubscribe = handle.subscribeConnection((s) => this.#setState(s));
    // MCP Apps: their sandbox proxies are warmed once a server offering them is ready (when `<ahp-mcp-app>` is loaded).
    const unwatch = store && provideAppServers(store, handle);
    this.unbindConnection = () => (unsubscribe(), unwatch?.());
  }

  #setState(next: ConnectionState): void {
    const prev = this.#state;
    if (prev && prev.kind === next.kind && JSON.stringify(prev) === JSON.stringify(next)) return;
    this.#state = next;
    if (next.kind === 'open') void resumeAuth(this);
    setCustomStates(this.internals, [next.kind]);
    this.dispatchEvent(new AhpConnectionChangeEvent({ state: next }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-session': AhpSession;
  }
}

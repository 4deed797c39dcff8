import { LitElement, html, nothing } from 'lit';
import type { McpServerAuthRequiredState, McpServerState } from '../../src/protocol/customizations.js';
import { effectiveEnabled } from '../../src/reducers/index.js';
import { selectMcpServer } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { DEV, addDevChecks } from '../shared/dev-warnings.js';
import { StoreConsumer } from '../shared/store-consumer.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { AhpMcpServerAuthRequestEvent } from './events.js';
import { restartIntent, startIntent, stopIntent, toggleIntent } from './intents.js';
import { AuthController } from '../shared/auth-controller.js';
import { renderAuthPanel } from './auth-panel.js';
import { authPanelStyles } from './auth-panel.styles.js';
import { ServerEntryController } from '../shared/server-entry-controller.js';
import { iconsHaveThemes, pickIconSrc } from '../shared/icon.js';
import { ColorSchemeController } from '../shared/color-scheme-controller.js';
import { runIntent } from '../shared/intents.js';
import { mcpServerStyles } from './mcp-server.styles.js';
import { LocaleController, addEnglish } from '../shared/i18n.js';
import { SessionHandleController } from '../shared/session-handle-controller.js';
import { connectionStyles } from '../shared/connection-notice.js';
import { MCP_SERVER_EN } from '../locales/en/mcp-server.js';

addEnglish(MCP_SERVER_EN);

type Action = 'start' | 'stop' | 'restart';

/** The known state kinds (badge text `server.state.<kind>`); any other kind shows its raw text on a neutral badge. */
const KINDS = ['starting', 'ready', 'authRequired', 'error', 'stopped'] as const;
type Kind = (typeof KINDS)[number];

/** Which buttons each kind offers; unknown kinds offer start and stop. */
const ACTIONS: Record<string, readonly Action[]> = {
  starting: ['stop'],
  ready: ['stop', 'restart'],
  authRequired: ['stop'],
  error: ['start'],
  stopped: ['start'],
};
const UNKNOWN_KIND_ACTIONS: readonly Action[] = ['start', 'stop'];

const kindOf = (state: McpServerState | undefined): string => {
  const kind: unknown = (state as { kind?: unknown } | undefined)?.kind;
  return typeof kind === 'string' ? kind : 'unknown';
};
const isKnown = (kind: string): kind is Kind => (KINDS as readonly string[]).includes(kind);

/**
 * One MCP server of the session: icon, name, state badge, error message, enable switch and
 * start/stop/restart buttons that dispatch the AHP actions through the store.
 *
 * @summary Shows and controls one MCP server.
 * @tag ahp-mcp-server
 * @csspart icon - The server icon (`<img>`, or a placeholder when there is none).
 * @csspart name - The server name.
 * @csspart status - The state badge (`data-kind` holds the raw state kind).
 * @csspart actions - The enable switch and the start/stop/restart buttons.
 * @csspart error - The error message of the `error` state.
 * @cssstate starting, ready, authRequired, error, stopped - The server's state kind.
 * @cssstate unknown - A state kind this version does not know.
 * @cssstate disabled - The server is effectively disabled.
 * @cssstate loading - No store yet, or no snapshot yet.
 * @cssstate not-found - The session has no MCP server with this id.
 * @cssstate connecting, reconnecting, closed, disconnected - The connection is not open (`disconnected`: reconnecting or closed); the controls are disabled with the reason.
 * @csspart connection - The connection banner shown while not connected.
 * @cssprop --ahp-mcp-server-icon-size - Icon size (default 1.5rem).
 * @fires {AhpMcpServerToggleEvent} ahp-mcp-server-toggle - Before dispatching `session/customizationToggled`; cancelable.
 * @fires {AhpMcpServerStartEvent} ahp-mcp-server-start - Before dispatching `session/mcpServerStartRequested`; cancelable.
 * @fires {AhpMcpServerStopEvent} ahp-mcp-server-stop - Before dispatching `session/mcpServerStopRequested`; cancelable.
 * @fires {AhpMcpServerRestartEvent} ahp-mcp-server-restart - Before dispatching stop then start; cancelable.
 * @fires {AhpMcpServerAuthRequestEvent} ahp-auth-request - "Sign in" / "Sign in again" / "Grant access" in `authRequired`; cancelable (else `<ahp-session>` signs in).
 * @csspart auth - The sign-in panel of `authRequired` (`data-reason` holds the raw reason).
 * @csspart auth-description - The requirement's description.
 * @csspart auth-scopes - The scopes asked for.
 * @csspart auth-status - Progress or failure of the sign-in.
 */
export class AhpMcpServer extends LitElement {
  static override styles = [mcpServerStyles, authPanelStyles, connectionStyles];
  static override properties = {
    serverId: { attribute: 'server-id' },
    store: { attribute: false },
    connectionNotice: { attribute: false },
  };

  /** Customization id of the MCP server to show. */
  declare serverId: string | null | undefined;
  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare store: SessionStoreLike | undefined;
  /** Show the connection banner while not connected (default true). `<ahp-mcp-server-list>` turns it off and shows one for all its servers. */
  declare connectionNotice: boolean;

  private readonly internals = tryAttachInternals(this);
  readonly #locale = new LocaleController(this);
  readonly #stores = new StoreConsumer(this, () => this.store);
  readonly #entry = new ServerEntryController(this, { getStore: () => this.currentStore, getId: () => this.serverId });
  readonly #scheme = new ColorSchemeController(this);
  declare private refocusAfterUpdate?: boolean;
  /** The `error` state last seen, when it arrived, and how many in a row: a failed retry must look different. */
  #failure: { state: object; at: number; count: number } | undefined;
  readonly #auth = new AuthController(this);
  readonly #session = new SessionHandleController(this);

  constructor() {
    super();
    this.connectionNotice = true;
  }

  /** The store in use: the `store` property, else the provided one. */
  get currentStore(): SessionStoreLike | undefined {
    return this.#stores.value;
  }

  protected override render() {
    const store = this.currentStore;
    const entry = this.#entry.value;
    const l = this.#locale;
    const notice = this.connectionNotice ? this.#session.notice(l) : nothing;
    // Not connected yet (or any more) before the first snapshot: say that, not "Loading…".
    if (!store || !store.getState()) return notice !== nothing ? notice : html`<p class="empty" data-empty="loading">${l.t('loading')}</p>`;
    const offline = this.#session.offlineReason(l);
    if (!entry) {
      return html`<p class="empty" data-empty="not-found">${l.t('server.unknown', { id: this.serverId ?? '' })}</p>`;
    }
    const { server, container, enabled } = entry;
    const ownEnabled = effectiveEnabled(server);
    const kind = kindOf(server.state);
    const known = isKnown(kind);
    const name = typeof server.name === 'string' && server.name ? server.name : server.id;
    const error = kind === 'error' ? (server.state as { error?: { message?: unknown } }).error?.message : undefined;
    return html`
      ${notice}
      <fieldset class="intents" ?disabled=${!!offline} title=${offline ?? nothing}>
      <div class="card" role="group" aria-labelledby="name">
        ${this.renderIcon(server.icons)}
        <span part="name" id="name" class="name">${name}</span>
        <span part="status" class="badge" data-kind=${kind} data-known=${known}>${known ? l.t(`server.state.${kind}`) : kind}</span>
        ${enabled
          ? nothing
          : html`<span class="disabled" data-disabled>${!ownEnabled || !container ? l.t('server.disabled') : l.t('server.disabledBy', { container: container.name })}</span>`}
        <div part="actions" class="actions">
          <button
            type="button"
            role="switch"
            data-action="toggle"
            aria-checked=${ownEnabled ? 'true' : 'false'}
            aria-label=${l.t('server.enable', { name })}
            @click=${() => this.#toggle(!ownEnabled)}
          ></button>
          ${(known ? ACTIONS[kind] ?? [] : UNKNOWN_KIND_ACTIONS).map(
            (action) => html`<button
              type="button"
              data-action=${action}
              aria-label=${l.t(`server.${action}Label`, { name })}
              @click=${() => this.#run(action)}
            >${l.t(`server.${action}`)}</button>`,
          )}
        </div>
        ${typeof error === 'string' && error ? html`<p part="error" class="error">${error}</p>` : nothing}
        ${kind === 'error' && this.#failure && this.#failure.count > 1 ? this.renderFailureTime(this.#failure) : nothing}
        ${kind === 'authRequired' ? renderAuthPanel(server.state, name, this.#auth.status, () => this.requestAuth(), l) : nothing}
      </div>
      </fieldset>
    `;
  }

  private renderFailureTime({ at, count }: { at: number; count: number }) {
    const l = this.#locale;
    return html`<p class="error failed-again" role="status" data-failures=${count}>${l.t('server.failedAgain', { time: l.time(at, { timeStyle: 'medium' }), count })}</p>`;
  }

  private renderIcon(icons: unknown) {
    const theme = iconsHaveThemes(icons) ? this.#scheme.theme : 'light';
    const src = pickIconSrc(icons, theme);
    if (!src) return html`<span part="icon" class="icon placeholder" aria-hidden="true"></span>`;
    return html`<img part="icon" class="icon" src=${src} alt="" referrerpolicy="no-referrer" decoding="async" />`;
  }

  protected override willUpdate(): void {
    const state = this.#entry.value?.server.state;
    // A status belongs to the requirement it was about.
    if (kindOf(state) !== 'authRequired') this.#auth.status = { kind: 'idle' };
    // Each new `error` state is a new failure; anything but starting in between ends the streak.
    if (kindOf(state) === 'error' && state !== this.#failure?.state) {
      this.#failure = { state: state!, at: Date.now(), count: (this.#failure?.count ?? 0) + 1 };
    } else if (kindOf(state) !== 'error' && kindOf(state) !== 'starting') this.#failure = undefined;
  }

  protected override updated(): void {
    const entry = this.#entry.value;
    const states: string[] = [];
    if (!this.currentStore?.getState()) states.push('loading');
    else if (!entry) states.push('not-found');
    else {
      const kind = kindOf(entry.server.state);
      states.push(isKnown(kind) ? kind : 'unknown');
      if (!entry.enabled) states.push('disabled');
    }
    states.push(...this.#session.states);
    setCustomStates(this.internals, states);
    // A pressed button may vanish with the state it belonged to (Stop → Start); keep focus in the actions.
    if (this.refocusAfterUpdate) {
      this.refocusAfterUpdate = false;
      if (!this.shadowRoot?.activeElement) {
        const next = this.shadowRoot?.querySelector<HTMLButtonElement>('[data-action]:not([data-action="toggle"])')
          ?? this.shadowRoot?.querySelector<HTMLButtonElement>('[data-action="toggle"]');
        next?.focus();
      }
    }
  }

  /** Fires `ahp-auth-request`; an ancestor `<ahp-session>` runs the sign-in unless someone cancels it. */
  private requestAuth(): void {
    const server = this.#entry.value?.server;
    if (!server || kindOf(server.state) !== 'authRequired') return;
    const { kind: _kind, ...auth } = server.state as McpServerAuthRequiredState;
    this.dispatchEvent(new AhpMcpServerAuthRequestEvent({ kind: 'mcpServer', customizationId: server.id, auth }));
  }

  #toggle(enabled: boolean): void {
    const server = this.#entry.value?.server;
    if (!server) return;
    runIntent(this, toggleIntent(server, enabled), this.currentStore);
  }

  #run(action: Action): void {
    const id = this.#entry.value?.server.id;
    if (!id) return;
    const intent = action === 'start' ? startIntent(id) : action === 'stop' ? stopIntent(id) : restartIntent(id);
    if (!runIntent(this, intent, this.currentStore)) return;
    this.refocusAfterUpdate = true;
    this.requestUpdate();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-mcp-server': AhpMcpServer;
  }
}

if (DEV) {
  addDevChecks(AhpMcpServer, (el) => ({
    store: () => el.currentStore,
    sessionStore: () => el.currentStore,
    unknownServerId: (store) => {
      const state = store.getState();
      return el.serverId && state && !selectMcpServer(state, el.serverId) ? el.serverId : undefined;
    },
  }));
}

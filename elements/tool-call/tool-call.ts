import { LitElement, html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import type { McpAuthRequirement, McpServerCustomization } from '../../src/protocol/customizations.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import { selectMcpServer } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import { DEV, addDevChecks } from '../shared/dev-warnings.js';
import { StoreConsumer } from '../shared/store-consumer.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { renderStringOrMarkdown } from '../shared/markdown.js';
import { LocaleController, addEnglish } from '../shared/i18n.js';
import { iconsHaveThemes, pickIconSrc } from '../shared/icon.js';
import { ColorSchemeController } from '../shared/color-scheme-controller.js';
import { runIntent } from '../shared/intents.js';
import { StoreSubscription } from '../shared/store-binding.js';
import { ToolCallController } from '../shared/tool-call-controller.js';
import { renderMcpApp } from '../mcp-app/embed.js';
import { renderConfirmation } from './confirmation.js';
import { renderInput } from './input.js';
import { AhpToolCallAuthRequestEvent } from './events.js';
import { approveIntent, cancelIntent, denyIntent, resultIntent, type ToolCallIntent, type ToolCallIds } from './intents.js';
import { renderContent, renderStructured } from './result-content.js';
import { failed, isKnownStatus, statusLabel, statusOf } from './status.js';
import { SessionHandleController } from '../shared/session-handle-controller.js';
import { connectionStyles } from '../shared/connection-notice.js';
import { toolCallStyles } from './tool-call.styles.js';
import { isRecord } from '../../src/protocol/guards.js';
import { TOOL_CALL_EN } from '../locales/en/tool-call.js';

addEnglish(TOOL_CALL_EN);


/**
 * One tool call of a chat: name, contributing MCP server, status, input, confirmation, result, and the
 * actions that resolve it (dispatched on the chat channel through the store).
 *
 * @summary Shows and operates one AHP tool call.
 * @tag ahp-tool-call
 * @csspart header - Name, server and status.
 * @csspart server - The contributing MCP server (icon and name).
 * @csspart status - The status badge (`data-status` holds the raw status).
 * @csspart input - The collapsible input (`data-input`: partial, inline or ref).
 * @csspart result - Content, structured content and error.
 * @csspart actions - The buttons (`data-action`: approve, deny, accept, reject, grant-access, cancel).
 * @csspart app - The embedded `<ahp-mcp-app>` of an MCP App call (server with `mcpApp` + `channel`, call with `_meta.ui.resourceUri`).
 * @cssstate streaming, pending-confirmation, running, auth-required, pending-result-confirmation, completed, cancelled - The status.
 * @cssstate unknown - A status this version does not know.
 * @cssstate failed - The result reports a failure.
 * @cssstate auth-blocked - The call waits for authentication (its own status, or its server's state).
 * @cssstate loading, not-found - No tool call to show yet / at all.
 * @cssstate connecting, reconnecting, closed, disconnected - The connection is not open; the answer buttons are disabled with the reason.
 * @csspart connection - The connection banner (unless `connectionNotice` is false).
 * @fires {AhpToolCallApproveEvent} ahp-tool-call-approve - Before `chat/toolCallConfirmed {approved:true}`; cancelable.
 * @fires {AhpToolCallDenyEvent} ahp-tool-call-deny - Before `chat/toolCallConfirmed {approved:false}`; cancelable.
 * @fires {AhpToolCallResultConfirmEvent} ahp-tool-call-result-confirm - Before `chat/toolCallResultConfirmed`; cancelable.
 * @fires {AhpToolCallCancelEvent} ahp-tool-call-cancel - Before a failed `chat/toolCallComplete` cancels a blocked call; cancelable.
 * @fires {AhpToolCallAuthRequestEvent} ahp-auth-request - "Grant access" on a call blocked by authentication; cancelable.
 */
export class AhpToolCall extends LitElement {
  static override styles = [toolCallStyles, connectionStyles];
  static override properties = {
    chat: {},
    toolCallId: { attribute: 'tool-call-id' },
    turnId: { attribute: 'turn-id' },
    toolCall: { attribute: false },
    store: { attribute: false },
    handle: { attribute: false },
    connectionNotice: { attribute: false },
  };

  /** Chat channel URI (`ahp-chat:/…`) the call lives in; needed to dispatch actions. */
  declare chat: string | null | undefined;
  /** Id of the tool call to show from the store (ignored when `toolCall` is set). */
  declare toolCallId: string | null | undefined;
  /** Turn of the call, for actions on a given `toolCall`; read from the store otherwise. */
  declare turnId: string | null | undefined;
  /** A tool-call object to show instead of looking one up. */
  declare toolCall: ToolCallState | undefined;
  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare store: SessionStoreLike | undefined;
  /** Session handle for an embedded MCP App's `mcp://` channel; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare handle: SessionHandle | undefined;
  /** Show the connection banner while not connected (default true); `<ahp-chat>` and `<ahp-input-needed>` show their own. */
  declare connectionNotice: boolean;
  readonly #session = new SessionHandleController(this, () => this.handle);

  private readonly internals = tryAttachInternals(this);
  readonly #locale = new LocaleController(this);
  readonly #stores = new StoreConsumer(this, () => this.store);
  readonly #scheme = new ColorSchemeController(this);
  /** The call looked up in the store (unless a `.toolCall` object is given). */
  readonly #call = new ToolCallController(this, {
    getStore: () => this.currentStore,
    getChat: () => (isRecord(this.toolCall) ? undefined : this.chat),
    getToolCallId: () => this.toolCallId,
  });
  #server: McpServerCustomization | undefined;
  declare private announced: { id: string; text: string; lang: string } | undefined;
  private announcement = '';
  declare private hadFocus?: boolean;
  declare private editedInput: string | undefined;

  constructor() {
    super();
    new StoreSubscription(this, () => [this.currentStore, this.#customizationId], () => this.watchServer());
  }

  /** The store in use: the `store` property, else the provided one. */
  get currentStore(): SessionStoreLike | undefined {
    return this.#stores.value;
  }

  /** The tool call shown: the `toolCall` property, else the one selected from the store. */
  get current(): ToolCallState | undefined {
    return isRecord(this.toolCall) ? this.toolCall : this.#call.value?.toolCall;
  }

  get #customizationId(): string | undefined {
    const c: unknown = this.current?.contributor;
    return isRecord(c) && c.kind === 'mcp' && typeof c.customizationId === 'string' ? c.customizationId : undefined;
  }

  private watchServer() {
    const [store, id] = [this.currentStore, this.#customizationId];
    this.#server = store && id ? selectMcpServer(store.getState(), id)?.server : undefined;
    if (!store || !id) return undefined;
    return store.subscribeMcpServer(id, (server) => ((this.#server = server), this.requestUpdate()));
  }

  /** No call yet because the store or the chat snapshot has not arrived. */
  get #loading(): boolean {
    return !isRecord(this.toolCall) && (!this.currentStore || (!!this.chat && !this.#call.chatLoaded));
  }

  /** Waiting for authentication: the call says so, or it runs on a server that does. */
  private get authBlocked(): boolean {
    const tc = this.current;
    return tc?.status === 'auth-required' || (tc?.status === 'running' && !!this.#customizationId && this.#server?.state?.kind === 'authRequired');
  }

  // After the controllers' hostUpdate (they follow a new store or id), before rendering.
  protected override update(changed: PropertyValues<this>): void {
    const tc = this.current;
    const id = tc ? String(tc.toolCallId) : '';
    if (this.announced?.id !== id) this.editedInput = undefined;
    const l = this.#locale;
    const text = tc ? l.t(this.authBlocked ? 'toolCall.announceAuth' : 'toolCall.announce', { name: tc.displayName || tc.toolName || l.t('toolCall.name'), status: statusLabel(tc, l) }) : '';
    // A new call, or the same status in another language, is not news.
    const same = this.announced?.id === id && this.announced.lang === l.lang;
    if (same && this.announced!.text !== text) this.announcement = text;
    else if (!same) this.announcement = '';
    this.announced = { id, text, lang: l.lang };
    this.hadFocus = !!this.shadowRoot?.activeElement;
    super.update(changed);
  }

  protected override render() {
    const tc = this.current;
    const live = html`<div class="live" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>`;
    const notice = this.connectionNotice === false ? nothing : this.#session.notice(this.#locale);
    if (!tc) {
      const loading = this.#loading;
      if (loading && notice !== nothing) return html`${live}${notice}`;
      return html`${live}<p class="empty" data-empty=${loading ? 'loading' : 'not-found'}>
        ${loading ? this.#locale.t('toolCall.loading') : this.#locale.t('toolCall.unknown', { id: this.toolCallId ?? '' })}
      </p>`;
    }
    const status = statusOf(tc);
    const known = isKnownStatus(status);
    const l = this.#locale;
    const name = typeof tc.displayName === 'string' && tc.displayName ? tc.displayName : String(tc.toolName ?? this.#locale.t('toolCall.name'));
    const done = status === 'completed' || status === 'pending-result-confirmation';
    const t = tc as unknown as Partial<Record<string, unknown>>;
    const message = done && t.pastTenseMessage ? t.pastTenseMessage : t.invocationMessage;
    const offline = this.#session.offlineReason(l);
    return html`${live}${notice}
      <fieldset class="intents" ?disabled=${!!offline} title=${offline ?? nothing}>
      <div class="card" role="group" aria-labelledby="name" tabindex="-1">
        <div part="header" class="header">
          <span id="name" class="name">${name}</span>
          ${this.renderServer()}
          <span part="status" class="badge" data-status=${status} data-known=${known} data-outcome=${failed(tc) ? 'failed' : nothing}
            >${statusLabel(tc, l)}</span
          >
        </div>
        ${typeof tc.intention === 'string' && tc.intention ? html`<p class="intention">${tc.intention}</p>` : nothing}
        ${message ? html`<div class="md message">${renderStringOrMarkdown(message as string)}</div>` : nothing}
        ${renderInput(tc, l)} ${this.renderBody(tc)}
        ${renderMcpApp({ store: this.currentStore, handle: this.handle, chat: isRecord(this.toolCall) ? undefined : this.chat, toolCall: tc, server: this.#server })}
      </div>
      </fieldset>`;
  }

  private renderServer() {
    const id = this.#customizationId;
    if (!id) return nothing;
    const s = this.#server;
    const src = s && pickIconSrc(s.icons, iconsHaveThemes(s.icons) ? this.#scheme.theme : 'light');
    return html`<span part="server" class="server" data-server-id=${id}>
      ${src ? html`<img class="icon" src=${src} alt="" referrerpolicy="no-referrer" decoding="async" />` : nothing}
      <span class="server-name">${typeof s?.name === 'string' && s.name ? s.name : id}</span>
    </span>`;
  }

  private renderBody(tc: ToolCallState) {
    switch (tc.status) {
      case 'pending-confirmation':
        return renderConfirmation(tc, this.editedInput, {
          approve: (o) => this.#approve(o),
          deny: (o) => this.act(denyIntent(this.#ids(), o)),
          edited: (text) => (this.editedInput = text),
        }, this.#locale);
      case 'running':
      case 'auth-required':
        return html`${tc.content?.length ? html`<div part="result" class="result">${renderContent(tc.content, this.#locale)}</div>` : nothing}
        ${this.authBlocked ? this.renderAuth(tc) : nothing}`;
      case 'pending-result-confirmation':
      case 'completed':
        return html`<div part="result" class="result">
            ${renderContent(tc.content, this.#locale)} ${renderStructured(tc.structuredContent, this.#locale)}
            ${tc.error && typeof tc.error.message === 'string' ? html`<p class="error" data-error>${tc.error.message}</p>` : nothing}
          </div>
          ${tc.status === 'pending-result-confirmation'
            ? html`<div part="actions" class="actions">
                <button type="button" class="primary" data-action="accept" @click=${() => this.act(resultIntent(this.#ids(), true))}>${this.#locale.t('toolCall.acceptResult')}</button>
                <button type="button" data-action="reject" @click=${() => this.act(resultIntent(this.#ids(), false))}>${this.#locale.t('toolCall.rejectResult')}</button>
              </div>`
            : nothing}`;
      case 'cancelled':
        return tc.reasonMessage ? html`<div class="md reason">${renderStringOrMarkdown(tc.reasonMessage)}</div>` : nothing;
      default:
        return nothing;
    }
  }

  private renderAuth(tc: ToolCallState) {
    const auth = this.authRequirement(tc);
    const server = typeof this.#server?.name === 'string' && this.#server.name ? this.#server.name : this.#customizationId ?? this.#locale.t('toolCall.theServer');
    return html`<div class="auth" data-auth>
      <p id="auth-text">${auth?.description ? html`${this.#locale.t('toolCall.needsAccessFor', { server })} ${auth.description}` : this.#locale.t('toolCall.needsAccess', { server })}</p>
      <div part="actions" class="actions" aria-describedby="auth-text">
        <button type="button" class="primary" data-action="grant-access" @click=${() => this.requestAuth()}>${this.#locale.t('toolCall.grantAccess')}</button>
        <button type="button" data-action="cancel" @click=${() => this.act(cancelIntent(this.#ids()))}>${this.#locale.t('toolCall.cancel')}</button>
      </div>
    </div>`;
  }

  private authRequirement(tc: ToolCallState | undefined): McpAuthRequirement | undefined {
    if (tc?.status === 'auth-required' && isRecord(tc.auth)) return tc.auth;
    const state = this.#server?.state;
    if (state?.kind !== 'authRequired') return undefined;
    const { kind: _kind, ...auth } = state;
    return auth;
  }

  protected override updated(): void {
    const tc = this.current;
    const states: string[] = [];
    if (!tc) states.push(this.#loading ? 'loading' : 'not-found');
    else {
      const status = statusOf(tc);
      states.push(isKnownStatus(status) ? status : 'unknown');
      if (failed(tc)) states.push('failed');
      if (this.authBlocked) states.push('auth-blocked');
    }
    states.push(...this.#session.states);
    setCustomStates(this.internals, states);
    // A focused button goes away with the state it belonged to: keep focus inside the call.
    if (this.hadFocus && !this.shadowRoot?.activeElement) {
      (this.shadowRoot?.querySelector<HTMLElement>('[data-action]') ?? this.shadowRoot?.querySelector<HTMLElement>('.card'))?.focus();
    }
  }

  #ids(): ToolCallIds {
    return { chat: this.chat ?? undefined, turnId: this.turnId ?? this.#call.value?.turnId, toolCallId: this.current!.toolCallId };
  }

  /** Fires the intent's event; unless it is cancelled, dispatches its action on the chat channel. */
  private act(intent: ToolCallIntent): void {
    const { chat, turnId } = this.#ids();
    const store = this.currentStore;
    // Without a store, chat and turn the event still tells the page what the user chose; there is nothing to dispatch on.
    if (!store || !chat || !turnId) {
      this.dispatchEvent(intent[0]);
      return;
    }
    if (runIntent(this, intent, store, chat)) this.requestUpdate();
  }

  #approve(optionId?: string): void {
    const input = (this.current as { toolInput?: unknown }).toolInput;
    const edited = this.editedInput !== undefined && this.editedInput !== input ? this.editedInput : undefined;
    this.act(approveIntent(this.#ids(), optionId, edited));
  }

  private requestAuth(): void {
    const tc = this.current;
    const customizationId = this.#customizationId;
    if (!tc || !customizationId) return;
    const auth = this.authRequirement(tc);
    this.dispatchEvent(new AhpToolCallAuthRequestEvent({ kind: 'toolCall', ...this.#ids(), customizationId, ...(auth ? { auth } : {}) }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-tool-call': AhpToolCall;
  }
}

// A `.toolCall` object is enough to show a call without a store.
if (DEV) addDevChecks(AhpToolCall, (el) => ({ store: () => el.currentStore ?? el.toolCall }));

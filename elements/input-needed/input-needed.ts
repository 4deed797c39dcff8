import { LitElement, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { SessionInputRequest, SessionState } from '../../src/protocol/session.js';
import { listInputNeeded } from '../../src/store/input-selectors.js';
import type { ActionFailure, SessionStoreLike } from '../../src/store/types.js';
import { DEV, addDevChecks } from '../shared/dev-warnings.js';
import { StoreConsumer } from '../shared/store-consumer.js';
import { StoreController } from '../shared/store-controller.js';
import { StoreSubscription } from '../shared/store-binding.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { AhpInputNeededOpenEvent } from './events.js';
import { inputNeededStyles } from './input-needed.styles.js';
import { LocaleController, addEnglish } from '../shared/i18n.js';
import { renderInputRequestForm } from '../shared/input-request-form.js';
import { SessionHandleController } from '../shared/session-handle-controller.js';
import { connectionStyles } from '../shared/connection-notice.js';
import { isRecord } from '../../src/protocol/guards.js';
import { INPUT_NEEDED_EN } from '../locales/en/input-needed.js';

addEnglish(INPUT_NEEDED_EN);

type Rec = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** What the element renders from the session; each field compared by identity. */
interface View {
  entries: SessionInputRequest[];
  clients: unknown;
}
const selectView = (state: SessionState | undefined): View | undefined => state && { entries: listInputNeeded(state), clients: state.activeClients };
const sameView = (a: View | undefined, b: View | undefined): boolean =>
  a === b || (!!a && !!b && a.entries === b.entries && a.clients === b.clients);

/** The kinds with a badge text (`input.badge.<kind>`; result confirmations get their own); other kinds show their raw text. */
const BADGES = ['toolConfirmation', 'toolAuthentication', 'toolClientExecution', 'chatInput'] as const;

/** Events after which a row waits for the session to move on (unless cancelled). */
const ANSWERS = ['ahp-tool-call-approve', 'ahp-tool-call-deny', 'ahp-tool-call-result-confirm', 'ahp-tool-call-cancel', 'ahp-chat-input-answer'];

/** The tool call of a tool entry with the chat and turn to answer on; undefined for other or malformed entries. */
function toolOf(e: Rec): Rec | undefined {
  const tc = e.toolCall;
  return isRecord(tc) && typeof tc.toolCallId === 'string' && typeof e.chat === 'string' && typeof e.turnId === 'string' && String(e.kind).startsWith('tool')
    ? tc
    : undefined;
}

/**
 * The session's `inputNeeded` roll-up: one row per entry with the actions that resolve it without
 * opening its chat. Tool entries render as `<ahp-tool-call>` given the entry's tool call, chat and turn
 * (approve/deny or the call's options, accept/reject a result, Grant access / Cancel); an agent's
 * question (`chatInput`) is answered in place (`chat/inputCompleted` on its chat), or "Open chat".
 *
 * @summary Everything in the session that waits for the user, with its answers.
 * @tag ahp-input-needed
 * @csspart list - The list of entries.
 * @csspart item - One entry (`data-kind` holds the entry kind, `data-id` its id, `data-chat` its chat).
 * @csspart empty - The "Nothing needs your input" message (and the loading message).
 * @cssstate loading - No store or no snapshot yet.
 * @cssstate empty - Nothing waits for the user.
 * @cssstate waiting - At least one entry.
 * @cssstate connecting, reconnecting, closed, disconnected - The connection is not open; answers are disabled with the reason.
 * @csspart connection - The connection banner shown while not connected.
 * @fires {AhpToolCallApproveEvent} ahp-tool-call-approve - From the `<ahp-tool-call>` rows; cancelable.
 * @fires {AhpToolCallDenyEvent} ahp-tool-call-deny - From the `<ahp-tool-call>` rows; cancelable.
 * @fires {AhpToolCallResultConfirmEvent} ahp-tool-call-result-confirm - From the `<ahp-tool-call>` rows; cancelable.
 * @fires {AhpToolCallCancelEvent} ahp-tool-call-cancel - From the `<ahp-tool-call>` rows; cancelable.
 * @fires {AhpToolCallAuthRequestEvent} ahp-auth-request - From the `<ahp-tool-call>` rows; cancelable.
 * @fires {AhpInputNeededOpenEvent} ahp-input-needed-open - "Open chat" for a chat that asks a question.
 * @fires {AhpChatInputAnswerEvent} ahp-chat-input-answer - Before dispatching `chat/inputCompleted` for a question answered here; cancelable.
 */
export class AhpInputNeeded extends LitElement {
  static override styles = [inputNeededStyles, connectionStyles];
  static override properties = {
    store: { attribute: false },
  };

  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare store: SessionStoreLike | undefined;

  private readonly internals = tryAttachInternals(this);
  readonly #locale = new LocaleController(this);
  readonly #session = new SessionHandleController(this);
  readonly #stores = new StoreConsumer(this, () => this.store);
  readonly #view = new StoreController(this, {
    getStore: () => this.currentStore,
    select: selectView,
    equals: sameView,
  });
  /** Entries answered here, by id, until the session replaces or removes them or the answer fails. */
  readonly #answered = new Map<string, SessionInputRequest>();
  private focusedRow = -1;

  constructor() {
    super();
    for (const name of ANSWERS) this.addEventListener(name, this.#onAnswer);
    // An answer the host refuses makes its row answerable again.
    new StoreSubscription(this, () => [this.currentStore], () => this.currentStore?.onActionFailed(this.#onActionFailed));
  }

  /** The store in use: the `store` property, else the provided one. */
  get currentStore(): SessionStoreLike | undefined {
    return this.#stores.value;
  }

  protected override willUpdate(): void {
    const entries = this.#view.value?.entries ?? [];
    for (const [id, entry] of this.#answered) if (!entries.includes(entry)) this.#answered.delete(id);
    const active = this.shadowRoot?.activeElement;
    this.focusedRow = active ? this.#rows().findIndex((r) => r.contains(active)) : -1;
  }

  protected override render() {
    const view = this.#view.value;
    const l = this.#locale;
    const notice = this.#session.notice(l);
    if (!this.currentStore || !view) return notice !== nothing ? notice : html`<p part="empty" class="empty" data-empty="loading">${l.t('loading')}</p>`;
    if (!view.entries.length) return html`${notice}<p part="empty" class="empty" data-empty="empty" tabindex="-1">${l.t('input.empty')}</p>`;
    const offline = this.#session.offlineReason(l);
    return html`${notice}<fieldset class="intents" ?disabled=${!!offline} title=${offline ?? nothing}><ul part="list" class="list" aria-label=${l.t('input.list')}>
      ${repeat(view.entries, (e) => e.id, (e) => this.renderEntry(e))}
    </ul></fieldset>`;
  }

  private renderEntry(entry: SessionInputRequest) {
    const e = entry as unknown as Rec;
    const kind = str(e.kind) || 'unknown';
    const tool = toolOf(e);
    const busy = this.#answered.has(entry.id);
    const l = this.#locale;
    const badge =
      tool?.status === 'pending-result-confirmation' ? l.t('input.badge.reviewResult')
      : !(BADGES as readonly string[]).includes(kind) ? kind
      : tool || kind === 'chatInput' ? l.t(`input.badge.${kind as (typeof BADGES)[number]}`)
      : l.t('input.badge.needsInput');
    const request = isRecord(e.request) ? e.request : {};
    const question = Array.isArray(request.questions) && isRecord(request.questions[0]) ? str(request.questions[0].message) : '';
    return html`<li part="item" class=${tool ? 'item' : 'item plain'} data-kind=${kind} data-id=${entry.id} data-chat=${str(e.chat)} aria-busy=${String(busy)} @click=${{ handleEvent: (ev: Event) => busy && ev.stopPropagation(), capture: true }}>
      <span class="badge">${badge}${busy ? ` · ${l.t('input.sending')}` : ''}</span>
      ${tool
        ? html`<ahp-tool-call .toolCall=${tool} chat=${str(e.chat)} turn-id=${str(e.turnId)} .store=${this.currentStore} .connectionNotice=${false}></ahp-tool-call>
            ${kind === 'toolClientExecution' ? html`<p class="muted">${l.t('input.waitingFor', { client: this.#clientName(e.clientId) })}</p>` : nothing}`
        : kind === 'chatInput' && typeof e.chat === 'string' && typeof request.id === 'string'
          ? html`${renderInputRequestForm(request, { chat: e.chat, store: this.currentStore, host: this, l })}
              <button type="button" class="link" data-action="open" @click=${() => this.dispatchEvent(new AhpInputNeededOpenEvent({ chat: entry.chat, id: entry.id }))}>${l.t('input.openChat')}</button>`
          : html`<p class="message">${str(request.message) || question || l.t(kind === 'chatInput' ? 'input.question' : 'input.openToAnswer')}</p>
            ${typeof e.chat === 'string'
              ? html`<button type="button" data-action="open" @click=${() => this.dispatchEvent(new AhpInputNeededOpenEvent({ chat: entry.chat, id: entry.id }))}>${l.t('input.openChat')}</button>`
              : nothing}`}
    </li>`;
  }

  /** A tool-call answer bubbled up from a row: once nobody cancelled it, the row waits for the session. */
  readonly #onAnswer = (ev: Event): void => {
    const id = (ev.composedPath().find((n) => (n as HTMLElement).dataset?.id !== undefined) as HTMLElement | undefined)?.dataset.id;
    const entry = this.#view.value?.entries.find((x) => x.id === id);
    if (!entry) return;
    // Page listeners run after this one; the element dispatches only if the event ends up not cancelled.
    queueMicrotask(() => {
      if (ev.defaultPrevented || !this.#view.value?.entries.includes(entry)) return;
      this.#answered.set(entry.id, entry);
      this.requestUpdate();
    });
  };

  readonly #onActionFailed = (failure: ActionFailure): void => {
    const id = (failure.action as { toolCallId?: unknown }).toolCallId;
    for (const [key, entry] of this.#answered) {
      const e = entry as unknown as Rec;
      if (e.chat === failure.channel && toolOf(e)?.toolCallId === id) this.#answered.delete(key);
    }
    this.requestUpdate();
  };

  #rows(): HTMLElement[] {
    return [...(this.shadowRoot?.querySelectorAll<HTMLElement>('[part~="item"]') ?? [])];
  }

  protected override updated(): void {
    const view = this.#view.value;
    setCustomStates(this.internals, [!view ? 'loading' : view.entries.length ? 'waiting' : 'empty', ...this.#session.states]);
    // An answered row that disappears takes focus with it: move on to the row now in its place.
    if (this.focusedRow >= 0 && !this.shadowRoot?.activeElement) {
      const rows = this.#rows();
      const row = rows[Math.min(this.focusedRow, rows.length - 1)];
      const target = row?.querySelector('ahp-tool-call')?.shadowRoot?.querySelector('[data-action]') ?? row?.querySelector('button');
      ((target as HTMLElement | null | undefined) ?? this.shadowRoot?.querySelector<HTMLElement>('[data-empty]'))?.focus();
    }
  }

  #clientName(clientId: unknown): string {
    const id = str(clientId);
    const clients = this.#view.value?.clients;
    const client = Array.isArray(clients) ? clients.find((c: unknown) => isRecord(c) && c.clientId === id) : undefined;
    return str((client as Rec | undefined)?.displayName) || id || this.#locale.t('input.anotherClient');
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-input-needed': AhpInputNeeded;
  }
}

if (DEV) addDevChecks(AhpInputNeeded, (el) => ({ store: () => el.currentStore }));

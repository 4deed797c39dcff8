import { LitElement, html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { repeat } from 'lit/directives/repeat.js';
import type { ActiveTurn, Turn } from '../../src/protocol/session.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { DEV, addDevChecks } from '../shared/dev-warnings.js';
import { StoreConsumer } from '../shared/store-consumer.js';
import { runIntent } from '../shared/intents.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { cancelIntent, sendIntent } from './intents.js';
import { LocaleController, addEnglish } from '../shared/i18n.js';
import { SessionHandleController } from '../shared/session-handle-controller.js';
import { connectionStyles } from '../shared/connection-notice.js';
import { ChatController } from '../shared/chat-controller.js';
import { partKey, renderPart } from './chat-parts.js';
import { renderActivity, renderHistoryNote, renderPending, renderResume } from './chat-state-extras.js';
import { chatStyles } from './chat.styles.js';
import { TranscriptFollower, waitingCalls } from './transcript-follower.js';
import { APP_MESSAGE_META_KEY } from '../../src/apps/types.js';
import { isRecord } from '../../src/protocol/guards.js';
import { CHAT_EN } from '../locales/en/chat.js';

addEnglish(CHAT_EN);

type Rec = Record<string, unknown>;

/** The message origins with a sender label (`chat.origin.<kind>`); others show their raw kind. */
const ORIGINS = ['user', 'agent', 'tool', 'automation', 'systemNotification'] as const;

interface Row {
  key: string;
  turn: Turn | ActiveTurn;
  active: boolean;
}

/** Past turns then the active one, keyed by turn id so a turn keeps its DOM when it completes. */
function rowsOf(turns: unknown, active: unknown): Row[] {
  const rows: Row[] = [];
  const seen = new Set<string>();
  const add = (t: unknown, isActive: boolean) => {
    if (!isRecord(t)) return;
    const id = typeof t.id === 'string' ? t.id : '';
    let key = `t:${id}`;
    for (let n = 1; seen.has(key); n++) key = `t:${id}#${n}`;
    seen.add(key);
    rows.push({ key, turn: t as unknown as Turn, active: isActive });
  };
  if (Array.isArray(turns)) for (const t of turns) add(t, false);
  if (active) add(active, true);
  return rows;
}

/**
 * A chat channel: its transcript (user messages, markdown, collapsed reasoning, tool calls as
 * `<ahp-tool-call>`, notifications, errors) and a composer that starts turns and stops the active one.
 * Watches the chat through the store while connected.
 *
 * @summary Transcript and composer of one AHP chat.
 * @tag ahp-chat
 * @csspart transcript - The scrolling transcript (`role="log"`).
 * @csspart turn - One turn (`data-state`: complete, cancelled, error or active).
 * @csspart message - The message that started a turn (`data-origin` holds the origin kind).
 * @csspart composer - The composer form.
 * @csspart input - The message textarea.
 * @csspart send - The Send button.
 * @csspart stop - The Stop button (only while a turn is active).
 * @csspart activity - What the agent is doing now (the chat's `activity`), while it says.
 * @csspart pending - The steering and queued messages waiting to be sent, each with Remove.
 * @csspart history-note - "Earlier messages are not shown" when the transcript is a tail of a longer history.
 * @csspart resume - The Resume button under a turn that ended in a resumable error.
 * @csspart composer-hint - Why the composer cannot send now (a tool call waits for the user, or a message was sent while the response runs).
 * @cssstate loading - No store, chat or snapshot yet.
 * @cssstate connecting, reconnecting, closed, disconnected - The connection is not open: typed text stays in the composer, Send is disabled with the reason, a message the host never got comes back into the box.
 * @csspart connection - The connection banner shown while not connected.
 * @cssstate empty - The chat has no turns.
 * @cssstate active - A turn is in progress.
 * @cssprop --ahp-chat-transcript-max-height - Maximum height of the transcript before it scrolls (default 28rem; `none` to fill the host).
 * @fires {AhpChatSendEvent} ahp-chat-send - Before dispatching `chat/turnStarted`; cancelable (the text then stays in the composer).
 * @fires {AhpChatCancelEvent} ahp-chat-cancel - Before dispatching `chat/turnCancelled`; cancelable.
 * @fires {AhpChatInputAnswerEvent} ahp-chat-input-answer - Before dispatching `chat/inputCompleted` for a question answered in place; cancelable.
 * @fires {AhpChatResumeEvent} ahp-chat-resume - Before dispatching `chat/turnResume`; cancelable.
 * @fires {AhpChatPendingRemoveEvent} ahp-chat-pending-remove - Before dispatching `chat/pendingMessageRemoved`; cancelable.
 */
export class AhpChat extends LitElement {
  static override styles = [chatStyles, connectionStyles];
  static override properties = {
    chat: {},
    store: { attribute: false },
  };

  /** The chat channel URI (`ahp-chat:/…`). */
  declare chat: string | null | undefined;
  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare store: SessionStoreLike | undefined;

  private readonly internals = tryAttachInternals(this);
  readonly #locale = new LocaleController(this);
  readonly #stores = new StoreConsumer(this, () => this.store);
  readonly #chatState = new ChatController(this, {
    getStore: () => this.currentStore,
    getChat: () => this.chat,
  });
  declare private focusInputAfterUpdate?: boolean;
  /** Enter was pressed while a turn was active (the hint then says why nothing was sent). */
  declare private sendBlocked?: boolean;
  /** Why the last message did not go out (too large, or the host never got it); shown until the next send. */
  declare private sendError: string | undefined;
  /** Messages sent lately (turnId → stop listening): one the host reports it never got comes back into the box. */
  private readonly inFlight = new Map<string, () => void>();
  readonly #session = new SessionHandleController(this);
  private readonly follower = new TranscriptFollower(this);

  /** The store in use: the `store` property, else the provided one. */
  get currentStore(): SessionStoreLike | undefined {
    return this.#stores.value;
  }

  /** The active turn of the chat, if any. */
  get activeTurn(): ActiveTurn | undefined {
    const active: unknown = this.#chatState.value?.activeTurn;
    return isRecord(active) && typeof active.id === 'string' ? (active as unknown as ActiveTurn) : undefined;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const id of [...this.inFlight.keys()]) this.#forget(id);
  }

  /** What the composer says while it cannot send: a tool call waiting for an answer, or a message sent too early. */
  private renderHint(active: ActiveTurn | undefined) {
    const l = this.#locale;
    if (this.sendError) return html`<p part="composer-hint" class="hint error" role="alert">${this.sendError}</p>`;
    if (this.#session.offlineReason(l) && this.#input?.value.trim()) return html`<p part="composer-hint" class="hint" role="status">${l.t('chat.offline')}</p>`;
    if (!active) return nothing;
    const waiting = waitingCalls(active);
    if (waiting.length) {
      const since = Date.parse(active.startedAt);
      const tool = waiting[0]![1];
      return html`<p part="composer-hint" class="hint" role="status">
        ${Number.isFinite(since) ? l.t('chat.waitingSince', { tool, time: l.time(since) }) : l.t('chat.waiting', { tool })}
        <button type="button" class="link" data-action="show-waiting" @click=${() => this.follower.revealCall(waiting[0]![0], true)}>${l.t('chat.show')}</button>
      </p>`;
    }
    return this.sendBlocked ? html`<p part="composer-hint" class="hint" role="status">${l.t('chat.notSent')}</p>` : nothing;
  }

  protected override render() {
    const state = this.#chatState.value;
    const active = this.activeTurn;
    const l = this.#locale;
    const target = { host: this, store: this.currentStore, chat: this.chat ?? '', l };
    const offline = this.#session.offlineReason(l);
    const canSend = !!state && !!this.chat && !active && !offline;
    const notice = this.#session.notice(l);
    return html`
      ${notice}
      ${state ? keyed(this.chat, this.renderTranscript(state.turns, active)) : notice !== nothing ? nothing : html`<p class="empty" data-empty="loading">${l.t('loading')}</p>`}
      ${state ? renderActivity(state) : nothing}
      ${state ? renderPending(state, target) : nothing}
      <form part="composer" class="composer" @submit=${this.onSubmit}>
        <label class="visually-hidden" for="input">${l.t('chat.inputLabel')}</label>
        <textarea part="input" id="input" name="message" rows="2" placeholder=${l.t('chat.placeholder')} @keydown=${this.onKeyDown} @input=${this.onInput}></textarea>
        <div class="buttons">
          ${active
            ? html`<button type="button" part="stop" data-action="stop" aria-label=${l.t('chat.stopLabel')} @click=${this.#stop}>${l.t('chat.stop')}</button>`
            : nothing}
          <button type="submit" part="send" data-action="send" ?disabled=${!canSend} title=${offline ?? nothing}>${l.t('chat.send')}</button>
        </div>
      </form>
      ${this.renderHint(active)}
    `;
  }

  private renderTranscript(turns: unknown, active: ActiveTurn | undefined) {
    const rows = rowsOf(turns, active);
    return html`<div part="transcript" class="transcript" role="log" aria-live="polite" aria-relevant="additions" aria-label=${this.#locale.t('chat.transcript')} tabindex="0" @scroll=${this.follower.onScroll}>
      ${this.#chatState.value ? renderHistoryNote(this.#chatState.value, this.#locale) : nothing}
      <div class="turns">${rows.length ? repeat(rows, (r) => r.key, (r) => this.renderTurn(r)) : html`<p class="empty" data-empty="empty">${this.#locale.t('chat.empty')}</p>`}</div>
    </div>`;
  }

  private renderTurn({ turn, active }: Row) {
    const message: Rec = isRecord(turn.message) ? turn.message : {};
    const origin = isRecord(message.origin) && typeof message.origin.kind === 'string' ? message.origin.kind : 'user';
    // A turn an MCP App's ui/message started is a 'user' turn on the wire (AHP); show the App as its sender.
    const fromApp = isRecord(message._meta) ? message._meta[APP_MESSAGE_META_KEY] : undefined;
    const appName = isRecord(fromApp) && typeof fromApp.server === 'string' ? fromApp.server : undefined;
    const text = typeof message.text === 'string' ? message.text : '';
    const parts: unknown[] = Array.isArray(turn.responseParts) ? turn.responseParts : [];
    const state = active ? 'active' : typeof (turn as Turn).state === 'string' ? (turn as Turn).state : 'complete';
    const chat = this.chat ?? '';
    const store = this.currentStore;
    const l = this.#locale;
    return html`<article part="turn" class="turn" data-turn-id=${turn.id} data-state=${state} aria-busy=${active ? 'true' : 'false'}>
      <div part="message" class="message" data-origin=${appName ? 'app' : origin}>
        <span class="who">${appName ? l.t('chat.fromApp', { app: appName }) : (ORIGINS as readonly string[]).includes(origin) ? l.t(`chat.origin.${origin as (typeof ORIGINS)[number]}`) : origin}</span>
        <p class="text">${text}</p>
      </div>
      <div class="response">
        ${repeat(parts, partKey, (p) => renderPart(p, chat, store, l, active ? this : undefined))}
        ${active && !parts.length ? html`<p class="muted" data-working>${l.t('chat.working')}</p>` : nothing}
        ${state === 'cancelled' ? html`<p class="turn-state" data-turn-state="cancelled">${l.t('chat.cancelled')}</p>` : nothing}
        ${state === 'error' && !parts.some((p) => isRecord(p) && p.kind === 'error')
          ? html`<p class="turn-state error" data-turn-state="error">${l.t('chat.failed')}</p>`
          : nothing}
        ${!active && this.#chatState.value ? renderResume(this.#chatState.value, turn, { host: this, store, chat, l: this.#locale }) : nothing}
      </div>
    </article>`;
  }

  protected override updated(): void {
    const state = this.#chatState.value;
    const states: string[] = [];
    if (!state) states.push('loading');
    else if (this.activeTurn) states.push('active');
    else if (!rowsOf(state.turns, undefined).length) states.push('empty');
    states.push(...this.#session.states);
    setCustomStates(this.internals, states);
    if (!this.activeTurn) this.sendBlocked = false;
    if (this.focusInputAfterUpdate) {
      this.focusInputAfterUpdate = false;
      // The pressed Send/Stop button may be disabled or gone now; typing goes on in the composer.
      this.#input?.focus();
    }
  }

  get #input(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('textarea');
  }

  private readonly onKeyDown = (e: KeyboardEvent): void => {
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    if (this.activeTurn && this.#input?.value.trim()) {
      // Not sent while a response runs: say so (and where the response waits) instead of doing nothing.
      this.sendBlocked = true;
      this.requestUpdate();
      const waiting = waitingCalls(this.activeTurn)[0];
      if (waiting) void this.follower.revealCall(waiting[0]);
      return;
    }
    this.#send();
  };

  /** The offline hint depends on whether there is text to keep. */
  private readonly onInput = (): void => {
    if (this.#session.connection && this.#session.connection.kind !== 'open') this.requestUpdate();
  };

  private readonly onSubmit = (e: SubmitEvent): void => {
    e.preventDefault();
    this.#send();
  };

  /** Starts a turn with the composer's text (no-op while a turn is active or without text). */
  #send(): void {
    const store = this.currentStore;
    const chat = this.chat;
    const input = this.#input;
    const text = input?.value.trim() ?? '';
    if (!store || !chat || !input || !text || !this.#chatState.value || this.activeTurn) return;
    // Not connected: the text stays in the box (the hint says so) until it can be sent.
    if (this.#session.offlineReason(this.#locale)) {
      this.requestUpdate();
      return;
    }
    const [event, action] = sendIntent(chat, text);
    if (!this.dispatchEvent(event)) return;
    const { turnId } = action;
    // Registered before dispatching: a send that fails at once reports its failure synchronously.
    let failed = false;
    const off = store.onActionFailed((f) => {
      if ((f.action as { turnId?: unknown }).turnId !== turnId || f.action.type !== 'chat/turnStarted') return;
      failed = true;
      this.#forget(turnId);
      this.#restore(text, this.#locale.t('chat.notDelivered', { reason: f.reason }));
    });
    this.inFlight.set(turnId, off);
    // The few latest are enough: an echo or a failure settles a message within seconds.
    if (this.inFlight.size > 16) this.#forget(this.inFlight.keys().next().value as string);
    this.sendError = undefined;
    try {
      store.dispatch(action, chat);
    } catch (err) {
      this.#forget(turnId);
      this.sendError = err instanceof RangeError ? this.#locale.t('chat.tooLarge', { reason: err.message.replace(/^\w+\.dispatch: /, '') }) : String(err);
      this.requestUpdate();
      return;
    }
    if (failed) return; // failed synchronously: the text is back already
    input.value = '';
    this.follower.stick = true;
    this.focusInputAfterUpdate = true;
    this.requestUpdate();
  }

  #forget(turnId: string): void {
    this.inFlight.get(turnId)?.();
    this.inFlight.delete(turnId);
  }

  /** Puts a message the host never got back into the composer (before anything typed since) and says why. */
  #restore(text: string, why: string): void {
    const input = this.#input;
    if (input) input.value = input.value.trim() ? `${text}\n${input.value}` : text;
    this.sendError = why;
    this.requestUpdate();
  }

  readonly #stop = (): void => {
    const store = this.currentStore;
    const chat = this.chat;
    const active = this.activeTurn;
    if (!store || !chat || !active) return;
    if (!runIntent(this, cancelIntent(chat, active), store, chat)) return;
    this.focusInputAfterUpdate = true;
    this.requestUpdate();
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-chat': AhpChat;
  }
}

if (DEV) addDevChecks(AhpChat, (el) => ({ store: () => el.currentStore }));

import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ContextConsumer } from '@lit/context';
import type { AnyAction, ChatAction } from '../../src/protocol/actions.js';
import type { McpAuthRequirement } from '../../src/protocol/customizations.js';
import type { ConfirmationOption } from '../../src/protocol/tool-calls.js';
import type { SessionInputRequest, SessionState } from '../../src/protocol/session.js';
import { listInputNeeded } from '../../src/store/input-selectors.js';
import { selectMcpServer } from '../../src/store/selectors.js';
import type { ActionFailure, SessionStoreLike } from '../../src/store/types.js';
import { storeContext } from '../shared/store-context.js';
import { StoreController } from '../shared/store-controller.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { AhpInputNeededOpenEvent } from '../shared/events.js';
import { renderStringOrMarkdown } from '../shared/markdown.js';
import {
  AhpToolCallApproveEvent,
  AhpToolCallAuthRequestEvent,
  AhpToolCallCancelEvent,
  AhpToolCallDenyEvent,
  AhpToolCallResultConfirmEvent,
} from '../shared/tool-call-events.js';
import type { ToolCallActionDetail } from '../shared/tool-call-events.js';
import { cancelAction, confirmAction, optionsOf, resultAction, targetOf } from './answers.js';
import { inputNeededStyles } from './input-needed.styles.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** What the element renders from the session; each field compared by identity. */
interface View {
  entries: SessionInputRequest[];
  customizations: unknown;
  clients: unknown;
}
const selectView = (state: SessionState | undefined): View | undefined =>
  state && { entries: listInputNeeded(state), customizations: state.customizations, clients: state.activeClients };
const sameView = (a: View | undefined, b: View | undefined): boolean =>
  a === b || (!!a && !!b && a.entries === b.entries && a.customizations === b.customizations && a.clients === b.clients);

/** Badge text per row type. */
const BADGES: Record<string, string> = {
  confirm: 'Needs approval',
  result: 'Review result',
  auth: 'Needs access',
  client: 'Running on a client',
  chatInput: 'Question',
  unknown: 'Needs input',
};

const KNOWN_KINDS = new Set(['toolConfirmation', 'toolAuthentication', 'toolClientExecution', 'chatInput']);

/** Which kind of row an entry gets (malformed tool entries fall back to `unknown`). */
function rowType(entry: SessionInputRequest): string {
  const e = entry as unknown as Rec;
  const tool = isRecord(e.toolCall) ? e.toolCall : undefined;
  switch (e.kind) {
    case 'toolConfirmation':
      if (!targetOf(e)) return 'unknown';
      return tool?.status === 'pending-result-confirmation' ? 'result' : 'confirm';
    case 'toolAuthentication':
      return targetOf(e) ? 'auth' : 'unknown';
    case 'toolClientExecution':
      return tool ? 'client' : 'unknown';
    case 'chatInput':
      return 'chatInput';
    default:
      return 'unknown';
  }
}

/**
 * The session's `inputNeeded` roll-up: one row per entry with the actions that resolve it without
 * opening its chat — approve/deny a tool call (or its options), accept/reject a result, ask for
 * access or cancel a call blocked on authentication, open a chat that asks a question.
 *
 * @summary Everything in the session that waits for the user, with its answers.
 * @tag ahp-input-needed
 * @csspart list - The list of entries.
 * @csspart item - One entry (`data-kind` holds the entry kind, `data-id` its id, `data-chat` its chat).
 * @csspart actions - The buttons of one entry.
 * @csspart empty - The "Nothing needs your input" message (and the loading message).
 * @cssstate loading - No store or no snapshot yet.
 * @cssstate empty - Nothing waits for the user.
 * @cssstate waiting - At least one entry.
 * @fires ahp-tool-call-approve - Before approving a tool call; cancelable.
 * @fires ahp-tool-call-deny - Before denying a tool call; cancelable.
 * @fires ahp-tool-call-result-confirm - Before accepting or rejecting a result; cancelable.
 * @fires ahp-tool-call-cancel - Before cancelling a call blocked on authentication; cancelable.
 * @fires ahp-auth-request - "Grant access" for a call blocked on authentication; cancelable (the auth flow handles it).
 * @fires ahp-input-needed-open - "Open chat" for a chat that asks a question.
 */
export class AhpInputNeeded extends LitElement {
  static override styles = inputNeededStyles;
  static override properties = {
    store: { attribute: false },
  };

  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare store: SessionStoreLike | undefined;

  private readonly internals = tryAttachInternals(this);
  private readonly consumer = new ContextConsumer(this, { context: storeContext, subscribe: true });
  private readonly view = new StoreController(this, {
    getStore: () => this.currentStore,
    select: selectView,
    equals: sameView,
  });
  /** Entries answered here, by id, until the session replaces or removes them or the answer fails. */
  private readonly answered = new Map<string, SessionInputRequest>();
  private failureStore: SessionStoreLike | undefined;
  private unsubscribeFailures: (() => void) | undefined;
  private focusedRow = -1;

  /** The store in use: the `store` property, else the provided one. */
  get currentStore(): SessionStoreLike | undefined {
    return this.store ?? this.consumer.value;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribeFailures?.();
    this.unsubscribeFailures = undefined;
    this.failureStore = undefined;
  }

  protected override willUpdate(_changed: PropertyValues): void {
    const entries = this.view.value?.entries ?? [];
    for (const [id, entry] of this.answered) if (!entries.includes(entry)) this.answered.delete(id);
    const active = this.shadowRoot?.activeElement;
    const rows = [...(this.shadowRoot?.querySelectorAll('[part~="item"]') ?? [])];
    this.focusedRow = active ? rows.findIndex((r) => r.contains(active)) : -1;
  }

  protected override render() {
    const view = this.view.value;
    if (!this.currentStore || !view) return html`<p part="empty" class="empty" data-empty="loading">Loading…</p>`;
    if (!view.entries.length) {
      return html`<p part="empty" class="empty" data-empty="empty" tabindex="-1">Nothing needs your input</p>`;
    }
    return html`<ul part="list" class="list" aria-label="Waiting for your input">
      ${repeat(view.entries, (e) => e.id, (e) => this.renderEntry(e))}
    </ul>`;
  }

  private renderEntry(entry: SessionInputRequest) {
    const type = rowType(entry);
    const e = entry as unknown as Rec;
    const tool: Rec = isRecord(e.toolCall) ? e.toolCall : {};
    const busy = this.answered.has(entry.id);
    const toolRow = type !== 'chatInput' && type !== 'unknown';
    const title = toolRow ? str(tool.displayName) || str(tool.toolName) || 'Tool' : 'Chat';
    const server = toolRow ? this.contributorName(tool.contributor) : '';
    return html`<li part="item" class="item" data-kind=${str(e.kind) || 'unknown'} data-id=${entry.id} data-chat=${str(e.chat)} aria-busy=${busy ? 'true' : 'false'}>
      <div class="head">
        <span class="title">${title}</span>
        ${server ? html`<span class="server">from ${server}</span>` : nothing}
        <span class="badge" data-type=${type}>${type === 'unknown' && !KNOWN_KINDS.has(str(e.kind)) && str(e.kind) ? str(e.kind) : BADGES[type]}</span>
      </div>
      ${this.renderBody(type, e, tool)}
      ${this.renderActions(type, entry, tool, title, busy)}
    </li>`;
  }

  private renderBody(type: string, e: Rec, tool: Rec): TemplateResult | typeof nothing {
    if (type === 'chatInput') {
      const request = isRecord(e.request) ? e.request : {};
      const first = Array.isArray(request.questions) && isRecord(request.questions[0]) ? str(request.questions[0].message) : '';
      return html`<p class="message">${str(request.message) || first || 'The agent asks a question.'}</p>`;
    }
    if (type === 'unknown') return html`<p class="message muted">Open the chat to answer.</p>`;
    return html`<div class="message">${renderStringOrMarkdown(tool.invocationMessage as never)}</div>
      ${type === 'result' ? html`<div class="result">Result: ${renderStringOrMarkdown(tool.pastTenseMessage as never)}</div>` : nothing}
      ${type === 'client' ? html`<p class="muted">Waiting for ${this.clientName(e.clientId)} to run it.</p>` : nothing}`;
  }

  private renderActions(type: string, entry: SessionInputRequest, tool: Rec, title: string, busy: boolean) {
    const t = targetOf(entry);
    const button = (action: string, label: string, run: () => void, option?: ConfirmationOption) =>
      html`<button type="button" data-action=${action} data-option-id=${option?.id ?? nothing} data-kind=${option?.kind ?? nothing} aria-label=${`${label}: ${title}`} aria-disabled=${String(busy)} @click=${() => !this.answered.has(entry.id) && run()}>${label}</button>`;
    /** Fires the cancelable event for `action`, then dispatches it unless cancelled. */
    const answer = (action: ChatAction, make: (d: ToolCallActionDetail) => Event) => () => {
      if (t && this.dispatchEvent(make({ ...t, action }))) this.send(entry, t.chat, action);
    };
    let buttons: TemplateResult[] = [];
    if (t && type === 'confirm') {
      const confirm = (approved: boolean, o?: ConfirmationOption) => {
        const detail = (d: ToolCallActionDetail) => (o ? { ...d, selectedOptionId: o.id } : d);
        return answer(confirmAction(t, approved, o?.id), (d) => (approved ? new AhpToolCallApproveEvent(detail(d)) : new AhpToolCallDenyEvent(detail(d))));
      };
      const options = optionsOf(tool);
      buttons = options.length
        ? options.map((o) => button('option', o.label, confirm(o.kind === 'approve', o), o))
        : [button('approve', 'Approve', confirm(true)), button('deny', 'Deny', confirm(false))];
    } else if (t && type === 'result') {
      const result = (approved: boolean) => answer(resultAction(t, approved), (d) => new AhpToolCallResultConfirmEvent({ ...d, approved }));
      buttons = [button('accept', 'Accept', result(true)), button('reject', 'Reject', result(false))];
    } else if (t && type === 'auth') {
      const contributor = isRecord(tool.contributor) ? tool.contributor : {};
      // The auth flow is another element's job; an unhandled request changes nothing here.
      const grant = () =>
        this.dispatchEvent(
          new AhpToolCallAuthRequestEvent({ kind: 'toolCall', ...t, customizationId: str(contributor.customizationId), auth: tool.auth as McpAuthRequirement }),
        );
      buttons = [button('grant', 'Grant access', grant), button('cancel', 'Cancel', answer(cancelAction(t), (d) => new AhpToolCallCancelEvent(d)))];
    } else if ((type === 'chatInput' || type === 'unknown') && typeof entry.chat === 'string') {
      buttons = [button('open', 'Open chat', () => this.dispatchEvent(new AhpInputNeededOpenEvent({ chat: entry.chat, id: entry.id })))];
    }
    if (!buttons.length) return nothing;
    return html`<div part="actions" class="actions">${buttons}${busy ? html`<span class="muted">Sending…</span>` : nothing}</div>`;
  }

  /** Dispatches on the entry's chat (watched or not) and marks the entry answered until the session moves on. */
  private send(entry: SessionInputRequest, chat: string, action: ChatAction): void {
    this.currentStore?.dispatch(action as unknown as AnyAction, chat);
    this.answered.set(entry.id, entry);
    this.requestUpdate();
  }

  private readonly onActionFailed = (failure: ActionFailure): void => {
    const id = (failure.action as { toolCallId?: unknown }).toolCallId;
    for (const [key, entry] of this.answered) {
      const t = targetOf(entry);
      if (t && t.chat === failure.channel && t.toolCallId === id) this.answered.delete(key);
    }
    this.requestUpdate();
  };

  protected override updated(): void {
    const store = this.currentStore;
    if (store !== this.failureStore) {
      this.unsubscribeFailures?.();
      this.failureStore = store;
      this.unsubscribeFailures = store?.onActionFailed(this.onActionFailed);
    }
    const view = this.view.value;
    setCustomStates(this.internals, [!view ? 'loading' : view.entries.length ? 'waiting' : 'empty']);
    // An answered row that disappears takes focus with it: move on to the row now in its place.
    if (this.focusedRow >= 0 && !this.shadowRoot?.activeElement) {
      const rows = [...(this.shadowRoot?.querySelectorAll<HTMLElement>('[part~="item"]') ?? [])];
      const row = rows[Math.min(this.focusedRow, rows.length - 1)];
      (row?.querySelector<HTMLElement>('button') ?? this.shadowRoot?.querySelector<HTMLElement>('[data-empty]'))?.focus();
    }
  }

  private contributorName(contributor: unknown): string {
    if (!isRecord(contributor)) return '';
    if (contributor.kind === 'mcp') {
      const id = str(contributor.customizationId);
      const server = selectMcpServer(this.currentStore?.getState(), id)?.server;
      return (typeof server?.name === 'string' && server.name) || id;
    }
    if (contributor.kind === 'client') return this.clientName(contributor.clientId);
    return '';
  }

  private clientName(clientId: unknown): string {
    const id = str(clientId);
    const clients = this.view.value?.clients;
    const client = Array.isArray(clients) ? clients.find((c: unknown) => isRecord(c) && c.clientId === id) : undefined;
    return str((client as Rec | undefined)?.displayName) || id || 'another client';
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-input-needed': AhpInputNeeded;
  }
}

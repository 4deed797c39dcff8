import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { InteractionTracker, decisionFor, type AppIntentKind, type AppIntentPolicy } from './intent-gate.js';
import type { McpAppStrings } from './strings.js';

type Host = ReactiveControllerHost & HTMLElement & { readonly renderRoot: HTMLElement | DocumentFragment };

interface Pending {
  kind: AppIntentKind;
  text: string;
  answer: (ok: boolean) => void;
}

/**
 * Decides whether a View's side effect may happen and owns the host-owned prompt that asks the user: `deny` never,
 * `allow` always; `ask` directly right after the user interacted with this App's frame (each interaction pays for one
 * of each kind), else only when the user says so. One prompt at a time: requests while one is open are refused.
 */
export class IntentPromptController implements ReactiveController {
  declare private readonly host: Host;
  private readonly interaction = new InteractionTracker();
  declare private pending: Pending | undefined;
  declare private readonly policy: () => AppIntentPolicy;
  declare private readonly canAsk: () => boolean;
  /** Where focus goes when the prompt closes while it had focus (the App's frame). */
  declare private readonly focusAfter: () => void;

  /** `canAsk` false refuses instead of asking (no App running to ask for). */
  constructor(host: Host, policy: () => AppIntentPolicy, canAsk: () => boolean, focusAfter: () => void) {
    this.host = host;
    this.policy = policy;
    this.canAsk = canAsk;
    this.focusAfter = focusAfter;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.answer(false);
  }

  /** Counts the user's interactions with `frame`; returns the stop function. */
  watch(frame: HTMLIFrameElement): () => void {
    return this.interaction.watch(frame);
  }

  /** Whether `kind` may happen now (a promise when the user is asked). */
  gate(kind: AppIntentKind, text: string): boolean | Promise<boolean> {
    const decision = decisionFor(this.policy(), kind);
    if (decision !== 'ask') return decision === 'allow';
    if (this.interaction.fresh(kind)) {
      this.interaction.spend(kind);
      return true;
    }
    if (this.pending || !this.canAsk()) return false;
    return new Promise<boolean>((answer) => {
      this.pending = { kind, text: text.length > 300 ? `${text.slice(0, 300)}…` : text, answer };
      this.host.requestUpdate();
    });
  }

  /** Closes the prompt with the user's answer (false refuses). */
  answer(ok: boolean): void {
    const p = this.pending;
    if (!p) return;
    // The prompt's buttons go away with it: focus returns to the App rather than falling to the page.
    const hadFocus = !!(this.host.renderRoot as ShadowRoot).activeElement?.closest('[part~="prompt"]');
    this.pending = undefined;
    this.host.requestUpdate();
    p.answer(ok);
    if (hadFocus) void this.host.updateComplete.then(() => this.focusAfter());
  }

  render(t: McpAppStrings, server: string) {
    const p = this.pending;
    if (!p) return nothing;
    return html`<div part="prompt" class="prompt" role="group" aria-label=${t.t('app.promptLabel', { server })}>
      <p class="prompt-text" role="alert">${promptText(t, p.kind, server, p.text)}</p>
      <button type="button" part="prompt-confirm" @click=${() => this.answer(true)}>${t.t(`app.confirm.${p.kind}`)}</button>
      <button type="button" part="prompt-dismiss" @click=${() => this.answer(false)}>${t.t('app.dismiss')}</button>
    </div>`;
  }
}

function promptText(t: McpAppStrings, kind: AppIntentKind, server: string, text: string): string {
  switch (kind) {
    case 'message':
      return t.t('app.promptMessage', { server, text });
    case 'openLink':
      return t.t('app.promptOpenLink', { server, url: text });
    case 'download':
      return t.t('app.promptDownload', { server, names: text });
    default:
      return t.t(text === 'pip' ? 'app.promptPip' : 'app.promptFullscreen', { server });
  }
}

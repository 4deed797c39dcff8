import { html, nothing, type TemplateResult } from 'lit';
import type { SessionSummary } from '../../src/protocol/root.js';
import { discoverSessions, type RootCatalog } from '../../src/discovery/root-catalog.js';
import type { LocaleController } from '../shared/i18n.js';
import { errorText } from '../../src/protocol/guards.js';


/**
 * Finds the session `<ahp-session url>` opens when it has no `session` attribute: the host's default (or only)
 * session from its root channel and `listSessions`; with several and no default, the user picks one.
 */
export class SessionDiscovery {
  #url: string | undefined;
  #status: 'pending' | 'choice' | 'none' | 'error' | 'done' = 'pending';
  #sessions: SessionSummary[] = [];
  #error = '';
  declare private chosen: string | undefined;
  #run = 0;

  /** `changed` runs when the answer (or the choice) is in; the element then connects or renders the choice. */
  constructor(private readonly changed: () => void) {}

  /** The session to open for `url`: known once discovery is done (or the user chose); starts discovery otherwise. */
  sessionFor(url: string): string | undefined {
    if (url !== this.#url) this.#start(url);
    return this.#status === 'done' ? this.chosen : undefined;
  }

  /** Forgets the last discovery (a `session` attribute took over, or the element left the page). */
  reset(): void {
    this.#url = undefined;
    this.#run++;
  }

  #start(url: string): void {
    this.#url = url;
    this.#status = 'pending';
    this.chosen = undefined;
    const run = ++this.#run;
    discoverSessions({ url }).then(
      (catalog: RootCatalog) => {
        if (run !== this.#run) return;
        this.#sessions = catalog.sessions;
        this.chosen = catalog.defaultSession;
        this.#status = this.chosen ? 'done' : catalog.sessions.length ? 'choice' : 'none';
        this.changed();
      },
      (e: unknown) => {
        if (run !== this.#run) return;
        this.#status = 'error';
        this.#error = errorText(e);
        this.changed();
      },
    );
  }

  /** Asks the host again after a failed listing. */
  private retry(): void {
    if (this.#url === undefined) return;
    this.#start(this.#url);
    this.changed();
  }

  #choose(uri: string): void {
    this.chosen = uri;
    this.#status = 'done';
    this.changed();
  }

  /** The choice (several sessions, no default), or why there is nothing to open; nothing otherwise. */
  render(l: LocaleController): TemplateResult | typeof nothing {
    if (this.#url === undefined) return nothing;
    switch (this.#status) {
      case 'choice':
        return html`<div part="sessions" role="group" aria-label=${l.t('session.choose')}>
          <p class="choose">${l.t('session.choose')}</p>
          ${this.#sessions.map(
            (s) => html`<button type="button" data-session=${s.resource} @click=${() => this.#choose(s.resource)}>${s.title || s.resource}</button>`,
          )}
        </div>`;
      case 'none':
        return html`<p part="sessions" class="note" data-sessions="none">${l.t('session.none')}</p>`;
      case 'error':
        return html`<p part="sessions" class="note" data-sessions="error" role="alert">${l.t('session.discoveryFailed', { error: this.#error })}
          <button type="button" data-action="retry" @click=${() => this.retry()}>${l.t('session.retry')}</button></p>`;
      default:
        return nothing;
    }
  }
}

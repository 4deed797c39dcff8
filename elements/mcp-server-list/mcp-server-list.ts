import { LitElement, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { isObjectOrArray } from '../../src/protocol/guards.js';
import type { SessionState } from '../../src/protocol/session.js';
import { listMcpServers } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { DEV, addDevChecks } from '../shared/dev-warnings.js';
import { StoreConsumer } from '../shared/store-consumer.js';
import { StoreController } from '../shared/store-controller.js';
import { mcpServerListStyles } from './mcp-server-list.styles.js';
import { segmentsOf, windowOf } from './segments.js';
import { afterPaint } from './after-paint.js';
import { idsOfBlock, namesBlock } from './names-block.js';
import { LocaleController, addEnglish } from '../shared/i18n.js';
import { SessionHandleController } from '../shared/session-handle-controller.js';
import { connectionStyles } from '../shared/connection-notice.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { MCP_SERVER_LIST_EN } from '../locales/en/mcp-server-list.js';

addEnglish(MCP_SERVER_LIST_EN);

/** One heading and the servers under it. */
interface Group {
  /** `top-level`, or the container's id. */
  key: string;
  /** Container name; undefined for the top-level group (which uses `topLevelLabel`). */
  name: string | undefined;
  ids: string[];
  /** Server names, by position in `ids` (shown until a server's own element is rendered). */
  names: string[];
}

/** Servers rendered as full `<ahp-mcp-server>` elements straight away; the rest wait until they come near the viewport. */
export const EAGER_SERVERS = 24;
/** Blocks of names filled in the render that creates them (the ones right after the eager servers); later blocks are filled after the paint. */
export const NAMES_BLOCKS_AT_ONCE = 2;

/** Groups the session's MCP servers: top-level ones first, then one group per container, in order. */
function groupServers(state: SessionState | undefined): Group[] | undefined {
  if (!state) return undefined;
  const top: Group = { key: 'top-level', name: undefined, ids: [], names: [] };
  const byContainer = new Map<string, Group>();
  for (const { server, container } of listMcpServers(state)) {
    // A host's entry without a string id cannot be addressed (nor escaped as text): it is left out, not a crash.
    if (typeof server.id !== 'string') continue;
    const name = typeof server.name === 'string' && server.name ? server.name : server.id;
    if (!container) {
      top.ids.push(server.id);
      top.names.push(name);
      continue;
    }
    let group = byContainer.get(container.id);
    if (!group) {
      group = { key: container.id, name: container.name || container.id, ids: [], names: [] };
      byContainer.set(container.id, group);
    }
    group.ids.push(server.id);
    group.names.push(name);
  }
  return [...(top.ids.length ? [top] : []), ...byContainer.values()];
}

/** An `<ahp-mcp-server>` as far as the list needs it. */
type AhpMcpServerLike = HTMLElement & { updateComplete?: Promise<unknown> };

/** Same ids, types and names in the same places (top level and children): the groups cannot have changed. */
function sameLayout(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x: unknown = a[i];
    const y: unknown = b[i];
    if (x === y) continue;
    if (!isObjectOrArray(x) || !isObjectOrArray(y) || x.id !== y.id || x.type !== y.type || x.name !== y.name) return false;
    if (x.children !== y.children && !sameLayout(x.children, y.children)) return false;
  }
  return true;
}

const sameGroups = (a: Group[] | undefined, b: Group[] | undefined): boolean =>
  a === b ||
  (!!a && !!b && a.length === b.length &&
    a.every((g, i) => {
      const h = b[i];
      return !!h && g.key === h.key && g.name === h.name && g.ids.length === h.ids.length &&
        g.ids.every((id, j) => id === h.ids[j] && g.names[j] === h.names[j]);
    }));

/**
 * Every MCP server of the session, top-level ones and those inside containers, grouped by container.
 * Re-renders only when servers or groups are added, removed or renamed; each `<ahp-mcp-server>`
 * follows its own server. Long lists render the first servers at once and the others as their names
 * (found by find-in-page, reachable with Tab) until they scroll near the viewport or take focus; the names
 * far down the list come into the page in the tasks after the first paint.
 *
 * @summary Lists the session's MCP servers grouped by container.
 * @tag ahp-mcp-server-list
 * @csspart group - One group (`data-group` holds `top-level` or the container id).
 * @csspart heading - A group heading.
 * @csspart icon, name, status, actions, error - Exported from each `<ahp-mcp-server>`.
 * @csspart connection - The one connection banner shown while not connected (the servers' controls are disabled).
 * @cssstate connecting, reconnecting, closed, disconnected - The connection is not open (`disconnected`: reconnecting or closed).
 */
export class AhpMcpServerList extends LitElement {
  static override styles = [mcpServerListStyles, connectionStyles];
  static override properties = {
    store: { attribute: false },
    topLevelLabel: { attribute: 'top-level-label' },
    headingLevel: { attribute: 'heading-level', type: Number },
  };

  /** Store to read; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare store: SessionStoreLike | undefined;
  /** Heading of the group of top-level servers (default: "Session" in the element's language). */
  declare topLevelLabel: string | undefined;
  /** ARIA level of the group headings (default 3). */
  declare headingLevel: number;

  readonly #stores = new StoreConsumer(this, () => this.store);
  readonly #locale = new LocaleController(this);
  readonly #session = new SessionHandleController(this);
  private readonly internals = tryAttachInternals(this);
  private readonly groups = new StoreController(this, {
    getStore: () => this.currentStore,
    select: (state) => this.groupsOf(state),
    equals: sameGroups,
  });
  /** Ids rendered as full elements beyond the eager ones (they stay rendered). */
  readonly #shown = new Set<string>();
  #observer: IntersectionObserver | undefined;
  readonly #observed = new WeakSet<Element>();
  declare private lastList: unknown;
  declare private lastGroups: Group[] | undefined;
  /** The first render of a session's servers: only what the first paint needs; the rest one render later. */
  declare private windowed?: boolean;
  declare private widening?: boolean;
  declare private hadGroups?: boolean;

  constructor() {
    super();
    this.headingLevel = 3;
  }

  /** The store in use: the `store` property, else the provided one. */
  get currentStore(): SessionStoreLike | undefined {
    return this.#stores.value;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (typeof IntersectionObserver === 'function') this.#observer = new IntersectionObserver(this.onIntersect, { rootMargin: '50% 0px' });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#observer?.disconnect();
    this.#observer = undefined;
  }

  /** Groups of a state; the previous ones when only servers' states changed (a cheap pass over the list instead of regrouping). */
  private groupsOf(state: SessionState | undefined): Group[] | undefined {
    const list = state?.customizations;
    if (this.lastGroups && list !== undefined && sameLayout(this.lastList, list)) {
      this.lastList = list;
      return this.lastGroups;
    }
    this.lastList = list;
    return (this.lastGroups = groupServers(state));
  }

  protected override updated(): void {
    setCustomStates(this.internals, this.#session.states);
    if (this.windowed && !this.widening) {
      this.widening = true;
      afterPaint(() => {
        this.widening = this.windowed = false;
        this.requestUpdate();
      });
    }
    const observer = this.#observer;
    if (!observer) return;
    for (const li of this.shadowRoot!.querySelectorAll('li[data-deferred]')) {
      if (this.#observed.has(li)) continue;
      this.#observed.add(li);
      observer.observe(li);
    }
  }

  /** A block of names came near the viewport: render its servers as elements. */
  private readonly onIntersect = (entries: IntersectionObserverEntry[]): void => {
    let added = false;
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      this.#observer?.unobserve(e.target);
      for (const id of idsOfBlock(e.target)) {
        if (this.#shown.has(id)) continue;
        this.#shown.add(id);
        added = true;
      }
    }
    if (added) this.requestUpdate();
  };

  /**
   * Tab (or a click) reached a server not rendered yet: render its block and move focus to the server's first
   * control. The whole block, so the names after it stay in place for the next Tab.
   */
  private readonly onDeferredFocus = async (e: FocusEvent): Promise<void> => {
    const id = (e.target as HTMLElement).dataset?.serverId;
    if (id === undefined) return;
    for (const other of idsOfBlock(e.currentTarget as Element)) this.#shown.add(other);
    this.#shown.add(id);
    this.requestUpdate();
    await this.updateComplete;
    const el = [...this.shadowRoot!.querySelectorAll<AhpMcpServerLike>('ahp-mcp-server')].find((s) => s.getAttribute('server-id') === id);
    await el?.updateComplete;
    el?.shadowRoot?.querySelector<HTMLElement>('button')?.focus();
  };

  protected override render() {
    const groups = this.groups.value;
    const l = this.#locale;
    const notice = this.#session.notice(l);
    if (!groups?.length) this.hadGroups = false;
    if (!groups) return notice !== nothing ? notice : html`<p class="empty" data-empty="loading">${l.t('loading')}</p>`;
    if (!groups.length) return html`${notice}<p class="empty" data-empty="none">${l.t('list.empty')}</p>`;
    const store = this.currentStore;
    const level = Number.isInteger(this.headingLevel) && this.headingLevel >= 1 ? this.headingLevel : 3;
    // Servers arriving in an empty list: the first paint gets the eager servers and the first blocks of names.
    if (!this.hadGroups) this.windowed = true;
    this.hadGroups = true;
    let position = 0;
    let blocks = 0;
    let windowBlocks = NAMES_BLOCKS_AT_ONCE;
    const full = (id: string): boolean => position++ < EAGER_SERVERS || !this.#observer || this.#shown.has(id);
    let cut = false;
    const segments = (g: Group) => {
      const all = segmentsOf(g.ids, g.names, full);
      if (!this.windowed) return all;
      const { kept, blocks } = windowOf(all, windowBlocks, g.key);
      windowBlocks -= blocks;
      cut ||= kept.at(-1)?.kind === 'tail';
      return kept;
    };
    const bySegments = groups.map(segments);
    // Nothing left out: no second render.
    this.windowed &&= cut;
    return html`${notice}${repeat(
      groups,
      (g) => g.key,
      (g, i) => html`
        <section part="group" class="group" data-group=${g.key} aria-labelledby=${`heading-${i}`}>
          <div part="heading" class="heading" id=${`heading-${i}`} role="heading" aria-level=${level}>
            ${g.name ?? this.topLevelLabel ?? l.t('list.session')}
          </div>
          <ul role="list">
            ${repeat(
              bySegments[i]!,
              (s) => (s.kind === 'server' ? s.id : s.key),
              (s) => s.kind === 'server'
                ? html`<li>
                    <ahp-mcp-server server-id=${s.id} .store=${store} .connectionNotice=${false} exportparts="icon, name, status, actions, error"></ahp-mcp-server>
                  </li>`
                : s.kind === 'tail'
                ? html`<li role="none" class="names" data-pending data-tail style=${`--names: ${s.count}`}></li>`
                : html`<li role="none" class="names" data-deferred @focusin=${this.onDeferredFocus} ${namesBlock(s.ids, s.names, blocks++ < NAMES_BLOCKS_AT_ONCE)}></li>`,
            )}
          </ul>
        </section>
      `,
    )}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-mcp-server-list': AhpMcpServerList;
  }
}

if (DEV) addDevChecks(AhpMcpServerList, (el) => ({ store: () => el.currentStore }));

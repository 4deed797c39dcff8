import { LitElement, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ContextConsumer } from '@lit/context';
import type { SessionState } from '../../src/protocol/session.js';
import { listMcpServers } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { DEV, addDevChecks } from '../shared/dev-warnings.js';
import { storeContext } from '../shared/store-context.js';
import { StoreController } from '../shared/store-controller.js';
import { mcpServerListStyles } from './mcp-server-list.styles.js';
import { LocaleController } from '../shared/i18n.js';
import { SessionHandleController } from '../shared/session-handle-controller.js';
import { connectionNotice, connectionStates, connectionStyles } from '../shared/connection-notice.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';

/** One heading and the ids of the servers under it. */
interface Group {
  /** `top-level`, or the container's id. */
  key: string;
  /** Container name; undefined for the top-level group (which uses `topLevelLabel`). */
  name: string | undefined;
  ids: string[];
}

/** Groups the session's MCP servers: top-level ones first, then one group per container, in order. */
function groupServers(state: SessionState | undefined): Group[] | undefined {
  if (!state) return undefined;
  const top: Group = { key: 'top-level', name: undefined, ids: [] };
  const byContainer = new Map<string, Group>();
  for (const { server, container } of listMcpServers(state)) {
    if (!container) {
      top.ids.push(server.id);
      continue;
    }
    let group = byContainer.get(container.id);
    if (!group) {
      group = { key: container.id, name: container.name || container.id, ids: [] };
      byContainer.set(container.id, group);
    }
    group.ids.push(server.id);
  }
  return [...(top.ids.length ? [top] : []), ...byContainer.values()];
}

const sameGroups = (a: Group[] | undefined, b: Group[] | undefined): boolean =>
  a === b ||
  (!!a && !!b && a.length === b.length &&
    a.every((g, i) => {
      const h = b[i];
      return !!h && g.key === h.key && g.name === h.name && g.ids.length === h.ids.length && g.ids.every((id, j) => id === h.ids[j]);
    }));

/**
 * Every MCP server of the session, top-level ones and those inside containers, grouped by container.
 * Re-renders only when servers or groups are added, removed or renamed; each `<ahp-mcp-server>`
 * follows its own server.
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

  private readonly consumer = new ContextConsumer(this, { context: storeContext, subscribe: true });
  private readonly locale = new LocaleController(this);
  private readonly session = new SessionHandleController(this);
  private readonly internals = tryAttachInternals(this);
  private readonly groups = new StoreController(this, {
    getStore: () => this.currentStore,
    select: groupServers,
    equals: sameGroups,
  });

  constructor() {
    super();
    this.headingLevel = 3;
  }

  /** The store in use: the `store` property, else the provided one. */
  get currentStore(): SessionStoreLike | undefined {
    return this.store ?? this.consumer.value;
  }

  protected override render() {
    const groups = this.groups.value;
    const l = this.locale;
    const notice = connectionNotice(this.session.connection, this.session.handle, l);
    if (!groups) return notice !== nothing ? notice : html`<p class="empty" data-empty="loading">${l.t('loading')}</p>`;
    if (!groups.length) return html`${notice}<p class="empty" data-empty="none">${l.t('list.empty')}</p>`;
    const store = this.currentStore;
    const level = Number.isInteger(this.headingLevel) && this.headingLevel >= 1 ? this.headingLevel : 3;
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
              g.ids,
              (id) => id,
              (id) => html`<li>
                <ahp-mcp-server server-id=${id} .store=${store} .connectionNotice=${false} exportparts="icon, name, status, actions, error"></ahp-mcp-server>
              </li>`,
            )}
          </ul>
        </section>
      `,
    )}`;
  }

  protected override updated(): void {
    setCustomStates(this.internals, connectionStates(this.session.connection));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-mcp-server-list': AhpMcpServerList;
  }
}

if (DEV) addDevChecks(AhpMcpServerList, (el) => ({ store: () => el.currentStore }));

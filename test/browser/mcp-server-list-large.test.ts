import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/mcp-server-list/define.js';
import { EAGER_SERVERS, type AhpMcpServerList } from '../../elements/mcp-server-list/mcp-server-list.js';
import { AhpMcpServer } from '../../elements/mcp-server/mcp-server.js';
import type { McpServerCustomization, McpServerState } from '../../src/protocol/customizations.js';
import type { SessionState } from '../../src/protocol/session.js';
import { SessionStore } from '../../src/store/index.js';
import { STATES, mcpServer, plugin, session } from './fixtures/sessions.js';

const SESSION = 'ahp-session:/large';

/** `count` top-level servers and `nested` more inside one plugin. */
function bigSession(count: number, nested = 0): SessionState {
  const top = Array.from({ length: count }, (_, i) => mcpServer(`s${i}`, STATES.ready!));
  const children = Array.from({ length: nested }, (_, i) => mcpServer(`c${i}`, STATES.ready!));
  return session(nested ? [...top, plugin('p', 'Plugin P', children)] : top);
}

function realStore(state: SessionState) {
  let seq = 1;
  const store = new SessionStore({ channel: SESSION, clientId: 'me', send: () => {}, nextClientSeq: () => 1 });
  store.loadSnapshot({ resource: SESSION, state, fromSeq: 1 });
  const change = (id: string, state: McpServerState) =>
    store.receive({ channel: SESSION, serverSeq: ++seq, action: { type: 'session/mcpServerStateChanged', id, state } });
  return { store, change };
}

/** Counts `<ahp-mcp-server>` renders (Lit `update` calls) by server id. */
function countUpdates() {
  const counts = new Map<string, number>();
  const proto = AhpMcpServer.prototype as unknown as { update(changed: unknown): void };
  const original = proto.update;
  proto.update = function (this: AhpMcpServer, changed: unknown) {
    counts.set(this.serverId ?? '', (counts.get(this.serverId ?? '') ?? 0) + 1);
    original.call(this, changed);
  };
  return { counts, total: () => [...counts.values()].reduce((a, b) => a + b, 0), restore: () => void (proto.update = original) };
}

/** Resolves once `ready()` holds, checked every frame. */
const until = (ready: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (ready() ? resolve() : requestAnimationFrame(check));
    check();
  });
const settle = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
const servers = (el: AhpMcpServerList) => [...el.shadowRoot!.querySelectorAll<AhpMcpServer>('ahp-mcp-server')];
const deferred = (el: AhpMcpServerList) => [...el.shadowRoot!.querySelectorAll<HTMLElement>("[data-deferred] [data-server-id]")];

describe('<ahp-mcp-server-list> with many servers', () => {
  it('renders the first servers at once and the others as their names until they come into view', async () => {
    const { store } = realStore(bigSession(300));
    const el = await fixture<AhpMcpServerList>(html`<div style="height: 300px; overflow: auto"><ahp-mcp-server-list .store=${store}></ahp-mcp-server-list></div>`).then(
      (wrap) => wrap.querySelector('ahp-mcp-server-list')! as AhpMcpServerList,
    );
    await settle();
    expect(servers(el).length).to.be.at.least(EAGER_SERVERS).and.below(300);
    const last = deferred(el).at(-1)!;
    expect(last.textContent).to.equal('Server s299');
    // Scrolling it into view renders it as a server element.
    last.scrollIntoView();
    await new Promise<void>((resolve) => {
      const check = () => (servers(el).some((s) => s.serverId === 's299') ? resolve() : requestAnimationFrame(check));
      check();
    });
    expect(deferred(el).some((li) => li.dataset.serverId === 's299')).to.be.false;
  });

  it('Tab onto a name renders that server and moves focus to its first control', async () => {
    const { store } = realStore(bigSession(120));
    const wrap = await fixture<HTMLElement>(html`<div style="height: 200px; overflow: auto"><ahp-mcp-server-list .store=${store}></ahp-mcp-server-list></div>`);
    const el = wrap.querySelector('ahp-mcp-server-list') as AhpMcpServerList;
    await settle();
    const target = deferred(el).at(-1)!;
    const id = target.dataset.serverId!;
    target.focus();
    await new Promise<void>((resolve) => {
      const check = () => {
        const s = servers(el).find((x) => x.serverId === id);
        return s?.shadowRoot?.activeElement ? resolve() : requestAnimationFrame(check);
      };
      check();
    });
    const s = servers(el).find((x) => x.serverId === id)!;
    expect(s.shadowRoot!.activeElement!.getAttribute('data-action')).to.equal('toggle');
  });

  it('one server change re-renders exactly that server, top-level or inside a container', async () => {
    const { store, change } = realStore(bigSession(30, 30));
    const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
    // c3 is past the eagerly rendered servers: bring it into view so it is an element too.
    deferred(el).find((d) => d.dataset.serverId === 'c3')?.scrollIntoView();
    await until(() => servers(el).some((s) => s.serverId === 'c3'));
    await Promise.all(servers(el).map((s) => s.updateComplete));
    let listUpdates = 0;
    const original = el.requestUpdate.bind(el);
    el.requestUpdate = (...args: Parameters<typeof original>) => {
      listUpdates++;
      original(...args);
    };
    const counter = countUpdates();
    try {
      change('s7', STATES.stopped!);
      await settle();
      expect([...counter.counts]).to.deep.equal([['s7', 1]]);
      counter.counts.clear();
      change('c3', STATES.error!);
      await settle();
      expect([...counter.counts]).to.deep.equal([['c3', 1]]);
      expect(listUpdates).to.equal(0);
      const c3 = servers(el).find((s) => s.serverId === 'c3')!;
      expect(c3.shadowRoot!.querySelector<HTMLElement>('[part="status"]')!.dataset.kind).to.equal('error');
    } finally {
      counter.restore();
    }
  });

  it('a child still follows its container: disabling the plugin re-renders its children only', async () => {
    const { store } = realStore(bigSession(5, 3));
    const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
    await settle();
    const counter = countUpdates();
    try {
      store.receive({ channel: SESSION, serverSeq: 100, action: { type: 'session/customizationToggled', id: 'p', enabled: false } });
      await settle();
      expect([...counter.counts.keys()].sort()).to.deep.equal(['c0', 'c1', 'c2']);
      const c0 = servers(el).find((s) => s.serverId === 'c0')!;
      expect(c0.shadowRoot!.querySelector('[data-disabled]')!.textContent).to.contain('Plugin P');
    } finally {
      counter.restore();
    }
  });

  it('a server element follows its server through subscribeMcpServer, not the whole session', async () => {
    const { store, change } = realStore(bigSession(3));
    let sessionListeners = 0;
    const subscribe = store.subscribe.bind(store);
    store.subscribe = (l) => {
      sessionListeners++;
      return subscribe(l);
    };
    let serverListeners = 0;
    const subscribeMcpServer = store.subscribeMcpServer.bind(store);
    store.subscribeMcpServer = (id, l) => {
      serverListeners++;
      return subscribeMcpServer(id, l);
    };
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="s1" .store=${store}></ahp-mcp-server>`);
    expect(serverListeners).to.equal(1);
    // The only whole-session listener is the development-build check for an unknown server-id (gone from production builds).
    expect(sessionListeners).to.be.at.most(1);
    change('s1', STATES.error!);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector<HTMLElement>('[part="status"]')!.dataset.kind).to.equal('error');
    const server = store.getState()!.customizations!.find((c) => c.id === 's1') as McpServerCustomization;
    expect(server.state.kind).to.equal('error');
  });
});

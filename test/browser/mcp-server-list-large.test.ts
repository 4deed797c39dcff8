import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../elements/mcp-server-list/define.js';
import { EAGER_SERVERS, NAMES_BLOCKS_AT_ONCE, type AhpMcpServerList } from '../../elements/mcp-server-list/mcp-server-list.js';
import { BLOCK_SIZE } from '../../elements/mcp-server-list/segments.js';
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
/** Blocks still waiting for their names (filled after the first paint). */
const pendingBlocks = (el: AhpMcpServerList) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-deferred][data-pending]')];
/** The stretch standing in for a group's servers past the first paint's window. */
const tails = (el: AhpMcpServerList) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-tail]')];
/** Every name is in the page: no tail, no block waiting. */
const namesFilled = (el: AhpMcpServerList) => until(() => !el.shadowRoot!.querySelector('[data-pending]'));
/** Resolves with the first blocks waiting for their names as soon as the list renders them (the render after the first paint; filling waits for the paint after that). */
const firstPendingBlocks = (el: AhpMcpServerList) =>
  new Promise<HTMLElement[]>((resolve) => {
    const observer = new MutationObserver(() => {
      const blocks = pendingBlocks(el);
      if (!blocks.length) return;
      observer.disconnect();
      resolve(blocks);
    });
    observer.observe(el.shadowRoot!, { childList: true, subtree: true });
  });
/** The server whose element or name holds the focus. */
const focusedServer = (el: AhpMcpServerList): string | undefined => {
  const active = el.shadowRoot!.activeElement as HTMLElement | null;
  return active?.getAttribute('server-id') ?? active?.dataset.serverId;
};

describe('<ahp-mcp-server-list> with many servers', () => {
  it('renders the first servers at once and the others as their names until they come into view', async () => {
    const { store } = realStore(bigSession(300));
    const el = await fixture<AhpMcpServerList>(html`<div style="height: 300px; overflow: auto"><ahp-mcp-server-list .store=${store}></ahp-mcp-server-list></div>`).then(
      (wrap) => wrap.querySelector('ahp-mcp-server-list')! as AhpMcpServerList,
    );
    await settle();
    await namesFilled(el);
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
    await namesFilled(el);
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
    await namesFilled(el);
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
  it('paints the eager servers and the first blocks of names first, and puts every other name in the page after that paint', async () => {
    const total = 2000;
    const { store } = realStore(bigSession(total));
    const wrap = await fixture<HTMLElement>(html`<div style="height: 400px; overflow: auto"></div>`);
    const el = document.createElement('ahp-mcp-server-list') as AhpMcpServerList;
    el.store = store;
    wrap.append(el);
    await el.updateComplete;
    // First render: the eager servers, the first blocks of names (filled), one empty tail for the rest.
    expect(servers(el).length).to.equal(EAGER_SERVERS);
    expect(el.shadowRoot!.querySelectorAll('[data-deferred]').length).to.equal(NAMES_BLOCKS_AT_ONCE);
    expect(deferred(el).length).to.equal(NAMES_BLOCKS_AT_ONCE * BLOCK_SIZE);
    expect(tails(el).map((t) => t.style.getPropertyValue('--names'))).to.deep.equal([String(total - EAGER_SERVERS - NAMES_BLOCKS_AT_ONCE * BLOCK_SIZE)]);
    const firstHeight = el.getBoundingClientRect().height;
    await namesFilled(el);
    expect(tails(el)).to.have.length(0);
    expect(el.shadowRoot!.querySelectorAll('[data-deferred]').length).to.equal(Math.ceil((total - EAGER_SERVERS) / BLOCK_SIZE));
    const names = deferred(el);
    const elementIds = new Set(servers(el).map((s) => s.serverId));
    // Every server is in the page once, as its element or as a focusable name with its text (what find-in-page searches).
    expect(names.length + elementIds.size).to.equal(total);
    const ids = new Set(names.map((n) => n.dataset.serverId));
    for (let i = 0; i < total; i++) expect(ids.has(`s${i}`) || elementIds.has(`s${i}`), `s${i}`).to.be.true;
    const far = names.find((n) => n.dataset.serverId === 's1999')!;
    expect(far.textContent).to.equal('Server s1999');
    expect(far.tabIndex).to.equal(0);
    // content-visibility: auto keeps off-screen names searchable (hidden would not).
    expect(getComputedStyle(far.parentElement!).contentVisibility).to.equal('auto');
    // The tail was as tall as the names that replaced it, laid out for real (nothing below the list jumps).
    for (const block of el.shadowRoot!.querySelectorAll<HTMLElement>('[data-deferred]')) block.style.contentVisibility = 'visible';
    expect(el.getBoundingClientRect().height).to.be.closeTo(firstHeight, 1);
  });

  it('a block waiting for its names is as tall as it will be with them, so scrolling does not jump', async () => {
    const { store } = realStore(bigSession(EAGER_SERVERS + BLOCK_SIZE * (NAMES_BLOCKS_AT_ONCE + 1) + 7));
    const wrap = await fixture<HTMLElement>(html`<div></div>`);
    const el = document.createElement('ahp-mcp-server-list') as AhpMcpServerList;
    el.store = store;
    wrap.append(el);
    await el.updateComplete;
    const [full, short] = await firstPendingBlocks(el);
    expect(full, 'a pending full block').to.exist;
    expect(short, 'a pending short block').to.exist;
    const heights = [full!, short!].map((b) => b.getBoundingClientRect().height);
    await namesFilled(el);
    for (const [i, block] of [full!, short!].entries()) {
      block.style.contentVisibility = 'visible';
      expect(block.getBoundingClientRect().height).to.be.closeTo(heights[i]!, 1);
      expect(block.childElementCount).to.equal(i ? 7 : BLOCK_SIZE);
    }
  });

  it('a block scrolled into view before its names are in renders its servers as elements', async () => {
    const { store } = realStore(bigSession(1000));
    const wrap = await fixture<HTMLElement>(html`<div style="height: 300px; overflow: auto"></div>`);
    const el = document.createElement('ahp-mcp-server-list') as AhpMcpServerList;
    el.store = store;
    wrap.append(el);
    await el.updateComplete;
    const last = (await firstPendingBlocks(el)).at(-1)!;
    expect(last.childElementCount).to.equal(0);
    last.scrollIntoView();
    await until(() => servers(el).some((s) => s.serverId === 's999'));
    await until(() => servers(el).filter((s) => s.serverId === 's999').length === 1 && !deferred(el).some((d) => d.dataset.serverId === 's999'));
  });

  it('a list taken out of the page before its names are in gets them when it comes back', async () => {
    const { store } = realStore(bigSession(500));
    const wrap = await fixture<HTMLElement>(html`<div></div>`);
    const el = document.createElement('ahp-mcp-server-list') as AhpMcpServerList;
    el.store = store;
    wrap.append(el);
    await el.updateComplete;
    await firstPendingBlocks(el);
    el.remove();
    await settle();
    await settle();
    expect(pendingBlocks(el).length, 'blocks still waiting while out of the page').to.be.above(0);
    wrap.append(el);
    await namesFilled(el);
    expect(deferred(el).length + servers(el).length).to.equal(500);
  });

  it('Tab walks on from a server far down the list to the next one, whether it is a name or an element', async () => {
    const { store } = realStore(bigSession(400));
    const wrap = await fixture<HTMLElement>(html`<div style="height: 300px; overflow: auto"><ahp-mcp-server-list .store=${store}></ahp-mcp-server-list></div>`);
    const el = wrap.querySelector('ahp-mcp-server-list') as AhpMcpServerList;
    await namesFilled(el);
    // The last name of a block far down: focus it, then Tab through that server's controls to the next server.
    const target = deferred(el).find((d) => d.dataset.serverId === 's323')!;
    expect(target, 'name s323').to.exist;
    target.focus();
    await until(() => focusedServer(el) === 's323' && !!servers(el).find((s) => s.serverId === 's323')?.shadowRoot?.activeElement);
    for (let i = 0; i < 6 && focusedServer(el) === 's323'; i++) {
      await sendKeys({ press: 'Tab' });
      await settle();
    }
    await until(() => focusedServer(el) === 's324' && !!servers(el).find((s) => s.serverId === 's324')?.shadowRoot?.activeElement);
  });

  it('hostile server names and ids far down the list are text in the names blocks, never markup', async () => {
    const hostileName = (i: number) => `<img src=x onerror="window.__pwned=${i}"></div><script>window.__pwned=${i}</script>"'&`;
    const hostileId = (i: number) => `h${i}" onfocus="window.__pwned=${i}`;
    const top = Array.from({ length: 200 }, (_, i) => (i < EAGER_SERVERS ? mcpServer(`s${i}`, STATES.ready!) : mcpServer(hostileId(i), STATES.ready!, { name: hostileName(i) })));
    const { store } = realStore(session(top));
    const el = await fixture<AhpMcpServerList>(html`<div style="height: 300px; overflow: auto"><ahp-mcp-server-list .store=${store}></ahp-mcp-server-list></div>`).then(
      (wrap) => wrap.querySelector('ahp-mcp-server-list')! as AhpMcpServerList,
    );
    await namesFilled(el);
    const names = deferred(el);
    expect(names.length).to.be.greaterThan(100);
    for (const name of names) {
      const i = Number(/^h(\d+)/.exec(name.dataset.serverId!)![1]);
      expect(name.dataset.serverId).to.equal(hostileId(i));
      expect(name.textContent).to.equal(hostileName(i));
      expect(name.children.length).to.equal(0);
      expect(name.getAttribute('onfocus')).to.equal(null);
    }
    names[names.length - 1]!.focus();
    await settle();
    expect(el.shadowRoot!.querySelector('img, script')).to.equal(null);
    expect((window as unknown as { __pwned?: number }).__pwned).to.equal(undefined);
  });
});

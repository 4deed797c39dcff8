import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/mcp-server-list/define.js';
import type { AhpMcpServerList } from '../../elements/mcp-server-list/mcp-server-list.js';
import type { AhpMcpServer } from '../../elements/mcp-server/mcp-server.js';
import type { Customization, McpServerCustomization } from '../../src/protocol/index.js';
import { FakeStore } from './fixtures/fake-store.js';
import { STATES, mcpServer, plugin, session } from './fixtures/sessions.js';

const groups = (el: AhpMcpServerList) =>
  [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="group"]')].map((g) => ({
    key: g.dataset.group,
    heading: g.querySelector('[part="heading"]')!.textContent!.trim(),
    ids: [...g.querySelectorAll('ahp-mcp-server')].map((s) => s.getAttribute('server-id')),
  }));

const mixed = () =>
  session([
    mcpServer('top1', STATES.ready!),
    plugin('p1', 'Plugin One', [mcpServer('c1', STATES.starting!), mcpServer('c2', STATES.error!)]),
    mcpServer('top2', STATES.stopped!),
    { type: 'directory', id: 'd1', uri: 'dir:/d1', name: 'Dir', enabled: true, contents: 'mcpServer', writable: false, children: [mcpServer('c3', STATES.ready!)] },
    plugin('p2', 'Empty plugin', []),
  ]);

describe('<ahp-mcp-server-list>', () => {
  it('groups top-level servers and container children, headed by container name', async () => {
    const store = new FakeStore(mixed());
    const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
    expect(groups(el)).to.deep.equal([
      { key: 'top-level', heading: 'Session', ids: ['top1', 'top2'] },
      { key: 'p1', heading: 'Plugin One', ids: ['c1', 'c2'] },
      { key: 'd1', heading: 'Dir', ids: ['c3'] },
    ]);
    await expect(el).to.be.accessible();
  });

  it('gives every server the same store, so each shows its own state', async () => {
    const store = new FakeStore(mixed());
    const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
    const servers = [...el.shadowRoot!.querySelectorAll<AhpMcpServer>('ahp-mcp-server')];
    await Promise.all(servers.map((s) => s.updateComplete));
    expect(servers.every((s) => s.store === store)).to.be.true;
    const kinds = servers.map((s) => s.shadowRoot!.querySelector<HTMLElement>('[part="status"]')!.dataset.kind);
    expect(kinds).to.deep.equal(['ready', 'stopped', 'starting', 'error', 'ready']);
  });

  it('re-renders when servers are added and removed, keeping existing elements', async () => {
    const store = new FakeStore(session([mcpServer('a', STATES.ready!)]));
    const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
    const first = el.shadowRoot!.querySelector('ahp-mcp-server');
    store.setState(session([mcpServer('a', STATES.ready!), plugin('p', 'P', [mcpServer('b', STATES.ready!)])]));
    await el.updateComplete;
    expect(groups(el).map((g) => g.ids)).to.deep.equal([['a'], ['b']]);
    expect(el.shadowRoot!.querySelector('ahp-mcp-server')).to.equal(first);
    store.setState(session([plugin('p', 'P', [mcpServer('b', STATES.ready!)])]));
    await el.updateComplete;
    expect(groups(el)).to.deep.equal([{ key: 'p', heading: 'P', ids: ['b'] }]);
  });

  it('does not re-render for a state change of a listed server', async () => {
    const store = new FakeStore(session([mcpServer('a', STATES.starting!)]));
    const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
    let updates = 0;
    const original = el.requestUpdate.bind(el);
    el.requestUpdate = (...args: Parameters<typeof original>) => {
      updates++;
      original(...args);
    };
    store.setState(session([mcpServer('a', STATES.ready!)]));
    await el.updateComplete;
    expect(updates).to.equal(0);
    store.setState(session([mcpServer('a', STATES.ready!), mcpServer('b', STATES.ready!)]));
    await el.updateComplete;
    expect(updates).to.equal(1);
  });

  it('exports the server parts so pages can style them through the list', async () => {
    const style = document.createElement('style');
    style.textContent = 'ahp-mcp-server-list::part(status) { outline: 3px solid rgb(9, 8, 7); }';
    document.head.append(style);
    try {
      const store = new FakeStore(session([mcpServer('a', STATES.ready!)]));
      const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
      const server = el.shadowRoot!.querySelector<AhpMcpServer>('ahp-mcp-server')!;
      await server.updateComplete;
      expect(getComputedStyle(server.shadowRoot!.querySelector('[part="status"]')!).outlineColor).to.equal('rgb(9, 8, 7)');
    } finally {
      style.remove();
    }
  });

  it('shows empty and loading states and honours top-level-label and heading-level', async () => {
    const store = new FakeStore(undefined);
    const el = await fixture<AhpMcpServerList>(
      html`<ahp-mcp-server-list .store=${store} top-level-label="Host" heading-level="2"></ahp-mcp-server-list>`,
    );
    expect(el.shadowRoot!.querySelector('[data-empty="loading"]')).to.exist;
    store.setState(session([]));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[data-empty="none"]')).to.exist;
    store.setState(session([mcpServer('a', STATES.ready!)]));
    await el.updateComplete;
    const heading = el.shadowRoot!.querySelector('[part="heading"]')!;
    expect(heading.textContent!.trim()).to.equal('Host');
    expect(heading.getAttribute('aria-level')).to.equal('2');
  });

  it('a host\'s malformed servers (no string id, non-string names and container names, a container without a string id) are left out or shown as they can be, never break the list', async () => {
    const malformed = (c: Record<string, unknown>) => c as unknown as Customization;
    const many = Array.from({ length: 60 }, (_, i) => malformed({ type: 'mcpServer', id: i % 2 ? i : `s${i}`, name: i % 3 ? null : 5, state: STATES.ready }));
    const store = new FakeStore(
      session([
        mcpServer('good', STATES.ready!),
        malformed({ type: 'mcpServer' }),
        malformed({ type: 'mcpServer', id: 42, name: { toString: 'x' }, state: null }),
        malformed({ type: 'mcpServer', id: 'nostate', name: 'No state' }),
        plugin('p', 7 as unknown as string, [mcpServer('c', STATES.ready!), null as unknown as McpServerCustomization, malformed({ type: 'mcpServer', id: ['x'] }) as McpServerCustomization]),
        malformed({ type: 'plugin', id: { a: 1 }, name: 'No id', children: [mcpServer('orphan', STATES.ready!)] }),
        ...many,
      ]),
    );
    const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
    const rendered = () =>
      [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="group"]')].map((g) => ({
        key: g.dataset.group,
        heading: g.querySelector('[part="heading"]')!.textContent!.trim(),
        ids: [...g.querySelectorAll('ahp-mcp-server, [data-server-id]')].map((s) => s.getAttribute('server-id') ?? (s as HTMLElement).dataset.serverId),
        named: [...g.querySelectorAll<HTMLElement>('[data-server-id]')].map((s) => [s.dataset.serverId, s.textContent]),
      }));
    for (let i = 0; i < 100 && el.shadowRoot!.querySelector('[data-pending]'); i++) await new Promise((r) => setTimeout(r, 20));
    const evens = Array.from({ length: 30 }, (_, i) => `s${2 * i}`);
    const [top, p, noId] = rendered();
    expect(top!.ids).to.deep.equal(['good', 'nostate', ...evens], 'entries without a string id are left out');
    expect(top!.named.length).to.be.greaterThan(0, 'some names are in blocks');
    expect(top!.named.filter(([id, text]) => id !== text)).to.deep.equal([], 'non-string names fall back to the id');
    expect(p).to.deep.include({ key: 'p', heading: '7', ids: ['c'] }, 'a container name is shown as text, whatever its type');
    expect(noId).to.deep.include({ heading: 'No id', ids: ['orphan'] }, 'a container without a string id still lists its servers');
    expect(rendered()).to.have.length(3);
  });
});

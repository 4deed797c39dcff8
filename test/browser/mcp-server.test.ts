import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../elements/mcp-server/define.js';
import type { AhpMcpServer } from '../../elements/mcp-server/mcp-server.js';
import { FakeStore } from './fixtures/fake-store.js';
import { DARK_ICON, LIGHT_ICON, PLAIN_ICON, STATES, mcpServer, plugin, session } from './fixtures/sessions.js';
import type { Customization, McpServerCustomization } from '../../src/protocol/customizations.js';

const part = (el: AhpMcpServer, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const button = (el: AhpMcpServer, action: string) => el.shadowRoot!.querySelector<HTMLButtonElement>(`[data-action="${action}"]`);
const focused = (el: AhpMcpServer) => (el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.action;
const actions = (el: AhpMcpServer) =>
  [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[data-action]:not([data-action="toggle"])')].map((b) => b.dataset.action);

async function render(server: Customization | Customization[], id = 'a') {
  const store = new FakeStore(session(Array.isArray(server) ? server : [server]));
  const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id=${id} .store=${store}></ahp-mcp-server>`);
  return { el, store };
}

const BADGES: Record<string, string> = {
  starting: 'Starting…',
  ready: 'Ready',
  authRequired: 'Sign-in required',
  error: 'Error',
  stopped: 'Stopped',
};
const BUTTONS: Record<string, string[]> = {
  starting: ['stop'],
  ready: ['stop', 'restart'],
  authRequired: ['stop'],
  error: ['start'],
  stopped: ['start'],
};

describe('<ahp-mcp-server> state kinds', () => {
  for (const [kind, state] of Object.entries(STATES)) {
    it(`renders ${kind}: badge, buttons, custom state, accessible`, async () => {
      const { el } = await render(mcpServer('a', state));
      const badge = part(el, 'status')!;
      expect(badge.textContent!.trim()).to.equal(BADGES[kind]);
      expect(badge.dataset.kind).to.equal(kind);
      expect(part(el, 'name')!.textContent).to.equal('Server a');
      expect(actions(el)).to.deep.equal(BUTTONS[kind]);
      expect(el.matches(`:state(${kind})`)).to.be.true;
      for (const other of Object.keys(STATES).filter((k) => k !== kind)) expect(el.matches(`:state(${other})`)).to.be.false;
      await expect(el).to.be.accessible();
    });
  }

  it('shows an unknown kind as its raw text on a neutral badge', async () => {
    const { el } = await render(mcpServer('a', { kind: 'hibernating' }));
    const badge = part(el, 'status')!;
    expect(badge.textContent!.trim()).to.equal('hibernating');
    expect(badge.dataset.known).to.equal('false');
    expect(el.matches(':state(unknown)')).to.be.true;
    expect(actions(el)).to.deep.equal(['start', 'stop']);
    await expect(el).to.be.accessible();
  });

  it('survives a garbage state and prototype-looking kinds', async () => {
    const { el, store } = await render(mcpServer('a', null as never));
    expect(part(el, 'status')!.textContent!.trim()).to.equal('unknown');
    store.setState(session([mcpServer('a', { kind: 'toString' })]));
    await el.updateComplete;
    expect(part(el, 'status')!.textContent!.trim()).to.equal('toString');
    expect(el.matches(':state(unknown)')).to.be.true;
  });

  it('shows the error message only for the error kind', async () => {
    const { el, store } = await render(mcpServer('a', STATES.error!));
    expect(part(el, 'error')!.textContent).to.equal('Process exited with code 1');
    store.setState(session([mcpServer('a', STATES.ready!)]));
    await el.updateComplete;
    expect(part(el, 'error')).to.equal(null);
  });
});

describe('<ahp-mcp-server> icon', () => {
  it('renders the icon as an <img> with the source and an empty alt', async () => {
    const { el } = await render(mcpServer('a', STATES.ready!, { icons: [{ src: PLAIN_ICON }] }));
    const img = part(el, 'icon') as HTMLImageElement;
    expect(img.localName).to.equal('img');
    expect(img.getAttribute('src')).to.equal(PLAIN_ICON);
    expect(img.getAttribute('alt')).to.equal('');
  });

  it('never injects markup from the icon source or the name', async () => {
    const evil = 'https://example.invalid/i.png"><script>window.__pwned = 1</script><svg onload="window.__pwned = 1">';
    const { el } = await render(
      mcpServer('a', STATES.ready!, { name: '<img src=x onerror="window.__pwned = 1">', icons: [{ src: evil }] }),
    );
    const img = part(el, 'icon') as HTMLImageElement;
    expect(img.localName).to.equal('img');
    expect(img.getAttribute('src')).to.equal(evil);
    expect(el.shadowRoot!.querySelectorAll('script, svg, iframe, object').length).to.equal(0);
    expect(el.shadowRoot!.querySelectorAll('img').length).to.equal(1);
    expect(part(el, 'name')!.textContent).to.equal('<img src=x onerror="window.__pwned = 1">');
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('ignores sources that are not http(s) or data: images', async () => {
    const { el } = await render(
      mcpServer('a', STATES.ready!, { icons: [{ src: 'javascript:alert(1)' }, { src: 'data:text/html,<b>x</b>' }] }),
    );
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
    expect(part(el, 'icon')!.localName).to.equal('span');
  });

  it('picks the icon matching the color scheme', async () => {
    const icons = [
      { src: LIGHT_ICON, theme: 'light' as const },
      { src: DARK_ICON, theme: 'dark' as const },
    ];
    const store = new FakeStore(session([mcpServer('a', STATES.ready!, { icons })]));
    const wrap = await fixture<HTMLDivElement>(html`<div>
      <ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>
      <ahp-mcp-server style="color-scheme: dark" server-id="a" .store=${store}></ahp-mcp-server>
    </div>`);
    const [light, dark] = [...wrap.querySelectorAll('ahp-mcp-server')];
    await light!.updateComplete;
    await dark!.updateComplete;
    expect(part(light!, 'icon')!.getAttribute('src')).to.equal(LIGHT_ICON);
    expect(part(dark!, 'icon')!.getAttribute('src')).to.equal(DARK_ICON);
  });
});

describe('<ahp-mcp-server> enable switch', () => {
  const cases: Array<[string, Partial<McpServerCustomization>, unknown[]]> = [
    [
      'keeps existing entries and flips the first one',
      { enablement: [{ kind: 'session', enabled: true }, { kind: 'global', enabled: false }] },
      [{ kind: 'session', enabled: false }, { kind: 'global', enabled: false }],
    ],
    ['adds a global entry when there is none', {}, [{ kind: 'global', enabled: false }]],
    ['turns the older enabled:false into a global entry', { enabled: false }, [{ kind: 'global', enabled: true }]],
  ];
  for (const [title, extra, expected] of cases) {
    it(title, async () => {
      const { el, store } = await render(mcpServer('a', STATES.ready!, extra));
      button(el, 'toggle')!.click();
      expect(store.dispatched).to.deep.equal([{ type: 'session/customizationToggled', id: 'a', enablement: expected }]);
    });
  }

  it('is a switch named after the server with aria-checked', async () => {
    const { el } = await render(mcpServer('a', STATES.ready!, { enabled: false }));
    const sw = button(el, 'toggle')!;
    expect(sw.getAttribute('role')).to.equal('switch');
    expect(sw.getAttribute('aria-label')).to.equal('Enable Server a');
    expect(sw.getAttribute('aria-checked')).to.equal('false');
  });

  it('shows a disabled server as disabled', async () => {
    const { el, store } = await render(mcpServer('a', STATES.stopped!, { enablement: [{ kind: 'global', enabled: false }] }));
    expect(el.shadowRoot!.querySelector('[data-disabled]')!.textContent).to.equal('Disabled');
    expect(el.matches(':state(disabled)')).to.be.true;
    await expect(el).to.be.accessible();
    store.setState(session([mcpServer('a', STATES.stopped!)]));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[data-disabled]')).to.equal(null);
    expect(el.matches(':state(disabled)')).to.be.false;
  });

  it('names the container that disables an enabled child', async () => {
    const store = new FakeStore(session([plugin('p', 'Tools plugin', [mcpServer('a', STATES.stopped!)], { enabled: false })]));
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>`);
    expect(el.shadowRoot!.querySelector('[data-disabled]')!.textContent).to.equal('Disabled by Tools plugin');
    expect(button(el, 'toggle')!.getAttribute('aria-checked')).to.equal('true');
  });
});

describe('<ahp-mcp-server> start, stop, restart', () => {
  it('start dispatches mcpServerStartRequested', async () => {
    const { el, store } = await render(mcpServer('a', STATES.stopped!));
    expect(button(el, 'start')!.getAttribute('aria-label')).to.equal('Start Server a');
    button(el, 'start')!.click();
    expect(store.dispatched).to.deep.equal([{ type: 'session/mcpServerStartRequested', id: 'a' }]);
  });

  it('stop dispatches mcpServerStopRequested', async () => {
    const { el, store } = await render(mcpServer('a', STATES.authRequired!));
    button(el, 'stop')!.click();
    expect(store.dispatched).to.deep.equal([{ type: 'session/mcpServerStopRequested', id: 'a' }]);
  });

  it('restart dispatches stop then start', async () => {
    const { el, store } = await render(mcpServer('a', STATES.ready!));
    button(el, 'restart')!.click();
    expect(store.dispatched).to.deep.equal([
      { type: 'session/mcpServerStopRequested', id: 'a' },
      { type: 'session/mcpServerStartRequested', id: 'a' },
    ]);
  });

  it('an error offers Start only, and a Start that fails again shows that it did', async () => {
    const { el, store } = await render(mcpServer('a', STATES.error!));
    expect(actions(el)).to.deep.equal(['start']);
    expect(el.shadowRoot!.querySelector('.failed-again')).to.equal(null);
    button(el, 'start')!.click();
    store.setState(session([mcpServer('a', STATES.starting!)]));
    await el.updateComplete;
    store.setState(session([mcpServer('a', { ...STATES.error! })]));
    await el.updateComplete;
    const again = el.shadowRoot!.querySelector<HTMLElement>('.failed-again')!;
    expect(again.dataset.failures).to.equal('2');
    expect(again.textContent).to.match(/again/);
    store.setState(session([mcpServer('a', { ...STATES.error! })]));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector<HTMLElement>('.failed-again')!.dataset.failures).to.equal('3');
    store.setState(session([mcpServer('a', STATES.ready!)]));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.failed-again')).to.equal(null);
  });

  for (const key of ['Enter', 'Space']) {
    it(`works from the keyboard with ${key}`, async () => {
      const { el, store } = await render(mcpServer('a', STATES.ready!));
      button(el, 'stop')!.focus();
      await sendKeys({ press: key });
      button(el, 'toggle')!.focus();
      await sendKeys({ press: key });
      expect(store.dispatched.map((a) => a.type)).to.deep.equal(['session/mcpServerStopRequested', 'session/customizationToggled']);
    });
  }

  it('reaches every control with Tab', async () => {
    const { el } = await render(mcpServer('a', STATES.ready!));
    button(el, 'toggle')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(focused(el)).to.equal('stop');
    await sendKeys({ press: 'Tab' });
    expect(focused(el)).to.equal('restart');
  });
});

describe('<ahp-mcp-server> events', () => {
  const cases: Array<[string, string, McpServerCustomization, Record<string, unknown>]> = [
    ['toggle', 'ahp-mcp-server-toggle', mcpServer('a', STATES.ready!), { id: 'a', enabled: false, enablement: [{ kind: 'global', enabled: false }] }],
    ['start', 'ahp-mcp-server-start', mcpServer('a', STATES.stopped!), { id: 'a' }],
    ['stop', 'ahp-mcp-server-stop', mcpServer('a', STATES.ready!), { id: 'a' }],
    ['restart', 'ahp-mcp-server-restart', mcpServer('a', STATES.ready!), { id: 'a' }],
  ];
  for (const [action, type, server, detail] of cases) {
    it(`${action} fires ${type} (bubbling, composed, cancelable) before dispatching`, async () => {
      const { el, store } = await render(server);
      const seen = oneEvent(document, type as 'ahp-mcp-server-start');
      button(el, action)!.click();
      const event = await seen;
      expect(event.bubbles && event.composed && event.cancelable).to.be.true;
      expect(event.detail).to.deep.equal(detail);
      expect(store.dispatched.length).to.be.greaterThan(0);
    });

    it(`${action}: preventDefault keeps the action from being dispatched`, async () => {
      const { el, store } = await render(server);
      const cancel = (e: Event) => e.preventDefault();
      document.addEventListener(type, cancel);
      try {
        button(el, action)!.click();
      } finally {
        document.removeEventListener(type, cancel);
      }
      expect(store.dispatched).to.deep.equal([]);
    });
  }
});

describe('<ahp-mcp-server> store and id', () => {
  it('shows loading without a store and picks a store set later', async () => {
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="a"></ahp-mcp-server>`);
    expect(el.shadowRoot!.querySelector('[data-empty="loading"]')).to.exist;
    expect(el.matches(':state(loading)')).to.be.true;
    el.store = new FakeStore(session([mcpServer('a', STATES.ready!)]));
    await el.updateComplete;
    expect(part(el, 'status')!.dataset.kind).to.equal('ready');
  });

  it('shows an unknown-server state for an id not in the session', async () => {
    const { el } = await render(mcpServer('a', STATES.ready!), 'missing');
    expect(el.shadowRoot!.querySelector('[data-empty="not-found"]')!.textContent).to.contain('missing');
    expect(el.matches(':state(not-found)')).to.be.true;
    await expect(el).to.be.accessible();
  });

  it('turns from loading into not-found when the snapshot arrives without its server', async () => {
    const store = new FakeStore(undefined);
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="missing" .store=${store}></ahp-mcp-server>`);
    expect(el.matches(':state(loading)')).to.be.true;
    store.setState(session([mcpServer('a', STATES.ready!)]));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[data-empty="not-found"]')).to.exist;
    expect(el.matches(':state(not-found)')).to.be.true;
  });

  it('follows state changes of its server and a new server-id', async () => {
    const { el, store } = await render([mcpServer('a', STATES.starting!), mcpServer('b', STATES.error!)]);
    store.setState(session([mcpServer('a', STATES.ready!), mcpServer('b', STATES.error!)]));
    await el.updateComplete;
    expect(part(el, 'status')!.dataset.kind).to.equal('ready');
    el.serverId = 'b';
    await el.updateComplete;
    expect(part(el, 'status')!.dataset.kind).to.equal('error');
  });

  it('finds servers inside containers', async () => {
    const { el } = await render([plugin('p', 'Plugin', [mcpServer('a', STATES.ready!)])]);
    expect(part(el, 'status')!.dataset.kind).to.equal('ready');
  });
});

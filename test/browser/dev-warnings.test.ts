import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/define-all.js';
import type { AhpMcpServer } from '../../elements/index.js';
import { DEV, STORE_GRACE_MS } from '../../elements/shared/dev-warnings.js';
import { FakeStore } from './fixtures/fake-store.js';
import { STATES, mcpServer, session } from './fixtures/sessions.js';

/** Every console.warn while the test runs (restored after each test). */
let warnings: unknown[][] = [];
let original: typeof console.warn;
beforeEach(() => {
  warnings = [];
  original = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args);
});
afterEach(() => (console.warn = original));

const texts = (anchor: string) => warnings.map((w) => String(w[0])).filter((t) => t.includes(`#${anchor}`));
const afterGrace = () => new Promise((r) => setTimeout(r, STORE_GRACE_MS + 150));
const README = fetch('/README.md').then((r) => r.text());

describe('development warnings', () => {
  it('are on when running from source (the development condition)', () => {
    expect(DEV).to.equal(true);
  });

  it('each links to a README section that exists', async () => {
    const readme = await README;
    for (const anchor of ['dev-no-store', 'dev-unknown-server', 'dev-same-origin-sandbox']) {
      expect(readme, anchor).to.contain(`<a id="${anchor}"></a>`);
    }
  });

  it('no <ahp-session> ancestor and no .store: warns once per element, naming the tag and the fix', async () => {
    const wrap = await fixture<HTMLDivElement>(html`<div>
      <ahp-mcp-server server-id="a"></ahp-mcp-server>
      <ahp-mcp-server-list></ahp-mcp-server-list>
      <ahp-chat chat="ahp-chat:/x"></ahp-chat>
      <ahp-input-needed></ahp-input-needed>
      <ahp-tool-call tool-call-id="t"></ahp-tool-call>
      <ahp-mcp-app></ahp-mcp-app>
    </div>`);
    await afterGrace();
    const found = texts('dev-no-store');
    expect(found.length).to.equal(6);
    for (const tag of ['ahp-mcp-server', 'ahp-mcp-server-list', 'ahp-chat', 'ahp-input-needed', 'ahp-tool-call', 'ahp-mcp-app']) {
      expect(found.filter((t) => t.includes(`<${tag}>:`)).length, tag).to.equal(1);
    }
    expect(found[0]).to.contain('<ahp-session');
    expect(found[0]).to.contain('.store');
    // Once per instance: moving the elements around does not warn again.
    const server = wrap.querySelector('ahp-mcp-server')!;
    server.remove();
    wrap.append(server);
    await afterGrace();
    expect(texts('dev-no-store').length).to.equal(6);
  });

  it('stays quiet inside <ahp-session> (also across a shadow root), with a .store set right after insertion, or once removed', async () => {
    const wrap = await fixture<HTMLDivElement>(html`<div>
      <ahp-session><section><ahp-mcp-server-list></ahp-mcp-server-list></section></ahp-session>
      <ahp-session><div class="shadow-host"></div></ahp-session>
    </div>`);
    const shadow = wrap.querySelector('.shadow-host')!.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<ahp-mcp-server server-id="a"></ahp-mcp-server>';
    const late = document.createElement('ahp-mcp-server') as AhpMcpServer;
    late.serverId = 'a';
    wrap.append(late);
    await new Promise((r) => setTimeout(r, 20));
    late.store = new FakeStore(session([mcpServer('a', STATES.ready!)]));
    const removed = document.createElement('ahp-chat');
    wrap.append(removed);
    removed.remove();
    await afterGrace();
    expect(texts('dev-no-store')).to.deep.equal([]);
  });

  it('an unknown server-id warns once the session is loaded, once per element', async () => {
    const store = new FakeStore(undefined);
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="nope" .store=${store}></ahp-mcp-server>`);
    expect(texts('dev-unknown-server'), 'not before the snapshot').to.deep.equal([]);
    store.setState(session([mcpServer('a', STATES.ready!)]));
    await el.updateComplete;
    store.setState(session([mcpServer('a', STATES.stopped!)]));
    await el.updateComplete;
    const found = texts('dev-unknown-server');
    expect(found.length).to.equal(1);
    expect(found[0]).to.contain('"nope"');
    el.serverId = 'a';
    await el.updateComplete;
    const known = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>`);
    await known.updateComplete;
    expect(texts('dev-unknown-server').length).to.equal(1);
  });

  it('a sandbox-url on the page origin warns once (besides the error the element shows)', async () => {
    const el = await fixture(html`<ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" sandbox-url="/sandbox.html" .store=${new FakeStore(session([]))}></ahp-mcp-app>`);
    const start = performance.now();
    while (!texts('dev-same-origin-sandbox').length && performance.now() - start < 3000) await new Promise((r) => setTimeout(r, 20));
    const found = texts('dev-same-origin-sandbox');
    expect(found.length).to.equal(1);
    expect(found[0]).to.contain(location.origin);
    (el as HTMLElement).setAttribute('sandbox-url', '/other.html');
    await new Promise((r) => setTimeout(r, 100));
    expect(texts('dev-same-origin-sandbox').length).to.equal(1);
    expect(el.shadowRoot!.querySelector('[part="status"]')!.textContent).to.contain('another origin');
  });
});

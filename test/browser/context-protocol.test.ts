import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { ContextConsumer, ContextProvider } from '@lit/context';
import '../../elements/define-all.js';
import { handleContext, storeContext, type AhpMcpServer, type AhpSession } from '../../elements/index.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { FakeStore } from './fixtures/fake-store.js';
import { STATES, mcpServer, session } from './fixtures/sessions.js';

// How <ahp-session> hands its store and handle down (the context community protocol): the nearest session wins, a
// provider that appears between an element and its session takes over, an element moved elsewhere follows its new
// session, and page code using @lit/context's own ContextConsumer / ContextProvider works with the elements.

const storeOf = (state: 'ready' | 'stopped') => new FakeStore(session([mcpServer('x', STATES[state]!)]));
const kindOf = (el: AhpMcpServer) => el.shadowRoot!.querySelector<HTMLElement>('[part="status"]')?.dataset.kind;
/** Expects `server` to render `store` (a `stopped` server), and to keep it when `session` gets another store. */
async function expectKeeps(server: AhpMcpServer, store: FakeStore, session: AhpSession) {
  await server.updateComplete;
  expect(server.currentStore).to.equal(store);
  expect(kindOf(server)).to.equal('stopped');
  session.store = storeOf('ready');
  await session.updateComplete;
  await server.updateComplete;
  expect(server.currentStore).to.equal(store);
}

class PageConsumer extends LitElement {
  readonly store = new ContextConsumer(this, { context: storeContext, subscribe: true });
  readonly handle = new ContextConsumer(this, { context: handleContext, subscribe: true });
}
customElements.define('test-page-consumer', PageConsumer);

class PageProvider extends LitElement {
  readonly store = new ContextProvider(this, { context: storeContext });
}
customElements.define('test-page-provider', PageProvider);

describe('store and handle context', () => {
  it('an element takes the store of its nearest session; the outer one no longer counts it', async () => {
    const outer = storeOf('ready');
    const inner = storeOf('stopped');
    const el = await fixture<AhpSession>(html`<ahp-session .store=${outer} .handle=${new FakeHandle()}>
      <ahp-session .store=${inner} .handle=${new FakeHandle()}><ahp-mcp-server server-id="x"></ahp-mcp-server></ahp-session>
    </ahp-session>`);
    await expectKeeps(el.querySelector<AhpMcpServer>('ahp-mcp-server')!, inner, el);
  });

  it('a provider that appears between an element and its session (defined later) takes over; the session lets the element go', async () => {
    const outer = storeOf('ready');
    const el = await fixture<AhpSession>(html`<ahp-session .store=${outer} .handle=${new FakeHandle()}>
      <test-late-provider><ahp-mcp-server server-id="x"></ahp-mcp-server></test-late-provider>
    </ahp-session>`);
    const server = el.querySelector<AhpMcpServer>('ahp-mcp-server')!;
    await server.updateComplete;
    expect(server.currentStore).to.equal(outer);

    // Upgrading the provider announces it (`context-provider`); the session has the elements it serves ask again.
    const inner = storeOf('stopped');
    customElements.define('test-late-provider', class extends PageProvider {});
    el.querySelector<PageProvider>('test-late-provider')!.store.setValue(inner);
    await expectKeeps(server, inner, el);
  });

  it('an element moved to another session follows that session', async () => {
    const a = storeOf('ready');
    const b = storeOf('stopped');
    const root = await fixture<HTMLElement>(html`<div>
      <ahp-session id="a" .store=${a} .handle=${new FakeHandle()}><ahp-mcp-server server-id="x"></ahp-mcp-server></ahp-session>
      <ahp-session id="b" .store=${b} .handle=${new FakeHandle()}></ahp-session>
    </div>`);
    const server = root.querySelector<AhpMcpServer>('ahp-mcp-server')!;
    await server.updateComplete;
    expect(server.currentStore).to.equal(a);
    root.querySelector('#b')!.append(server);
    // The session it left no longer updates it.
    await expectKeeps(server, b, root.querySelector<AhpSession>('#a')!);
  });

  it("page code's @lit/context ContextConsumer gets the session's store and handle, and the replacements", async () => {
    const store = storeOf('ready');
    const handle = new FakeHandle();
    const el = await fixture<AhpSession>(html`<ahp-session .store=${store} .handle=${handle}><test-page-consumer></test-page-consumer></ahp-session>`);
    const page = el.querySelector<PageConsumer>('test-page-consumer')!;
    expect(page.store.value).to.equal(store);
    expect(page.handle.value).to.equal(handle);
    const next = storeOf('stopped');
    el.store = next;
    await el.updateComplete;
    expect(page.store.value).to.equal(next);
  });

  it("an element under page code's @lit/context ContextProvider takes the store it provides", async () => {
    const el = await fixture<PageProvider>(html`<test-page-provider><ahp-mcp-server server-id="x"></ahp-mcp-server></test-page-provider>`);
    const server = el.querySelector<AhpMcpServer>('ahp-mcp-server')!;
    const store = storeOf('stopped');
    el.store.setValue(store);
    await server.updateComplete;
    expect(server.currentStore).to.equal(store);
    expect(kindOf(server)).to.equal('stopped');
  });
});

// Sandbox proxies warmed before an App needs them: the page-wide pool (one spare per sandbox origin, handed out once,
// released, dropped when it fails, out of sight and inert meanwhile) and the warm-up `<ahp-session>` triggers when an
// MCP server that lists a View is ready (the first App of that server takes the spare; no spare for servers without
// a View; nothing left behind when the server stops or the session goes).
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../elements/define-all.js';
import { AhpMcpApp } from '../../elements/mcp-app/mcp-app.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import type { ActionEnvelope } from '../../src/protocol/commands.js';
import type { SessionState } from '../../src/protocol/session.js';
import { SessionStore } from '../../src/store/session-store.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import { SandboxFrame } from '../../src/apps/sandbox-frame.js';
import { MAX_VIEW_URI_LENGTH } from '../../src/apps/tool-call.js';
import { SandboxWarmer } from '../../src/apps/sandbox-warm.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { drivenView } from '../fixtures/apps/view-driver.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { pollUntil } from './fixtures/view-probes.js';
import { CHAT, FakeChatStore, chatState } from './fixtures/tool-calls.js';

let otherOrigin = '';
let sandboxOrigin2 = '';
before(async () => {
  ({ otherOrigin, sandboxOrigin2 } = await (await fetch('/__test/env.json')).json());
});
const proxyUrl = (origin = otherOrigin, query = `parent=${encodeURIComponent(location.origin)}`) => `${origin}/sandbox/sandbox-proxy.html?${query}`;
const spares = () => [...document.querySelectorAll<HTMLIFrameElement>('body > iframe[aria-hidden="true"]')];
const canMove = SandboxFrame.canMoveLive();

const until = <T>(fn: () => T | undefined | false, what: string, ms = 10_000): Promise<T> =>
  pollUntil(fn, what, ms, () => `spares: ${spares().map((f) => f.src).join(', ')}`);

describe('SandboxWarmer: spare sandbox proxies', () => {
  let warmer: SandboxWarmer;
  beforeEach(function (this: Mocha.Context) {
    if (!canMove) this.skip(); // without moveBefore a warmed frame would reload when placed: no spares at all
    warmer = new SandboxWarmer();
  });
  afterEach(() => warmer?.clear());

  it('keeps at most one spare per sandbox origin: the same URL once, another URL of the origin replaces it, a guess leaves it', async () => {
    const plain = proxyUrl();
    const withCsp = proxyUrl(otherOrigin, `csp=${encodeURIComponent('{"connectDomains":[]}')}&parent=${encodeURIComponent(location.origin)}`);
    warmer.warm(plain);
    warmer.warm(plain);
    expect(spares().map((f) => f.src)).to.deep.equal([plain]);
    warmer.warm(withCsp);
    expect(spares().map((f) => f.src), 'the newer View of the origin wins').to.deep.equal([withCsp]);
    warmer.warm(plain, undefined, true);
    expect(spares().map((f) => f.src), 'a guess does not replace a spare').to.deep.equal([withCsp]);
    warmer.warm(proxyUrl(sandboxOrigin2), undefined, true);
    expect(spares().map((f) => new URL(f.src).origin)).to.deep.equal([otherOrigin, sandboxOrigin2]);
    await warmer.settled();
  });

  it('a spare is out of sight, inert and not focusable, with the sandbox and allow of an App frame', async () => {
    warmer.warm(proxyUrl(), 'clipboard-write');
    const [spare] = spares();
    expect(spare!.getAttribute('sandbox')).to.equal('allow-scripts allow-same-origin allow-forms');
    expect(spare!.getAttribute('allow')).to.equal('clipboard-write');
    expect(spare!.inert).to.equal(true);
    expect(spare!.getBoundingClientRect().right).to.be.at.most(0, 'off screen');
    expect(spare!.ariaHidden).to.equal('true');
    spare!.focus();
    expect(document.activeElement).to.not.equal(spare);
    await warmer.settled();
  });

  it('take hands the loaded spare over once (shown, no longer inert); a second take finds none', async () => {
    const url = proxyUrl();
    warmer.warm(url);
    const [spare] = spares();
    await warmer.settled();
    expect(warmer.take(url, 'camera'), 'another permission policy').to.equal(undefined);
    const frame = warmer.take(url)!;
    expect(frame.element).to.equal(spare);
    expect(await frame.ready).to.equal(true);
    expect(spare!.inert).to.equal(false);
    expect(spare!.hasAttribute('aria-hidden') || spare!.hasAttribute('tabindex') || spare!.style.cssText !== '').to.equal(false);
    expect(warmer.take(url)).to.equal(undefined);
    frame.remove();
  });

  it('a spare taken and removed is gone; clear removes every one', async () => {
    warmer.warm(proxyUrl());
    warmer.warm(proxyUrl(sandboxOrigin2));
    warmer.take(proxyUrl(), 'camera')?.remove();
    expect(spares().length, 'not that spare').to.equal(2);
    warmer.take(proxyUrl())?.remove();
    expect(spares().map((f) => new URL(f.src).origin)).to.deep.equal([sandboxOrigin2]);
    warmer.clear();
    expect(spares()).to.deep.equal([]);
  });

  it('a spare that stops being ours is dropped and never handed out; one the page removed is replaced', async () => {
    const notAProxy = `${otherOrigin}/apps/reloading-page.html`;
    warmer.warm(notAProxy);
    await until(() => spares().length === 0, 'the spare that loaded twice dropped');
    expect(warmer.take(notAProxy)).to.equal(undefined);
    const url = proxyUrl();
    warmer.warm(url);
    spares()[0]!.remove();
    warmer.warm(url);
    expect(spares().length, 'a new spare in place of the removed one').to.equal(1);
    await warmer.settled();
    const taken = warmer.take(url);
    expect(taken?.element.isConnected).to.equal(true);
    taken!.remove();
  });
});

const APP_SERVER = 'basic';
const server = (id: string, state: Record<string, unknown>, extra: Record<string, unknown> = { channel: `mcp://${id}`, mcpApp: { capabilities: ALL_CAPABILITIES } }) => ({
  type: 'mcpServer', id, uri: `mcp-config:/${id}`, name: id, state, ...extra,
});
const sessionWith = (...servers: unknown[]) =>
  ({ provider: 't', title: 'S', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: servers }) as unknown as SessionState;
const completed = {
  toolCallId: 'tc1', toolName: 'get-time', displayName: 'Get time', contributor: { kind: 'mcp', customizationId: APP_SERVER },
  _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } }, status: 'completed', invocationMessage: 'Getting time', toolInput: '{}',
  confirmed: 'not-needed', success: true, pastTenseMessage: 'Got time', content: [{ type: 'text', text: 'noon' }],
} as unknown as ToolCallState;

describe('<ahp-session> warms the sandbox proxy of a ready MCP server that lists a View', () => {
  const resolved: string[] = [];
  const resolve = ({ serverId }: { serverId: string }) => (resolved.push(serverId), serverId === 'refused' ? undefined : `${serverId === 'other' ? sandboxOrigin2 : otherOrigin}/sandbox/sandbox-proxy.html`);
  beforeEach(function (this: Mocha.Context) {
    if (!canMove) this.skip();
    resolved.length = 0;
  });
  afterEach(() => {
    fixtureCleanup();
    AhpMcpApp.sandboxUrlFor = undefined;
    AhpMcpApp.warmer.clear();
    AhpMcpApp.resources.clear();
  });

  it('the first App of the server runs in the proxy warmed for it, never in another server\'s; the listing is asked once', async function (this: Mocha.Context) {
    this.timeout(30_000);
    AhpMcpApp.sandboxUrlFor = resolve;
    const channel = new FakeChannel({ html: await drivenView({}) });
    const otherChannel = new FakeChannel();
    const store = new FakeChatStore(sessionWith(server(APP_SERVER, { kind: 'ready' }), server('other', { kind: 'ready' })), { [CHAT]: chatState([completed]) });
    const handle = new FakeHandle({ channels: (id) => (id === 'other' ? otherChannel : channel) as McpChannel });
    const session = await fixture(html`<ahp-session .store=${store} .handle=${handle}></ahp-session>`);
    const spare = await until(() => spares().find((f) => f.src.startsWith(`${otherOrigin}/sandbox/sandbox-proxy.html?`)), 'a spare proxy for the server');
    const otherSpare = await until(() => spares().find((f) => f.src.startsWith(`${sandboxOrigin2}/sandbox/sandbox-proxy.html?`)), 'a spare proxy for the other server');
    expect(new URL(spare.src).searchParams.get('parent')).to.equal(location.origin);
    await AhpMcpApp.warmer.settled();
    const app = document.createElement('ahp-mcp-app');
    app.setAttribute('chat', CHAT);
    app.setAttribute('tool-call-id', 'tc1');
    session.append(app);
    await until(() => app.matches(':state(ready)'), 'the App initialized');
    expect(app.shadowRoot!.querySelectorAll('iframe').length).to.equal(1);
    expect(app.shadowRoot!.querySelector('iframe'), 'the App took the warmed proxy').to.equal(spare);
    expect(spare.inert).to.equal(false);
    expect(spares(), 'the other server\'s spare, on its own origin, is left alone').to.include(otherSpare);
    expect(spares().filter((f) => f.src.startsWith(otherOrigin)).length, 'at most one spare per origin (the next App\'s, warmed once this View is up)').to.be.at.most(1);
    expect(channel.count('resources/list'), 'the warm-up listing is the one the App uses').to.equal(1);
    expect(channel.count('resources/read')).to.equal(1);
  });

  it('a View whose CSP and permissions are only in its content item (as the PDF viewer\'s) gets its own spare from the server\'s next start; a View that changed them runs in a proxy for its new ones', async function (this: Mocha.Context) {
    this.timeout(40_000);
    AhpMcpApp.sandboxUrlFor = resolve;
    const options = { html: await drivenView({}), contentMeta: { csp: { connectDomains: ['https://fonts.example'] }, permissions: { clipboardWrite: {} } } as Record<string, unknown> };
    const channel = new FakeChannel(options);
    const store = new FakeChatStore(sessionWith(server(APP_SERVER, { kind: 'ready' })), { [CHAT]: chatState([completed]) });
    const session = await fixture(html`<ahp-session .store=${store} .handle=${new FakeHandle({ channels: () => channel as McpChannel })}></ahp-session>`);
    const cspOf = (frame: HTMLIFrameElement) => new URL(frame.src).searchParams.get('csp');
    const runApp = async () => {
      const app = document.createElement('ahp-mcp-app');
      app.setAttribute('chat', CHAT);
      app.setAttribute('tool-call-id', 'tc1');
      session.append(app);
      await until(() => app.matches(':state(ready)'), 'the App initialized');
      const frame = app.shadowRoot!.querySelector('iframe')!;
      app.remove();
      // The spare this App warmed for the next one (of its own proxy URL) goes: what the next start warms is checked.
      await AhpMcpApp.warmer.settled();
      AhpMcpApp.warmer.clear();
      return frame;
    };
    const restart = async (what: string) => {
      store.setState(sessionWith(server(APP_SERVER, { kind: 'stopped' })));
      expect(spares(), 'no spare while the server is stopped').to.deep.equal([]);
      store.setState(sessionWith(server(APP_SERVER, { kind: 'ready' })));
      const spare = await until(() => spares().find((f) => f.src.startsWith(otherOrigin)), what);
      await AhpMcpApp.warmer.settled();
      return spare;
    };

    const firstSpare = await until(() => spares().find((f) => f.src.startsWith(otherOrigin)), 'a spare from the listing');
    expect(cspOf(firstSpare), 'the listing names no CSP').to.equal(null);
    await AhpMcpApp.warmer.settled();
    const first = await runApp();
    expect(first, 'the first start cannot know the CSP: not the spare').to.not.equal(firstSpare);
    expect(JSON.parse(cspOf(first)!).connectDomains).to.deep.equal(['https://fonts.example']);

    const guessed = await restart('a spare for the next start');
    expect(JSON.parse(cspOf(guessed) ?? '{}').connectDomains, 'the CSP the View\'s content item gave last start').to.deep.equal(['https://fonts.example']);
    expect(guessed.getAttribute('allow')).to.equal('clipboard-write');
    const second = await runApp();
    expect(second, 'the App took the spare warmed for its View').to.equal(guessed);
    expect(channel.count('resources/read'), 'each start reads the View again').to.equal(2);

    options.contentMeta = { csp: { connectDomains: ['https://other.example'] } };
    const stale = await restart('a spare from the last start\'s CSP');
    expect(JSON.parse(cspOf(stale)!).connectDomains).to.deep.equal(['https://fonts.example']);
    const third = await runApp();
    expect(third, 'a guess that no longer matches is not used').to.not.equal(stale);
    expect(JSON.parse(cspOf(third)!).connectDomains, 'the CSP this start\'s read gave').to.deep.equal(['https://other.example']);
    expect(third.hasAttribute('allow'), 'nor its permissions').to.equal(false);
  });

  it('no spare for a server without a View (or one whose URI is too long to name one), not offering Apps, not ready, or refused by the page; a failed listing costs nothing', async () => {
    AhpMcpApp.sandboxUrlFor = resolve;
    const noView = new FakeChannel({ uri: 'test://not-a-view' });
    const longView = new FakeChannel({ uri: `ui://long/${'x'.repeat(MAX_VIEW_URI_LENGTH)}` });
    const failing = { request: () => Promise.reject(new Error('gone')), notify() {}, onNotification: () => () => {}, available: () => true } as unknown as McpChannel;
    const others = new FakeChannel();
    const channels: Record<string, McpChannel> = { 'no-view': noView as McpChannel, 'long-view': longView as McpChannel, failing, 'no-apps': others as McpChannel, starting: others as McpChannel, refused: others as McpChannel };
    const store = new FakeChatStore(
      sessionWith(
        server('no-view', { kind: 'ready' }),
        server('long-view', { kind: 'ready' }),
        server('failing', { kind: 'ready' }),
        server('no-apps', { kind: 'ready' }, { channel: 'mcp://no-apps' }),
        server('starting', { kind: 'starting' }),
        server('refused', { kind: 'ready' }),
      ),
    );
    const handle = new FakeHandle({ channels: (id) => channels[id] });
    const rejections: unknown[] = [];
    const onRejection = (e: PromiseRejectionEvent) => rejections.push(e.reason);
    window.addEventListener('unhandledrejection', onRejection);
    try {
      await fixture(html`<ahp-session .store=${store} .handle=${handle}></ahp-session>`);
      await until(() => noView.count('resources/list') === 1 && longView.count('resources/list') === 1 && resolved.includes('refused'), 'the listings answered');
      await new Promise((r) => setTimeout(r, 0));
      expect(spares()).to.deep.equal([]);
      expect(resolved, 'only servers that list a View are resolved').to.deep.equal(['refused']);
      expect(others.count('resources/list'), 'listed for the refused server only').to.equal(1);
      expect(rejections).to.deep.equal([]);
    } finally {
      window.removeEventListener('unhandledrejection', onRejection);
    }
  });

  it('servers ready before the page set sandboxUrlFor are warmed when it does', async () => {
    const channels: Record<string, FakeChannel> = { [APP_SERVER]: new FakeChannel(), other: new FakeChannel() };
    const listed = () => Object.values(channels).map((c) => c.count('resources/list'));
    const store = new FakeChatStore(sessionWith(server(APP_SERVER, { kind: 'ready' }), server('other', { kind: 'ready' })));
    await fixture(html`<ahp-session .store=${store} .handle=${new FakeHandle({ channels: (id) => channels[id] as McpChannel })}></ahp-session>`);
    await new Promise((r) => setTimeout(r, 0));
    expect(spares()).to.deep.equal([]);
    expect(listed(), 'without a resolver nothing is asked').to.deep.equal([0, 0]);
    expect(store.listenerCount, 'nor is the store listened to').to.equal(0);
    AhpMcpApp.sandboxUrlFor = resolve;
    await until(() => spares().length === 2, 'a spare for each server, on its own origin');
    expect(spares().map((f) => new URL(f.src).origin).sort()).to.deep.equal([otherOrigin, sandboxOrigin2].sort());
    expect(listed(), 'the same server start: listed once').to.deep.equal([1, 1]);
    await AhpMcpApp.warmer.settled();
  });

  it('a server that stops before its listing answers gets no spare', async () => {
    AhpMcpApp.sandboxUrlFor = resolve;
    let answer!: () => void;
    const channel = new FakeChannel({ holdListing: new Promise<void>((r) => (answer = r)) });
    const start = { kind: 'ready' };
    const store = new FakeChatStore(sessionWith(server(APP_SERVER, start)));
    await fixture(html`<ahp-session .store=${store} .handle=${new FakeHandle({ channels: () => channel as McpChannel })}></ahp-session>`);
    await until(() => channel.count('resources/list') === 1, 'the listing asked');
    store.setState(sessionWith(server(APP_SERVER, { kind: 'stopped' })));
    answer();
    // The warm-up's own listing (the same promise for this start): once it answered, what it does with it has run.
    await AhpMcpApp.resources.listing(channel as McpChannel, start);
    await Promise.resolve();
    expect(spares(), 'no proxy for a server start that is over').to.deep.equal([]);
    expect(resolved).to.deep.equal([]);
  });

  it('leaves nothing behind: the spare goes when its server stops, and when the session is removed', async () => {
    AhpMcpApp.sandboxUrlFor = resolve;
    const channel = new FakeChannel();
    const store = new FakeChatStore(sessionWith(server(APP_SERVER, { kind: 'ready' }), server('other', { kind: 'ready' })));
    const session = await fixture(html`<ahp-session .store=${store} .handle=${new FakeHandle({ channels: () => channel as McpChannel })}></ahp-session>`);
    await until(() => spares().length === 2, 'two spares');
    const listeners = store.listenerCount;
    store.setState(sessionWith(server(APP_SERVER, { kind: 'stopped' }), server('other', { kind: 'ready' })));
    expect(spares().map((f) => new URL(f.src).origin), 'the stopped server\'s spare is gone').to.deep.equal([sandboxOrigin2]);
    session.remove();
    expect(spares(), 'the session is gone: so is every spare it warmed').to.deep.equal([]);
    expect(store.listenerCount, 'the warm-up no longer listens to the store').to.be.below(listeners);
    // A server that becomes ready after the session went is not warmed.
    store.setState(sessionWith(server(APP_SERVER, { kind: 'ready', again: true }), server('other', { kind: 'ready' })));
    await new Promise((r) => setTimeout(r, 0));
    expect(spares()).to.deep.equal([]);
  });
});

describe('the warm-up follows servers by id over the real SessionStore', () => {
  const CHANNEL = 'ahp-session:/warm';
  const FILLERS = 300; // several 64-entry chunks of servers that offer no Apps
  const resolve = () => `${otherOrigin}/sandbox/sandbox-proxy.html`;
  /**
   * The built customizations array of a lazy state, if it was built (reducers/customization-chunks.ts): a read empties
   * the state's chunks and makes the array their base; a state a change gave holds at least one chunk until read.
   */
  const builtList = (state: SessionState | undefined) => {
    const chunks = Object.getOwnPropertySymbols(state ?? {}).map((k) => (state as unknown as Record<symbol, unknown>)[k]).find((v): v is unknown[] & { base: unknown[] } => Array.isArray(v));
    return chunks?.length === 0 ? chunks.base : undefined;
  };
  let serverSeq = 0;
  const receive = (store: SessionStore, action: unknown) => store.receive({ channel: CHANNEL, action, serverSeq: ++serverSeq } as ActionEnvelope);
  beforeEach(function (this: Mocha.Context) {
    if (!canMove) this.skip();
  });
  afterEach(() => {
    fixtureCleanup();
    AhpMcpApp.sandboxUrlFor = undefined;
    AhpMcpApp.warmer.clear();
    AhpMcpApp.resources.clear();
  });

  it('a server change never builds the customizations list: the server that became ready is warmed, one that stops or goes is released', async () => {
    AhpMcpApp.sandboxUrlFor = resolve;
    const store = new SessionStore({ channel: CHANNEL, clientId: 'me', send() {}, nextClientSeq: () => 1 });
    const fillers = Array.from({ length: FILLERS }, (_, i) => server(`s${i}`, { kind: 'ready' }, { channel: `mcp://s${i}` }));
    store.loadSnapshot({ resource: CHANNEL, fromSeq: 0, state: sessionWith(...fillers, server(APP_SERVER, { kind: 'starting' }, { mcpApp: { capabilities: ALL_CAPABILITIES } })) });
    const channel = new FakeChannel();
    await fixture(html`<ahp-session .store=${store} .handle=${new FakeHandle({ channels: () => channel as McpChannel })}></ahp-session>`);
    await new Promise((r) => setTimeout(r, 0));
    expect(spares()).to.deep.equal([]);

    receive(store, { type: 'session/mcpServerStateChanged', id: APP_SERVER, state: { kind: 'ready' }, channel: `mcp://${APP_SERVER}` });
    expect(Object.getOwnPropertyDescriptor(store.getState(), 'customizations')?.get, 'a server change gives a lazy list').to.be.a('function');
    await until(() => spares().length === 1, 'a spare for the server that became ready');
    expect(channel.count('resources/list')).to.equal(1);
    receive(store, { type: 'session/mcpServerStateChanged', id: 's7', state: { kind: 'stopped' } });
    receive(store, { type: 'session/mcpServerStateChanged', id: 's200', state: { kind: 'starting' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(builtList(store.getState()), 'the warm-up read servers by id, not the whole list').to.equal(undefined);
    // The check above can see a build: reading the list of a state the next change gives is one.
    receive(store, { type: 'session/mcpServerStateChanged', id: 's201', state: { kind: 'starting' } });
    const next = store.getState()!;
    expect(builtList(next)).to.equal(undefined);
    const list = next.customizations;
    expect(Array.isArray(list) && builtList(next) === list, 'built after a read').to.equal(true);

    receive(store, { type: 'session/mcpServerStateChanged', id: APP_SERVER, state: { kind: 'stopped' } });
    expect(spares(), 'the stopped server\'s spare is released').to.deep.equal([]);
    expect(builtList(store.getState())).to.equal(undefined);
    receive(store, { type: 'session/mcpServerStateChanged', id: APP_SERVER, state: { kind: 'ready' }, channel: `mcp://${APP_SERVER}` });
    await until(() => spares().length === 1, 'a spare for the server\'s next start');
    expect(channel.count('resources/list'), 'a new start is listed again').to.equal(2);
    await AhpMcpApp.warmer.settled();

    // Servers that come and go replace the list: found by comparing it with the last one.
    receive(store, { type: 'session/customizationRemoved', id: APP_SERVER });
    expect(spares(), 'the removed server\'s spare is released').to.deep.equal([]);
    receive(store, { type: 'session/customizationUpdated', customization: server('late', { kind: 'ready' }) });
    await until(() => spares().length === 1, 'a spare for a server that appeared ready');
    receive(store, { type: 'session/customizationRemoved', id: 's0' }); // every later entry moves
    await new Promise((r) => setTimeout(r, 0));
    expect(spares().length, 'a shifted list keeps the spare of a server still ready').to.equal(1);
    await AhpMcpApp.warmer.settled();
  });
});

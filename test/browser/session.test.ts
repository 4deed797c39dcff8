import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../elements/define-all.js';
import type { AhpMcpServer, AhpMcpServerList, AhpSession } from '../../elements/index.js';
import { HostCore } from '../../src/host.js';
import type { ConnectionState } from '../../src/client/connection-state.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { FakeStore } from './fixtures/fake-store.js';
import { LoopbackWebSocket } from './fixtures/loopback-websocket.js';
import { STATES, mcpServer, plugin, session } from './fixtures/sessions.js';

const S1 = 'ahp-session:/one';
const S2 = 'ahp-session:/two';
const URL_ = 'ws://loopback.test/';

const serverIn = (list: AhpMcpServerList, id: string) =>
  list.shadowRoot!.querySelector<AhpMcpServer>(`ahp-mcp-server[server-id="${id}"]`);
const kindOf = (el: AhpMcpServer | null) => el?.shadowRoot!.querySelector<HTMLElement>('[part="status"]')?.dataset.kind;

describe('<ahp-session> with url and session (real client, store and host core)', () => {
  const original = globalThis.WebSocket;
  let host: HostCore;

  beforeEach(() => {
    host = new HostCore({ log: () => {} });
    host.createSession(S1, session([mcpServer('a', STATES.ready!), plugin('p', 'Plugin', [mcpServer('b', STATES.stopped!)])]));
    host.createSession(S2, session([mcpServer('z', STATES.error!)]));
    LoopbackWebSocket.host = host;
    LoopbackWebSocket.refuse = undefined;
    LoopbackWebSocket.instances.length = 0;
    (globalThis as { WebSocket: unknown }).WebSocket = LoopbackWebSocket;
  });
  afterEach(() => {
    (globalThis as { WebSocket: unknown }).WebSocket = original;
    host.close();
  });

  it('connects, provides the store, and elements render and act on the live session', async () => {
    const el = await fixture<AhpSession>(html`<ahp-session url=${URL_} session=${S1}><ahp-mcp-server-list></ahp-mcp-server-list></ahp-session>`);
    const list = el.querySelector('ahp-mcp-server-list')!;
    await waitUntil(() => el.matches(':state(open)') && kindOf(serverIn(list, 'b')) === 'stopped', 'session did not open');
    expect(LoopbackWebSocket.instances.map((s) => s.url)).to.deep.equal([URL_]);
    expect(list.currentStore).to.equal(el.currentStore);

    serverIn(list, 'b')!.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="start"]')!.click();
    await serverIn(list, 'b')!.updateComplete;
    expect(kindOf(serverIn(list, 'b'))).to.equal('starting');
    await waitUntil(() => (host.getSessionState(S1)!.customizations![1] as { children: { state: { kind: string } }[] }).children[0]!.state.kind === 'starting');

    host.dispatchServerAction(S1, { type: 'session/mcpServerStateChanged', id: 'b', state: { kind: 'error', error: { errorType: 'exit', message: 'killed' } } });
    await waitUntil(() => kindOf(serverIn(list, 'b')) === 'error');
    expect(serverIn(list, 'b')!.shadowRoot!.querySelector('[part="error"]')!.textContent).to.equal('killed');
  });

  it('closes the connection when removed and reconnects when attached again', async () => {
    const el = await fixture<AhpSession>(html`<ahp-session url=${URL_} session=${S1}></ahp-session>`);
    await waitUntil(() => el.matches(':state(open)'));
    const parent = el.parentElement!;
    el.remove();
    expect(LoopbackWebSocket.instances[0]!.readyState).to.equal(3);
    parent.append(el);
    await waitUntil(() => el.matches(':state(open)'));
    expect(LoopbackWebSocket.instances.length).to.equal(2);
  });

  it('closes and reopens when the session attribute changes', async () => {
    const el = await fixture<AhpSession>(html`<ahp-session url=${URL_} session=${S1}><ahp-mcp-server server-id="z"></ahp-mcp-server></ahp-session>`);
    await waitUntil(() => el.matches(':state(open)'));
    el.setAttribute('session', S2);
    const server = el.querySelector('ahp-mcp-server')!;
    await waitUntil(() => kindOf(server) === 'error', 'did not switch sessions');
    expect(LoopbackWebSocket.instances[0]!.readyState).to.equal(3);
    expect(LoopbackWebSocket.instances.length).to.equal(2);
  });

  /** An <ahp-session> whose host refuses the socket until `LoopbackWebSocket.refuse` is cleared; `seen` its connection states. */
  function connectRefused(reconnect: AhpSession['reconnect']) {
    LoopbackWebSocket.refuse = URL_;
    const el = document.createElement('ahp-session');
    el.reconnect = reconnect;
    const seen: ConnectionState[] = [];
    el.addEventListener('ahp-connection-change', (e) => seen.push(e.detail.state));
    el.setAttribute('url', URL_);
    el.setAttribute('session', S1);
    document.body.append(el);
    return { el, seen };
  }

  it('retries a failed first connection with backoff, shows reconnecting with the next attempt time, and connects once the host is there', async () => {
    const { el, seen } = connectRefused({ initialDelayMs: 20, maxDelayMs: 40 });
    try {
      await waitUntil(() => seen.filter((s) => s.kind === 'reconnecting').length >= 2, 'no second retry');
      expect(el.matches(':state(reconnecting)')).to.equal(true);
      const retry = seen.find((s) => s.kind === 'reconnecting') as { attempt: number; nextAttemptAt?: number };
      expect(retry.attempt).to.equal(1);
      expect(retry.nextAttemptAt).to.be.a('number');
      LoopbackWebSocket.refuse = undefined;
      await waitUntil(() => el.matches(':state(open)'), 'did not connect once the host accepted');
    } finally {
      LoopbackWebSocket.refuse = undefined;
      el.remove();
    }
  });

  it('with reconnect off, reports a failed connection as closed with a reason', async () => {
    const { el, seen } = connectRefused(false);
    try {
      await waitUntil(() => el.matches(':state(closed)'));
      expect(seen[0]!.kind).to.equal('connecting');
      expect(seen.slice(1).map((s) => s.kind)).to.include('closed').and.not.include('open');
      expect((el.connectionState as { reason?: string }).reason).to.be.a('string').and.not.equal('');
    } finally {
      LoopbackWebSocket.refuse = undefined;
      el.remove();
    }
  });
});

describe('<ahp-session> with a .store property', () => {
  it('provides the store to descendants and takes precedence over url/session', async () => {
    const store = new FakeStore(session([mcpServer('a', STATES.ready!)]));
    const el = await fixture<AhpSession>(html`<ahp-session url="ws://unused.test/" session=${S1} .store=${store}>
      <div><ahp-mcp-server server-id="a"></ahp-mcp-server></div>
    </ahp-session>`);
    const server = el.querySelector('ahp-mcp-server')!;
    await server.updateComplete;
    expect(server.currentStore).to.equal(store);
    expect(kindOf(server)).to.equal('ready');
    expect(el.shadowRoot!.querySelector('slot')).to.exist;
    await expect(el).to.be.accessible();
  });

  it('exposes the connection state of its handle as custom states and ahp-connection-change events', async () => {
    const store = new FakeStore(session([]));
    const handle = new FakeHandle();
    const el = await fixture<AhpSession>(html`<ahp-session .store=${store} .handle=${handle}></ahp-session>`);
    expect(el.matches(':state(open)')).to.be.true;
    expect(el.currentHandle).to.equal(handle);
    const changed = oneEvent(el, 'ahp-connection-change');
    handle.setConnectionState({ kind: 'reconnecting', attempt: 1, nextAttemptAt: 1234 });
    const event = await changed;
    expect(event.detail.state).to.deep.equal({ kind: 'reconnecting', attempt: 1, nextAttemptAt: 1234 });
    expect(event.bubbles && event.composed).to.be.true;
    expect(el.matches(':state(reconnecting)')).to.be.true;
    expect(el.matches(':state(open)')).to.be.false;
  });

  it('hands a replaced store and handle to descendants and stops listening to the old ones', async () => {
    const a = new FakeStore(session([mcpServer('x', STATES.ready!)]));
    const b = new FakeStore(session([mcpServer('x', STATES.stopped!)]));
    const ha = new FakeHandle();
    const hb = new FakeHandle();
    const el = await fixture<AhpSession>(html`<ahp-session .store=${a} .handle=${ha}><ahp-mcp-server server-id="x"></ahp-mcp-server></ahp-session>`);
    const server = el.querySelector('ahp-mcp-server')!;
    await server.updateComplete;
    el.store = b;
    el.handle = hb;
    await el.updateComplete;
    await server.updateComplete;
    expect(kindOf(server)).to.equal('stopped');
    expect(a.listenerCount).to.equal(0);
    expect(ha.listenerCount).to.equal(0);
    const seen: string[] = [];
    el.addEventListener('ahp-connection-change', (e) => seen.push(e.detail.state.kind));
    ha.setConnectionState({ kind: 'closed' });
    expect(seen).to.deep.equal([]);
    hb.setConnectionState({ kind: 'closed', reason: 'gone' });
    expect(seen).to.deep.equal(['closed']);
  });
});

// The sandbox proxy's relay of the View's messages to the host page: a View's message leaves in the View's own call
// (so a View busy with its start-up still reaches the host at once), and a View that goes around the relay is
// handled and contained as before.
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/mcp-app/define.js';
import type { AhpMcpApp } from '../../elements/mcp-app/mcp-app.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import { SandboxFrame } from '../../src/apps/sandbox-frame.js';
import { SANDBOX_METHODS } from '../../src/apps/sandbox-methods.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { hostileView } from '../fixtures/apps/hostile-view.js';
import { collectViewProbes, fromViewOf, probeWaits, viewWindowIn, type KindProbe } from './fixtures/view-probes.js';

const view = collectViewProbes<KindProbe>();
const { probes } = view;
const { until, probe } = probeWaits(probes);

/** A FakeChannel that notes when (wall clock, comparable with the View's `Date.now()`) each notification reached it. */
class TimedChannel extends FakeChannel {
  readonly notifiedAt: { method: string; at: number; params: Record<string, unknown> | undefined }[] = [];
  override notify(method: string, params?: Record<string, unknown>): void {
    this.notifiedAt.push({ method, at: Date.now(), params });
    super.notify(method, params);
  }
}

async function mount(script: string, channel = new TimedChannel({ html: hostileView(script) })) {
  const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app
    server-id="relay"
    resource-uri="ui://get-time/mcp-app.html"
    sandbox-url=${`${view.otherOrigin}/sandbox/sandbox-proxy.html`}
    .channel=${channel as McpChannel}
    .capabilities=${ALL_CAPABILITIES}
  ></ahp-mcp-app>`);
  await until(() => el.bridge?.initialized, 'the View initialized');
  return { el, channel };
}
const logged = (channel: TimedChannel, data: string) =>
  channel.notifiedAt.find((n) => n.method === 'notifications/message' && n.params?.['data'] === data);

describe('the sandbox proxy relays the View\'s messages in the View\'s own call', () => {
  it('a message the View posts before 3 s of busy work reaches the host while the View is still busy', async function (this: { timeout(ms: number): void }) {
    this.timeout(30_000);
    // The proxy page shares the View's thread: a relay that waited for a task of the proxy would send the message
    // only after the busy loop, i.e. after `busyUntil`.
    const { channel } = await mount(`post({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'before the work' } });
      const end = Date.now() + 3000;
      while (Date.now() < end);
      report('busy', { busyUntil: Date.now() });`);
    const busy = await until(() => probe('busy'), 'the View done with its work', 20_000);
    const seen = await until(() => logged(channel, 'before the work'), 'the message at the host');
    expect(seen.at, 'the message reached the host before the View\'s work ended').to.be.lessThan(busy['busyUntil'] as number);
  });

  it('a View that posts with the built-in postMessage (an event in the proxy) is relayed and limited as before', async function (this: { timeout(ms: number): void }) {
    this.timeout(30_000);
    // `window.postMessage` of the View's own realm, called on the proxy window: the proxy gets a message event.
    const { el, channel } = await mount(`const native = (m) => window.postMessage.call(proxy, m, '*');
      native({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'by event' } });
      let limited = 0;
      addEventListener('message', (e) => { if (e.data && e.data.error && e.data.error.code === -32000) limited++; });
      for (let i = 0; i < 3000; i++) native({ jsonrpc: '2.0', id: 'n' + i, method: 'ping', params: {} });
      await new Promise((r) => setTimeout(r, 500));
      report('flooded', { limited });`);
    await until(() => logged(channel, 'by event'), 'the event-path message at the host');
    const flooded = await until(() => probe('flooded'), 'the flood sent', 20_000);
    expect(flooded['limited'] as number).to.be.greaterThan(0, 'the proxy cut the flood and told the View');
    expect(el.matches(':state(ready)')).to.equal(true);
  });

  it('a View that posts to the host page itself (past its proxy) is ignored by the host', async () => {
    const events: unknown[] = [];
    const onAppMessage = (e: Event) => events.push(e);
    document.addEventListener('ahp-app-message', onAppMessage);
    // The page's own look at what the View posted to it: once these arrived, the host's listeners had them too.
    let el: AhpMcpApp | undefined;
    const direct: string[] = [];
    const onWindowMessage = (e: MessageEvent) => {
      if (el && fromViewOf(e, el) && typeof e.data?.method === 'string') direct.push(e.data.method);
    };
    window.addEventListener('message', onWindowMessage);
    try {
      const mounted = await mount(`report('ready');
        await new Promise((r) => setTimeout(r, 100));
        const top = proxy.parent;
        top.postMessage({ jsonrpc: '2.0', id: 'direct', method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'direct' }] } }, '*');
        top.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'direct' } }, '*');
        post({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'relayed' } });`);
      el = mounted.el;
      await until(() => direct.length === 2, 'the two direct messages at the page');
      await until(() => logged(mounted.channel, 'relayed'), 'the relayed message');
      await el.updateComplete;
      expect(direct).to.deep.equal(['ui/message', 'notifications/message']);
      expect(logged(mounted.channel, 'direct'), 'the direct notification is not from the proxy frame').to.equal(undefined);
      expect(events, 'no message event').to.have.length(0);
      expect(el.shadowRoot!.querySelector('[part~="prompt"]'), 'no prompt').to.equal(null);
      expect(el.matches(':state(ready)')).to.equal(true);
    } finally {
      document.removeEventListener('ahp-app-message', onAppMessage);
      window.removeEventListener('message', onWindowMessage);
    }
  });
});

describe('the View\'s MessagePort to the host', () => {
  const proxyUrl = () => `${view.otherOrigin}/sandbox/sandbox-proxy.html?parent=${encodeURIComponent(location.origin)}`;
  /** A View that posts `tick` notifications through its proxy and, past it, its tick count to the page itself. */
  const tickingView = `<!doctype html><script>
    let n = 0;
    setInterval(() => {
      n++;
      parent.postMessage({ jsonrpc: '2.0', method: 'test/tick', params: { n } }, '*');
      parent.parent.postMessage({ jsonrpc: '2.0', method: 'test/ticked', params: { n } }, '*');
    }, 20);
  </script>`;
  /** Runs `test` with a proxy frame that announced itself, removed afterwards. */
  async function withProxyFrame(test: (frame: SandboxFrame) => Promise<void>): Promise<void> {
    const frame = new SandboxFrame({ url: proxyUrl() });
    try {
      frame.place(document.body);
      expect(await frame.ready).to.equal(true);
      await test(frame);
    } finally {
      frame.remove();
    }
  }
  /** The highest tick the View says it posted (read from its direct messages to this page). */
  const ticked = (frame: SandboxFrame) => {
    let n = 0;
    const on = (e: MessageEvent) => {
      if (e.data?.method === 'test/ticked' && e.source === viewWindowIn(frame.element.contentWindow)) n = e.data.params.n;
    };
    window.addEventListener('message', on);
    return { last: () => n, stop: () => window.removeEventListener('message', on) };
  };

  it('carries the View\'s messages; once the transport is closed, what the View still posts reaches nobody', () =>
    withProxyFrame(async (frame) => {
      const posted = ticked(frame);
      try {
        const transport = frame.transport();
        const got: number[] = [];
        let afterClose = 0;
        let closed = false;
        transport.onmessage = (m) => (closed ? afterClose++ : got.push((m as { params: { n: number } }).params.n));
        frame.sendResource({ html: tickingView });
        await until(() => got.length >= 3, 'ticks through the relay');
        transport.close();
        closed = true;
        const at = posted.last();
        await until(() => posted.last() >= at + 10, 'ten more ticks posted by the View');
        expect(afterClose, 'nothing after close').to.equal(0);
      } finally {
        posted.stop();
      }
    }));

  it('the proxy keeps the port it got with the View: a later resource-ready with another port is ignored', () =>
    withProxyFrame(async (frame) => {
      const transport = frame.transport();
      let first = 0;
      transport.onmessage = () => first++;
      frame.sendResource({ html: tickingView });
      await until(() => first >= 1, 'a tick on the first port');
      const other = new MessageChannel();
      let second = 0;
      other.port1.onmessage = () => second++;
      frame.element.contentWindow!.postMessage({ jsonrpc: '2.0', method: SANDBOX_METHODS.resourceReady, params: { html: '<p>other</p>' } }, { targetOrigin: frame.origin, transfer: [other.port2] });
      const at = first;
      await until(() => first >= at + 10, 'ten more ticks on the first port');
      expect(second, 'nothing on the later port').to.equal(0);
      transport.close();
    }));

  it('is handed over only to a document of the sandbox origin: a frame navigated elsewhere gets neither the View nor the port', () =>
    withProxyFrame(async (frame) => {
      const transport = frame.transport();
      // Now a document of this page's origin (about:blank, navigated by this page): we can watch what it receives.
      await new Promise<void>((resolve) => {
        frame.element.addEventListener('load', () => resolve(), { once: true });
        frame.element.src = 'about:blank';
      });
      const seen: { data: unknown; ports: number }[] = [];
      frame.element.contentWindow!.addEventListener('message', (e) => seen.push({ data: e.data, ports: e.ports.length }));
      frame.sendResource({ html: '<p>a View</p>' });
      // Posted after the resource, from the same window to the same target: it arrives after it, had that arrived.
      frame.element.contentWindow!.postMessage('marker', '*');
      await until(() => seen.some((m) => m.data === 'marker'), 'the marker');
      expect(seen).to.deep.equal([{ data: 'marker', ports: 0 }]);
      expect(frame.hijacked, 'the second load is seen as hijacking').to.equal(true);
      transport.close();
    }));
});

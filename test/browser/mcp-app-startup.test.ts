// <ahp-mcp-app> start-up and connection state: the View starts while the tool call runs (its result arrives
// after), the resource is read once per server start, the next App on a sandbox origin takes a proxy frame that
// was warmed for it, and the element shows the session's connection state.
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/define-all.js';
import type { AhpMcpApp } from '../../elements/mcp-app/mcp-app.js';
import type { AhpToolCall } from '../../elements/tool-call/tool-call.js';
import type { ConnectionState } from '../../src/client/connection-state.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import type { SessionState } from '../../src/protocol/session.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import { SandboxFrame } from '../../src/apps/sandbox-frame.js';
import { SANDBOX_METHODS } from '../../src/apps/sandbox-methods.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { slotLoads } from '../fixtures/apps/load-slots-probe.js';
import { drivenView } from '../fixtures/apps/view-driver.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { CHAT, FakeChatStore, chatState } from './fixtures/tool-calls.js';
import { fromViewOf } from './fixtures/view-probes.js';

let otherOrigin = '';
before(async () => {
  otherOrigin = (await (await fetch('/__test/env.json')).json()).otherOrigin;
});
const sandboxUrl = () => `${otherOrigin}/sandbox/sandbox-proxy.html`;

async function until<T>(fn: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const t0 = performance.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (performance.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const session = (state: Record<string, unknown> = { kind: 'ready' }) =>
  ({
    provider: 't', title: 'S', status: 1, lifecycle: 'ready', activeClients: [], chats: [],
    customizations: [{ type: 'mcpServer', id: 'basic', uri: 'mcp-config:/basic', name: 'Basic', state, channel: 'mcp://basic', mcpApp: { capabilities: ALL_CAPABILITIES } }],
  }) as unknown as SessionState;
const base = { toolCallId: 'tc1', toolName: 'get-time', displayName: 'Get time', contributor: { kind: 'mcp', customizationId: 'basic' }, _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } } };
const running = { ...base, status: 'running', invocationMessage: 'Getting time', toolInput: '{}', confirmed: 'not-needed' } as unknown as ToolCallState;
const completed = { ...running, status: 'completed', success: true, pastTenseMessage: 'Got time', content: [{ type: 'text', text: 'noon' }] } as unknown as ToolCallState;

/** The View's own log of what it received (the driver reports it on every message). */
function viewLog(el: AhpMcpApp): () => string[] {
  let log: string[] = [];
  const onProbe = (e: MessageEvent) => {
    if (e.data?.method === 'test/probe' && fromViewOf(e, el)) log = e.data.params.log;
  };
  window.addEventListener('message', onProbe);
  return () => log;
}

describe('<ahp-mcp-app> start-up', () => {
  it('starts the View while the tool call still runs; the result reaches the initialized View when it arrives', async () => {
    const channel = new FakeChannel({ html: await drivenView({ toPage: true }) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(), { [CHAT]: chatState([running]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
    const log = viewLog(el);
    await until(() => el.matches(':state(ready)'), 'the View initialized before the result');
    expect(log()).to.not.include('in:ui/notifications/tool-result');
    store.setChat(CHAT, chatState([completed]));
    await until(() => log().includes('in:ui/notifications/tool-result'), 'the result in the View');
  });

  it('reads the resource once per server start and takes the proxy frame warmed for its origin', async () => {
    const channel = new FakeChannel({ html: await drivenView({}) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    const app = () => html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`;
    const first = await fixture<AhpMcpApp>(app());
    await until(() => first.matches(':state(ready)'), 'the first View initialized');
    expect(channel.count('resources/read')).to.equal(1);
    const canMove = 'moveBefore' in Element.prototype;
    const spare = canMove ? await until(() => [...document.querySelectorAll<HTMLIFrameElement>('body > iframe[aria-hidden="true"]')].find((f) => f.src.startsWith(sandboxUrl())), 'a warmed proxy frame') : undefined;
    const second = await fixture<AhpMcpApp>(app());
    await until(() => second.matches(':state(ready)'), 'the second View initialized');
    expect(channel.count('resources/read'), 'the same server start: read once').to.equal(1);
    if (spare) {
      expect(second.shadowRoot!.querySelector('iframe')).to.equal(spare, 'the second App runs in the warmed proxy frame');
      expect(spare.hasAttribute('aria-hidden')).to.equal(false);
    }
    // The server restarted: its resource may have changed, so the next App reads it again.
    store.setState(session({ kind: 'ready', restarted: true }));
    const third = await fixture<AhpMcpApp>(app());
    await until(() => third.matches(':state(ready)'), 'the third View initialized');
    expect(channel.count('resources/read')).to.equal(2);
  });
});

describe('<ahp-mcp-app> proxy frames for Views that ask for permissions', () => {
  it('the frame has the View\'s permission policy, and the next App of that View takes a spare warmed with the same policy', async function (this: { timeout(ms: number): void }) {
    // Two Views start one after the other: more than mocha's 10 s on a loaded machine.
    this.timeout(30_000);
    if (!('moveBefore' in Element.prototype)) return;
    const channel = new FakeChannel({ html: await drivenView({}), contentMeta: { permissions: { clipboardWrite: {} } } });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    const app = () => html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`;
    const first = await fixture<AhpMcpApp>(app());
    await until(() => first.matches(':state(ready)'), 'the first View initialized');
    const frames = first.shadowRoot!.querySelectorAll('iframe');
    expect(frames.length, 'one frame in the App (the early guess without permissions is gone)').to.equal(1);
    expect(frames[0]!.getAttribute('allow')).to.equal('clipboard-write');
    const spare = await until(() => [...document.querySelectorAll<HTMLIFrameElement>('body > iframe[aria-hidden="true"]')].find((f) => f.src.startsWith(sandboxUrl()) && f.getAttribute('allow') === 'clipboard-write'), 'a spare with the same permission policy');
    const second = await fixture<AhpMcpApp>(app());
    await until(() => second.matches(':state(ready)'), 'the second View initialized');
    expect(second.shadowRoot!.querySelector('iframe')).to.equal(spare, 'the second App runs in the spare');
  });
});

describe('<ahp-mcp-app> and a slow listing', () => {
  const target = () => `${location.origin}/__test/cors.json`;
  /** What the View's driver reported about its fetch, from this element's frame. */
  function fetchProbe(el: AhpMcpApp): () => { ok: boolean } | undefined {
    let probe: { ok: boolean } | undefined;
    window.addEventListener('message', (e) => {
      if (e.data?.method === 'test/probe' && e.data.params?.kind === 'fetch' && fromViewOf(e, el)) probe = e.data.params;
    });
    return () => probe;
  }
  const frameCsp = (el: AhpMcpApp) => new URL(el.shadowRoot!.querySelector('iframe')!.src).searchParams.get('csp');

  it('starts the View before the listing answers, under the CSP of the resource read (which the listing does not override)', async function (this: { timeout(ms: number): void }) {
    // Two Views start one after the other: more than mocha's 10 s on a loaded machine.
    this.timeout(30_000);
    let answerListing!: () => void;
    const channel = new FakeChannel({
      html: await drivenView({ fetches: [target()], toPage: true }),
      contentMeta: { csp: { connectDomains: [location.origin] } },
      listMeta: { csp: { connectDomains: [] }, prefersBorder: true },
      holdListing: new Promise<void>((r) => (answerListing = r)),
    });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
    const probe = fetchProbe(el);
    await until(() => el.matches(':state(ready)'), 'the View initialized while the listing is out');
    expect(channel.count('resources/list'), 'the listing was asked for').to.equal(1);
    expect(JSON.parse(frameCsp(el)!)).to.deep.equal({ connectDomains: [location.origin] });
    expect((await until(probe, 'the View fetched')).ok, 'the CSP of the resource read lets it connect').to.equal(true);
    const frame = el.shadowRoot!.querySelector('iframe');
    answerListing();
    await until(() => el.hasAttribute('data-border'), 'the listing\'s prefersBorder applied once it answered');
    expect(el.shadowRoot!.querySelector('iframe'), 'the content item\'s CSP wins: the View keeps running').to.equal(frame);
    expect(el.matches(':state(ready)')).to.equal(true);
  });

  it('a listing that answers late with a CSP the resource read lacks restarts the View under it', async function (this: { timeout(ms: number): void }) {
    // Two Views start one after the other: more than mocha's 10 s on a loaded machine.
    this.timeout(30_000);
    let answerListing!: () => void;
    const channel = new FakeChannel({
      html: await drivenView({ fetches: [target()], toPage: true }),
      listMeta: { csp: { connectDomains: [location.origin] } },
      holdListing: new Promise<void>((r) => (answerListing = r)),
    });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
    let probe = fetchProbe(el);
    await until(() => el.matches(':state(ready)'), 'the View initialized while the listing is out');
    expect(frameCsp(el), 'no CSP declared yet: no network').to.equal(null);
    expect((await until(probe, 'the View fetched')).ok).to.equal(false);
    const first = el.shadowRoot!.querySelector('iframe');
    answerListing();
    await until(() => el.shadowRoot!.querySelector('iframe') !== first && el.matches(':state(ready)'), 'the View started again');
    expect(JSON.parse(frameCsp(el)!)).to.deep.equal({ connectDomains: [location.origin] });
    probe = fetchProbe(el);
    expect((await until(probe, 'the new View fetched')).ok, 'the listing\'s CSP applies').to.equal(true);
    expect(channel.count('resources/read'), 'the resource is not read again').to.equal(1);
  });

  it('a listing that answers before the read and states the View\'s CSP: the proxy for that CSP loads while the read is out, and the View runs in it', async function (this: { timeout(ms: number): void }) {
    this.timeout(30_000);
    // What a host that read the View before lists (the pre-read's listing carries the content item's `_meta.ui`).
    const csp = { connectDomains: [location.origin] };
    let answerRead!: () => void;
    const channel = new FakeChannel({ html: await drivenView({ fetches: [target()], toPage: true }), contentMeta: { csp }, listMeta: { csp }, holdRead: new Promise<void>((r) => (answerRead = r)) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    // Proxy frames made on the sandbox origin (each takes a load slot when it is made); no spare of earlier tests.
    (customElements.get('ahp-mcp-app') as unknown as { warmer: { clear(): void } }).warmer.clear();
    const loads = SandboxFrame.loads;
    const acquire = loads.acquire;
    let made = 0;
    loads.acquire = (key, begin) => (key === otherOrigin && made++, acquire.call(loads, key, begin));
    let el: AhpMcpApp;
    let early: HTMLIFrameElement;
    const frames = () => [...el.shadowRoot!.querySelectorAll('iframe')];
    const withCsp = (f: HTMLIFrameElement) => new URL(f.src).searchParams.get('csp') !== null;
    try {
      el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
      early = await until(() => frames().find(withCsp), 'a proxy frame with the listed CSP while the read is out');
      expect(made, 'the only proxy frame: no guess (without the CSP) was made before the listing answered').to.equal(1);
    } finally {
      loads.acquire = acquire;
    }
    const probe = fetchProbe(el);
    expect(channel.count('resources/read'), 'the read is out').to.equal(1);
    expect(el.matches(':state(ready)')).to.equal(false);
    answerRead();
    await until(() => el.matches(':state(ready)'), 'the View initialized');
    expect(JSON.parse(new URL(early.src).searchParams.get('csp')!)).to.deep.equal(csp);
    await until(() => frames().length === 1, 'the first guess (no CSP) gone');
    expect(frames()[0], 'the View runs in the proxy loaded for the listed CSP').to.equal(early);
    expect((await until(probe, 'the View fetched')).ok, 'under that CSP').to.equal(true);
  });

  it('an App taken away while its read is out leaves no proxy frame behind, though its listing answers after', async () => {
    let answerListing!: () => void;
    let answerRead!: () => void;
    const csp = { connectDomains: [location.origin] };
    const channel = new FakeChannel({ listMeta: { csp }, holdListing: new Promise<void>((r) => (answerListing = r)), holdRead: new Promise<void>((r) => (answerRead = r)) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
    await until(() => channel.count('resources/read') === 1, 'the read is out');
    el.remove();
    // The listing answers while the read is still out, so a proxy frame is made (the read stays out: nothing after it cleans up).
    answerListing();
    try {
      // The frames are gone when their load slots are free (a frame nobody removed holds its slot until its handshake times out, 10 s).
      await until(() => slotLoads(SandboxFrame.loads, otherOrigin).running + slotLoads(SandboxFrame.loads, otherOrigin).waiting === 0, 'every proxy frame of the App removed', 5_000);
      expect(document.querySelectorAll(`iframe[src^="${otherOrigin}"]:not([aria-hidden])`).length, 'none in the page').to.equal(0);
    } finally {
      answerRead();
    }
  });
});

describe('<ahp-mcp-app> the View\'s document is built out of rendering', () => {
  // What a View saw of its own frame (same origin as the proxy, so `frameElement` is readable), posted to the page.
  const probes = (el: AhpMcpApp) => {
    const seen: Record<string, { display: string; width: number }>[] = [];
    const onProbe = (e: MessageEvent) => {
      if (e.data?.method === 'test/build' && fromViewOf(e, el)) seen.push(e.data.params);
    };
    window.addEventListener('message', onProbe);
    return { seen, stop: () => window.removeEventListener('message', onProbe) };
  };
  const LOOK = "const look = () => ({ display: getComputedStyle(frameElement).display, width: document.documentElement.clientWidth });" +
    "const probe = (params) => parent.parent.postMessage({ jsonrpc: '2.0', method: 'test/build', params }, '*');";

  it('the View\'s module script runs before its frame is rendered; the frame is shown after it ran', async () => {
    // Looks at its frame while its module script runs (before it says anything), and again once loaded.
    const view = `<!doctype html><html><head><script type="module">${LOOK}
      const atScript = look();
      addEventListener('load', () => setTimeout(() => probe({ atScript, loaded: look() })));
    </script></head><body><p>a View</p></body></html>`;
    const channel = new FakeChannel({ html: view });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app server-id="basic" resource-uri="ui://get-time/mcp-app.html" sandbox-url=${sandboxUrl()} .channel=${channel as McpChannel}></ahp-mcp-app>`);
    const { seen, stop } = probes(el);
    try {
      const report = await until(() => seen[0], 'the View\'s report');
      expect(report!['atScript']!.display, 'out of rendering while its script runs').to.equal('none');
      expect(report!['loaded']!.display, 'shown once its scripts ran, though it never spoke').to.not.equal('none');
      expect(report!['loaded']!.width, 'laid out at the frame\'s width').to.be.greaterThan(0);
    } finally {
      stop();
    }
  });

  it('a View that spoke while its document was built is still out of rendering when its parsing ends (its first message goes out before its first layout), and shown after', async () => {
    // Its module script posts ui/initialize; the proxy's DOMContentLoaded listener (on the document) runs before the
    // View's own (on its window). Shown right there, the View's whole first style and layout would run in that task,
    // before the proxy could relay the message.
    const view = `<!doctype html><html><head><script type="module">${LOOK}
      const display = () => getComputedStyle(frameElement).display;
      parent.postMessage({ jsonrpc: '2.0', id: 'v1', method: 'ui/initialize', params: { appInfo: { name: 'v', version: '1' }, protocolVersion: '2026-01-26', appCapabilities: {} } }, '*');
      addEventListener('DOMContentLoaded', () => {
        const atParsed = display();
        addEventListener('load', () => setTimeout(() => probe({ atParsed, loaded: look() })));
      });
    </script></head><body><p>a View</p></body></html>`;
    const channel = new FakeChannel({ html: view });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app server-id="basic" resource-uri="ui://get-time/mcp-app.html" sandbox-url=${sandboxUrl()} .channel=${channel as McpChannel}></ahp-mcp-app>`);
    const { seen, stop } = probes(el);
    try {
      const report = (await until(() => seen.find((r) => r['loaded']), 'the View\'s report')) as Record<string, unknown>;
      expect(report['atParsed'], 'out of rendering when its parsing ended').to.equal('none');
      expect((report['loaded'] as { display: string }).display, 'shown once its message was relayed').to.not.equal('none');
    } finally {
      stop();
    }
  });

  it('a View that never speaks is shown once loaded; one whose deferred script waits on the network is shown meanwhile', async function (this: { timeout(ms: number): void }) {
    this.timeout(30_000);
    const silent = `<!doctype html><html><head><title>v</title></head><body><p>static</p><script>${LOOK}
      addEventListener('load', () => setTimeout(() => probe({ loaded: look() })));</script></body></html>`;
    // Its deferred script (allowed by its CSP) arrives after 4 s; it looks at its frame without saying anything
    // (a message would show the frame) until it is shown or DOMContentLoaded comes, then reports which came first.
    const waiting = `<!doctype html><html><head><script defer src="${location.origin}/__test/slow.js?ms=4000"></script></head><body>
      <p>Loading…</p><script>${LOOK}
      let loaded = false;
      addEventListener('DOMContentLoaded', () => (loaded = true));
      const poll = setInterval(() => {
        if (look().display === 'none' && !loaded) return;
        clearInterval(poll);
        probe({ waiting: { ...look(), shownBeforeScripts: !loaded } });
      }, 20);</script></body></html>`;
    const cases = [
      { view: silent, key: 'loaded', meta: undefined },
      { view: waiting, key: 'waiting', meta: { csp: { resourceDomains: [location.origin] } } },
    ];
    for (const { view, key, meta } of cases) {
      const channel = new FakeChannel({ html: view, ...(meta && { contentMeta: meta }) });
      const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app server-id="basic" resource-uri="ui://get-time/mcp-app.html" sandbox-url=${sandboxUrl()} .channel=${channel as McpChannel}></ahp-mcp-app>`);
      const { seen, stop } = probes(el);
      try {
        const report = await until(() => seen.find((r) => r[key]), `the ${key} report`, 20_000) as Record<string, { display: string; width: number; shownBeforeScripts?: boolean }>;
        expect(report[key]!.display, key).to.not.equal('none');
        expect(report[key]!.width, key).to.be.greaterThan(0);
        if (key === 'waiting') expect(report[key]!.shownBeforeScripts, 'shown while its deferred script loads').to.equal(true);
      } finally {
        stop();
        el.remove();
      }
    }
  });
});

describe('the View\'s HTML handed to the proxy', () => {
  it('arrives as the same text, whatever its characters (UTF-8 bytes of up to 3 per UTF-16 unit, and 4 per pair)', async () => {
    // Latin-1, 2-byte, 3-byte (CJK, U+FFFF range) and 4-byte (surrogate pairs) characters, and a lone surrogate.
    const text = `Grüße · 東京 · \uFFFD\uFFEE · 🎉🧪 · ${'€'.repeat(5000)} · \uD800 · end`;
    const viewHtml = `<!doctype html><meta charset="utf-8"><p id="t">${text}</p><script type="module">parent.postMessage({ jsonrpc: '2.0', method: 'test/text', params: { text: document.getElementById('t').textContent } }, '*');</script>`;
    const frame = new SandboxFrame({ url: `${sandboxUrl()}?parent=${encodeURIComponent(location.origin)}` });
    let seen: string | undefined;
    try {
      frame.place(document.body);
      expect(await frame.ready).to.equal(true);
      // Read as the bridge reads the View: through the frame's transport (the proxy relays over the port it gets).
      const transport = frame.transport();
      transport.onmessage = (m) => {
        if ((m as { method?: string }).method === 'test/text') seen = (m as { params: { text: string } }).params.text;
      };
      frame.sendResource({ html: viewHtml });
      const got = await until(() => seen, 'the View\'s text');
      // The lone surrogate becomes U+FFFD, as any UTF-8 encoding of it does.
      expect(got).to.equal(text.replace('\uD800', '\uFFFD'));
    } finally {
      frame.remove();
    }
  });

  /** A proxy frame that announced itself, and what its View says with `test/text`. */
  async function proxyFrame(): Promise<{ frame: SandboxFrame; text: () => string | undefined; ask: () => void }> {
    const frame = new SandboxFrame({ url: `${sandboxUrl()}?parent=${encodeURIComponent(location.origin)}` });
    frame.place(document.body);
    expect(await frame.ready).to.equal(true);
    let seen: string | undefined;
    const transport = frame.transport();
    transport.onmessage = (m) => void ((m as { method?: string }).method === 'test/text' && (seen = (m as { params: { text: string } }).params.text));
    return { frame, text: () => seen, ask: () => (seen = undefined, transport.send({ jsonrpc: '2.0', method: 'test/ask' })) };
  }
  // The View says its text when it has run, and again whenever the page asks (`test/ask`).
  const REPORT = `<script type="module">
    const report = () => parent.postMessage({ jsonrpc: '2.0', method: 'test/text', params: { text: document.getElementById('t').textContent } }, '*');
    addEventListener('message', (e) => e.data?.method === 'test/ask' && report());
    report();</script>`;

  it('a View longer than one part (512 Ki units) arrives whole and in order, with a surrogate pair across the part boundary intact', async function (this: { timeout(ms: number): void }) {
    this.timeout(30_000);
    const head = '<!doctype html><meta charset="utf-8"><p id="t">';
    const PART = 512 * 1024;
    // The pair's first half is the last unit of the first part; then two more parts of 2- and 3-byte characters.
    const text = `${'a'.repeat(PART - 1 - head.length)}🎉${'é€'.repeat(PART)}·end`;
    expect(head.length + text.indexOf('🎉')).to.equal(PART - 1);
    const { frame, text: seen } = await proxyFrame();
    try {
      frame.sendResource({ html: `${head}${text}</p>${REPORT}` });
      const got = await until(seen, 'the View\'s text', 20_000);
      expect(got.length).to.equal(text.length);
      expect(got === text, 'the same text').to.equal(true);
    } finally {
      frame.remove();
    }
  });

  /**
   * A stand-in proxy on the second origin (test/fixtures/apps/bare-proxy.html), announcing parts or not, placed and
   * ready; `report()` asks it, through the frame's transport, for every sandbox-resource-ready it got (its answer
   * follows every message posted before the question).
   */
  async function bareProxy(parts: boolean): Promise<{ frame: SandboxFrame; report(): Promise<{ length: number; more: boolean }[]> }> {
    const frame = new SandboxFrame({ url: `${otherOrigin}/apps/bare-proxy.html?parent=${encodeURIComponent(location.origin)}${parts ? '&parts' : ''}` });
    frame.place(document.body);
    expect(await frame.ready).to.equal(true);
    let got: { length: number; more: boolean }[] | undefined;
    const transport = frame.transport();
    transport.onmessage = (m) => void ((m as { method?: string }).method === 'test/got' && (got = (m as { params: { got: typeof got } }).params.got));
    const report = () => (transport.send({ jsonrpc: '2.0', method: 'test/report' }), until(() => got, 'what the proxy got'));
    return { frame, report };
  }

  it('goes in parts only to a proxy that said it takes them (one deployed from an earlier version gets one message)', async () => {
    const html = 'x'.repeat(1_200_000);
    for (const parts of [false, true]) {
      const { frame, report } = await bareProxy(parts);
      try {
        frame.sendResource({ html });
        // Asked after the resource: the proxy answers once it has every message posted before.
        const seen = await report();
        if (!parts) expect(seen).to.deep.equal([{ length: html.length, more: false }]);
        else expect(seen).to.deep.equal([{ length: 512 * 1024, more: true }, { length: 512 * 1024, more: true }, { length: html.length - 1024 * 1024, more: false }]);
      } finally {
        frame.remove();
      }
    }
    // This version's proxy says it takes parts.
    let announced: unknown;
    const onReady = (e: MessageEvent) => void (e.data?.method === SANDBOX_METHODS.proxyReady && (announced = e.data.params));
    addEventListener('message', onReady);
    const { frame } = await proxyFrame();
    removeEventListener('message', onReady);
    frame.remove();
    expect(announced).to.deep.equal({ resourceParts: true });
  });

  it('encodes and posts one part per task (a part posted in a task leaves only when that task ends), and what the page sends meanwhile follows the last part', async () => {
    const html = 'x'.repeat(1_200_000);
    const { frame, report } = await bareProxy(true);
    const encodeInto = TextEncoder.prototype.encodeInto;
    let encoded = 0;
    try {
      TextEncoder.prototype.encodeInto = function (this: TextEncoder, ...args: Parameters<TextEncoder['encodeInto']>) {
        encoded++;
        return encodeInto.apply(this, args);
      };
      frame.sendResource({ html });
      expect(encoded, 'parts encoded in the task that hands the View over').to.equal(1);
      const seen = await report();
      expect(seen.map((p) => p.more)).to.deep.equal([true, true, false]);
      expect(encoded).to.equal(3);
    } finally {
      TextEncoder.prototype.encodeInto = encodeInto;
      frame.remove();
    }
  });

  it('the proxy writes parts as they come, a character split across two parts\' bytes included, closes the View\'s document after the last, and ignores a part without HTML and parts after the last', async () => {
    const { frame, text: seen, ask } = await proxyFrame();
    const post = (params: Record<string, unknown>, transfer: Transferable[] = []) =>
      frame.element.contentWindow!.postMessage({ jsonrpc: '2.0', method: SANDBOX_METHODS.resourceReady, params }, { targetOrigin: frame.origin, transfer });
    const bytes = (...parts: (string | number[])[]) => {
      const out = parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p));
      return new Uint8Array(out).buffer;
    };
    try {
      post({ html: '<!doctype html><meta charset="utf-8"><p id="t">one·', more: true });
      // "é" is C3 A9 in UTF-8: its first byte ends this part, its second starts the next.
      const second = bytes('two', [0xc3]);
      post({ html: second, more: true }, [second]);
      post({ html: 42, more: false });
      const last = bytes([0xa9], ` three</p>${REPORT}`);
      post({ html: last }, [last]);
      expect(await until(seen, 'the View\'s text')).to.equal('one·twoé three');
      // Written after the last part, it would open a new document (the View and its listener gone: no answer).
      const late = bytes('<p id="t">late</p>');
      post({ html: late }, [late]);
      ask();
      expect(await until(seen, 'the View\'s answer after a late part'), 'the late part ignored').to.equal('one·twoé three');
      expect(frame.element.contentWindow!.frames.length, 'one View frame').to.equal(1);
    } finally {
      frame.remove();
    }
  });
});

describe('the View\'s frame the proxy makes before the resource arrives', () => {
  // Says through its proxy where it runs and which permissions its frame has.
  const view = `<!doctype html><script type="module">
    const allows = (f) => document.featurePolicy.allowsFeature(f);
    parent.postMessage({ jsonrpc: '2.0', method: 'test/frame', params: { origin: location.origin, clipboard: allows('clipboard-write'), camera: allows('camera') } }, '*');
  </script>`;
  type Report = { origin: string; clipboard: boolean; camera: boolean };
  /** Runs `test` with a proxy frame (with `allow`) that announced itself and has made the View's frame. */
  async function withProxy(allow: string | undefined, test: (frame: SandboxFrame, ahead: Window, report: () => Report | undefined) => Promise<void>): Promise<void> {
    const frame = new SandboxFrame({ url: `${sandboxUrl()}?parent=${encodeURIComponent(location.origin)}`, allow });
    try {
      frame.place(document.body);
      expect(await frame.ready).to.equal(true);
      let report: Report | undefined;
      frame.transport().onmessage = (m) => void ((m as { method?: string }).method === 'test/frame' && (report = (m as { params: Report }).params));
      const proxy = frame.element.contentWindow!;
      const ahead = await until(() => proxy.frames[0], 'the frame the proxy made ahead');
      await test(frame, ahead, () => report);
    } finally {
      frame.remove();
    }
  }

  it('runs a View that needs the default sandbox and the permissions of its proxy frame in that frame', async () => {
    for (const allow of [undefined, 'clipboard-write']) {
      await withProxy(allow, async (frame, ahead, report) => {
        frame.sendResource({ html: view, ...(allow && { permissions: { clipboardWrite: {} } }) });
        const r = await until(report, `the View's report (allow ${allow})`);
        expect(frame.element.contentWindow!.frames[0] === ahead && !ahead.closed, `in the frame made ahead (allow ${allow})`).to.equal(true);
        expect(frame.element.contentWindow!.frames.length).to.equal(1);
        expect(r).to.deep.equal({ origin: frame.origin, clipboard: !!allow, camera: false });
      });
    }
  });

  it('gives a View that asks for other permissions a new frame with them (capped by its proxy frame\'s), and removes the one made ahead', () =>
    withProxy('clipboard-write', async (frame, ahead, report) => {
      frame.sendResource({ html: view, permissions: { camera: {} } });
      const r = await until(report, 'the View\'s report');
      await until(() => ahead.closed, 'the frame made ahead removed');
      // No camera (its proxy frame has none to give); clipboard-write as any frame of the proxy's origin inherits it.
      expect(r).to.deep.equal({ origin: frame.origin, clipboard: true, camera: false });
    }));

  it('does not use a frame made ahead that was navigated before the resource arrived', () =>
    withProxy(undefined, async (frame, ahead, report) => {
      // Navigated by this page: its new document has this page's origin (we can read it; the proxy no longer can).
      ahead.location.href = 'about:blank';
      await until(() => {
        try {
          return ahead.origin === location.origin;
        } catch {
          return false;
        }
      }, 'the frame made ahead navigated');
      frame.sendResource({ html: view });
      const r = await until(report, 'the View\'s report');
      expect(r.origin).to.equal(frame.origin);
      await until(() => ahead.closed, 'the navigated frame removed');
      expect(frame.element.contentWindow!.frames.length).to.equal(1);
    }));
});

describe('<ahp-mcp-app> far out of view', () => {
  it('a running View scrolled far away is suspended in its place and starts again when scrolled back, keeping the model context', async () => {
    const channel = new FakeChannel({ html: await drivenView({ toPage: true }) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    const wrap = await fixture<HTMLElement>(html`<div>
      <ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>
      <div style="height: 20000px"></div>
    </div>`);
    const el = wrap.querySelector<AhpMcpApp>('ahp-mcp-app')!;
    await until(() => el.matches(':state(ready)'), 'the View initialized');
    // Measured once the View reported its size (before that the frame has the default height).
    await until(() => el.shadowRoot!.querySelector('iframe')?.style.height, 'the View reported its size');
    const height = el.getBoundingClientRect().height;
    const context = { content: [{ type: 'text', text: 'what the View reported' }] };
    el.modelContext = context;
    try {
      window.scrollTo(0, 15_000);
      await until(() => el.matches(':state(suspended)'), 'suspended far out of view');
      expect(el.shadowRoot!.querySelector('iframe'), 'the View is gone').to.equal(null);
      expect(el.bridge).to.equal(undefined);
      expect(Math.abs(el.getBoundingClientRect().height - height)).to.be.lessThan(2, 'its place keeps its height');
      window.scrollTo(0, 0);
      await until(() => el.matches(':state(ready)'), 'started again when back in view');
      const log = viewLog(el);
      await until(() => log().includes('in:ui/notifications/tool-result'), 'the new View has the result again');
      expect(el.modelContext).to.equal(context);
      expect(channel.count('resources/read'), 'the resource is not read again').to.equal(1);
    } finally {
      window.scrollTo(0, 0);
    }
  });
});

describe('<ahp-mcp-app> connection state', () => {
  const RECONNECTING: ConnectionState = { kind: 'reconnecting', attempt: 3, nextAttemptAt: Date.now() + 60_000 };

  it('shows the banner and :state(disconnected) while not connected, and neither once open again', async () => {
    const channel = new FakeChannel({ html: await drivenView({}) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    handle.setConnectionState(RECONNECTING);
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
    const banner = () => el.shadowRoot!.querySelector<HTMLElement>('[part="connection"]');
    expect(banner()?.getAttribute('role')).to.equal('status');
    expect(banner()!.textContent).to.match(/\(attempt 3\)/);
    expect(el.matches(':state(disconnected)') && el.matches(':state(reconnecting)')).to.equal(true);
    handle.setConnectionState({ kind: 'closed', reason: 'host went away' });
    await el.updateComplete;
    expect(banner()!.textContent).to.include('host went away');
    expect(el.matches(':state(disconnected)')).to.equal(true);
    expect(el.matches(':state(closed)'), ':state(closed) stays the View\'s own').to.equal(false);
    handle.setConnectionState({ kind: 'open' });
    await el.updateComplete;
    expect(banner()).to.equal(null);
    expect(el.matches(':state(disconnected)')).to.equal(false);
  });

  it('inside <ahp-tool-call> only the tool call shows the banner', async () => {
    const channel = new FakeChannel({ html: await drivenView({}) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    handle.setConnectionState(RECONNECTING);
    const store = new FakeChatStore(session(), { [CHAT]: chatState([completed]) });
    const el = await fixture<AhpToolCall>(html`<ahp-tool-call .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1"></ahp-tool-call>`);
    const app = await until(() => el.shadowRoot!.querySelector<AhpMcpApp>('ahp-mcp-app') ?? undefined, 'the embedded App');
    await app.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="connection"]'), 'the tool call shows it').to.not.equal(null);
    expect(app.shadowRoot!.querySelector('[part="connection"]'), 'the App does not repeat it').to.equal(null);
    expect(app.matches(':state(disconnected)')).to.equal(true);
  });
});

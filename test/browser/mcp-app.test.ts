import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../elements/mcp-app/define.js';
import type { AhpMcpApp } from '../../elements/mcp-app/mcp-app.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import type { SessionState } from '../../src/protocol/session.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import { runSandboxProxy, SandboxProxyError } from '../../src/apps/sandbox-proxy.js';
import { MAX_VIEW_LENGTH } from '../../src/apps/resource.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { drivenView, type DriverOptions } from '../fixtures/apps/view-driver.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { collectViewProbes, pollUntil } from './fixtures/view-probes.js';
import { CHAT, FakeChatStore, chatState } from './fixtures/tool-calls.js';

type Probe = { kind: string; log: string[]; [k: string]: unknown };

const view = collectViewProbes<Probe>();
const { probes } = view;

const sandboxUrl = () => `${view.otherOrigin}/sandbox/sandbox-proxy.html`;
const lastLog = () => probes.at(-1)?.log ?? [];
/** Params of every host→View message with this method, as the View received them. */
const received = (method: string) =>
  probes.filter((p) => (p['last'] as { method?: string } | undefined)?.method === method).map((p) => (p['last'] as { params: unknown }).params);

const until = <T>(fn: () => T | undefined | false, what: string, ms = 8000): Promise<T> =>
  pollUntil(fn, what, ms, () => `View log: ${JSON.stringify(lastLog())}`);

async function waitReceived(method: string, what: string): Promise<unknown[]> {
  return until(() => (received(method).length ? received(method) : undefined), what);
}

/** The driver clicks from script (no user activation): tests of the plumbing let every intent through by policy. */
const ALLOW_ALL = { message: 'allow', openLink: 'allow', download: 'allow', displayMode: 'allow' } as const;

/** A View fed the standard result, once it has initialized. */
async function mountInitialized() {
  const mounted = await mountApp({ result: RESULT });
  await until(() => mounted.el.bridge?.initialized, 'initialized');
  return mounted;
}

async function mountApp(options: { driver?: DriverOptions; channel?: FakeChannel; input?: Record<string, unknown>; result?: unknown; contentMeta?: Record<string, unknown> } = {}) {
  const channel = options.channel ?? new FakeChannel({ html: await drivenView(options.driver), ...(options.contentMeta && { contentMeta: options.contentMeta }) });
  const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app
    server-id="basic"
    resource-uri="ui://get-time/mcp-app.html"
    sandbox-url=${sandboxUrl()}
    .channel=${channel as McpChannel}
    .capabilities=${ALL_CAPABILITIES}
    .toolInput=${options.input}
    .toolResult=${options.result}
    .intentPolicy=${ALLOW_ALL}
  ></ahp-mcp-app>`);
  return { el, channel };
}

const RESULT = { content: [{ type: 'text', text: 'now' }], structuredContent: { time: '2026-11-30T12:00:00Z' } };

describe('<ahp-mcp-app> with the real server-basic-vanillajs View', () => {
  it('handshake: initialize → initialized → tool-input → tool-result, nothing before initialized (result buffered)', async () => {
    const { el } = await mountApp({ result: RESULT });
    await until(() => lastLog().includes('in:ui/notifications/tool-result'), 'tool-result');
    const log = lastLog();
    const at = (s: string) => log.indexOf(s);
    expect(at('out:ui/initialize')).to.equal(0);
    expect(log[1]).to.match(/^in:result:/, 'the first thing the View receives is the initialize answer');
    expect(at('out:ui/notifications/initialized')).to.be.greaterThan(1);
    const hostMessages = log.filter((l) => l.startsWith('in:ui/'));
    expect(hostMessages.slice(0, 2)).to.deep.equal(['in:ui/notifications/tool-input', 'in:ui/notifications/tool-result']);
    expect(at('in:ui/notifications/tool-input')).to.be.greaterThan(at('out:ui/notifications/initialized'));
    expect(log.filter((l) => l === 'in:ui/notifications/tool-input')).to.have.length(1);
    expect(received('ui/notifications/tool-input')).to.deep.equal([{ arguments: {} }], 'no arguments → {}');
    await until(() => el.matches(':state(ready)'), 'ready state');
  });

  it('a View tools/call is relayed over the channel (app-visible tool) and its result shown', async () => {
    const { channel } = await mountApp({ result: RESULT, driver: { clicks: ['get-time-btn'] } });
    await until(() => channel.count('tools/call') === 1, 'tools/call relayed');
    expect(channel.requests.find((r) => r.method === 'tools/call')!.params).to.deep.include({ name: 'get-time' });
    await until(() => lastLog().some((l) => l.startsWith('in:result:') && l !== lastLog()[1]), 'the tools/call answer');
  });

  it('the View’s link and message requests become events; size-changed sizes the frame', async () => {
    const links: string[] = [];
    const messages: string[] = [];
    const onLink = (e: Event) => {
      e.preventDefault();
      links.push((e as CustomEvent).detail.url);
    };
    const onMessage = (e: Event) => {
      e.preventDefault();
      messages.push((e as CustomEvent).detail.text);
    };
    document.addEventListener('ahp-app-open-link', onLink);
    document.addEventListener('ahp-app-message', onMessage);
    try {
      const { el } = await mountApp({ result: RESULT, driver: { clicks: ['open-link-btn', 'send-message-btn'] } });
      await until(() => links.length && messages.length, 'link and message events');
      expect(links).to.deep.equal(['https://modelcontextprotocol.io/']);
      expect(messages).to.deep.equal(['This is message text.']);
      const frame = el.shadowRoot!.querySelector('iframe')!;
      await until(() => parseInt(frame.style.height) > 100, 'height from size-changed');
      expect(frame.getAttribute('sandbox')).to.equal('allow-scripts allow-same-origin allow-forms');
    } finally {
      document.removeEventListener('ahp-app-open-link', onLink);
      document.removeEventListener('ahp-app-message', onMessage);
    }
  });

  it('display mode: fullscreen and back through the host-owned exit, announced to the View', async () => {
    const { el } = await mountInitialized();
    const events: string[] = [];
    el.addEventListener('ahp-app-display-mode', (e) => events.push(e.detail.mode));
    const iframe = el.shadowRoot!.querySelector('iframe');
    (el as unknown as { applyDisplayMode(m: string): string }).applyDisplayMode('fullscreen');
    await el.updateComplete;
    expect(el.getAttribute('display-mode')).to.equal('fullscreen');
    expect(el.matches(':state(fullscreen)')).to.equal(true);
    const frame = el.shadowRoot!.querySelector('.frame')!;
    expect(getComputedStyle(frame).position).to.equal('fixed');
    await until(() => lastLog().includes('in:ui/notifications/host-context-changed'), 'host-context-changed');
    const exit = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="exit"]')!;
    exit.click();
    await el.updateComplete;
    expect(el.getAttribute('display-mode')).to.equal('inline');
    expect(events).to.deep.equal(['fullscreen', 'inline']);
    expect(el.shadowRoot!.querySelector('iframe'), 'same frame, no remount').to.equal(iframe);
    await until(() => probes.filter((p) => (p['last'] as { method?: string })?.method === 'ui/notifications/host-context-changed').length === 2, 'second diff');
    const diffs = probes.filter((p) => (p['last'] as { method?: string })?.method === 'ui/notifications/host-context-changed').map((p) => (p['last'] as { params: { displayMode?: string } }).params.displayMode);
    expect(diffs).to.deep.equal(['fullscreen', 'inline']);
  });

  it('View requests: app-visible tools relayed, model-only refused; display mode, model context and download reach the host', async () => {
    const contexts: unknown[] = [];
    const downloads: string[][] = [];
    const onContext = (e: Event) => contexts.push((e as CustomEvent).detail);
    const onDownload = (e: Event) => {
      e.preventDefault();
      downloads.push((e as CustomEvent).detail.contents.map((c: { fileName: string }) => c.fileName));
    };
    document.addEventListener('ahp-app-model-context', onContext);
    document.addEventListener('ahp-app-download', onDownload);
    try {
      const { el, channel } = await mountApp({
        result: RESULT,
        driver: {
          requests: [
            { method: 'tools/call', params: { name: 'app-only', arguments: {} } },
            { method: 'tools/call', params: { name: 'model-only', arguments: {} } },
            { method: 'ui/request-display-mode', params: { mode: 'pip' } },
            { method: 'ui/update-model-context', params: { structuredContent: { picked: 3 } } },
            { method: 'ui/download-file', params: { contents: [{ type: 'resource', resource: { uri: 'file:///tmp/..%2F..%2Fsecret/report.csv', mimeType: 'text/csv', text: 'a,b' } }] } },
            { method: 'prompts/list' },
          ],
        },
      });
      const answers = await until(() => {
        const a = probes.filter((p) => p.kind === 'answer');
        return a.length === 6 && new Map(a.map((p) => [p['id'], p['message'] as Record<string, any>]));
      }, 'six answers');
      expect(answers.get('drv-0')!['result'].structuredContent).to.deep.equal({ time: 'TIME-FROM-app-only' });
      expect(answers.get('drv-1')!['error'], 'model-only refused').to.be.an('object');
      expect(channel.requests.filter((r) => r.method === 'tools/call').map((r) => r.params!['name'])).to.deep.equal(['app-only']);
      expect(answers.get('drv-2')!['result']).to.deep.equal({ mode: 'pip' });
      expect(el.getAttribute('display-mode')).to.equal('pip');
      expect(el.shadowRoot!.querySelector('[part="exit"]')!.textContent).to.match(/picture-in-picture/);
      expect(answers.get('drv-3')!['result']).to.deep.equal({});
      expect(contexts).to.deep.equal([{ structuredContent: { picked: 3 } }]);
      expect(el.modelContext).to.deep.equal({ structuredContent: { picked: 3 } });
      expect(downloads).to.deep.equal([['report.csv']]);
      expect(answers.get('drv-5')!['error'].code).to.equal(-32601);
    } finally {
      document.removeEventListener('ahp-app-model-context', onContext);
      document.removeEventListener('ahp-app-download', onDownload);
    }
  });

  it('teardown: the View answers ui/resource-teardown; removal closes the bridge', async () => {
    const { el } = await mountInitialized();
    const answered = await el.teardown();
    expect(answered).to.equal(true);
    expect(probes.some((p) => p.log.includes('in:ui/resource-teardown'))).to.equal(true);
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
    el.requestUpdate();
    await el.updateComplete;
    await new Promise((r) => setTimeout(r, 50));
    expect(el.shadowRoot!.querySelector('iframe'), 'stays closed').to.equal(null);
    expect(el.matches(':state(closed)')).to.equal(true);
  });

  it('a colour-scheme change reaches the View as a host-context-changed diff with the theme', async () => {
    const { el } = await mountInitialized();
    try {
      await emulateMedia({ colorScheme: 'dark' });
      const [diff] = await waitReceived('ui/notifications/host-context-changed', 'theme diff');
      expect(diff).to.have.property('theme', 'dark');
      expect(diff).to.not.have.property('locale');
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('a View’s request-teardown runs the normal teardown flow', async () => {
    const { el } = await mountApp({ result: RESULT, driver: { notifications: [{ method: 'ui/notifications/request-teardown' }] } });
    await until(() => el.matches(':state(closed)'), 'closed');
    expect(probes.some((p) => p.log.includes('in:ui/resource-teardown'))).to.equal(true);
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
  });

  it('keeps the View alive across moveBefore()', async function () {
    const { el } = await mountInitialized();
    const parent = el.parentElement!;
    const other = document.createElement('div');
    parent.append(other);
    if (!('moveBefore' in other)) this.skip();
    const bridge = el.bridge;
    (other as unknown as { moveBefore(n: Node, c: Node | null): void }).moveBefore(el, null);
    await el.updateComplete;
    expect(el.bridge).to.equal(bridge);
    expect(el.matches(':state(ready)')).to.equal(true);
  });
});

describe('<ahp-mcp-app> from a tool call in the store', () => {
  const session = {
    provider: 't', title: 'S', status: 1, lifecycle: 'ready', activeClients: [], chats: [],
    customizations: [{ type: 'mcpServer', id: 'basic', uri: 'mcp-config:/basic', name: 'Basic', state: { kind: 'ready' }, channel: 'mcp://basic', mcpApp: { capabilities: ALL_CAPABILITIES } }],
  } as unknown as SessionState;
  const base = { toolCallId: 'tc1', toolName: 'get-time', displayName: 'Get time', contributor: { kind: 'mcp', customizationId: 'basic' }, _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } } };

  it('follows the tool call: input from the store, tool-cancelled on cancellation, toolInfo', async () => {
    const channel = new FakeChannel({ html: await drivenView({}) });
    const handle = new FakeHandle({ channels: (id: string) => (id === 'basic' ? (channel as McpChannel) : undefined) });
    const running = { ...base, status: 'running', invocationMessage: 'Getting time', toolInput: '{"tz":"UTC"}', confirmed: 'not-needed' } as unknown as ToolCallState;
    const store = new FakeChatStore(session, { [CHAT]: chatState([running]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
    const [input] = await waitReceived('ui/notifications/tool-input', 'tool-input');
    expect(input).to.deep.equal({ arguments: { tz: 'UTC' } });
    store.setChat(CHAT, chatState([{ ...running, status: 'cancelled', reason: 'denied', reasonMessage: 'Stopped by the user' } as unknown as ToolCallState]));
    const [cancelled] = await waitReceived('ui/notifications/tool-cancelled', 'tool-cancelled');
    expect(cancelled).to.deep.equal({ reason: 'Stopped by the user' });
    expect(received('ui/notifications/tool-input')).to.have.length(1);
    expect(el.bridge!.hostContext.toolInfo?.tool.name).to.equal('get-time');
  });
  it('a completed call reaches the View as tool-result; a View message starts a user turn in the chat', async () => {
    const channel = new FakeChannel({ html: await drivenView({ clicks: ['send-message-btn'] }) });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const done = {
      ...base, status: 'completed', invocationMessage: 'Getting time', toolInput: '{}', confirmed: 'not-needed', success: true,
      pastTenseMessage: 'Got time', content: [{ type: 'text', text: 'noon' }], structuredContent: { time: 'NOON' },
    } as unknown as ToolCallState;
    const store = new FakeChatStore(session, { [CHAT]: chatState([done]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
    const [result] = await waitReceived('ui/notifications/tool-result', 'tool-result');
    expect(result).to.deep.equal({ content: [{ type: 'text', text: 'noon' }], structuredContent: { time: 'NOON' } });
    // A scripted click is no user interaction: the host asks first, in its own prompt naming the server.
    const prompt = (await until(() => el.shadowRoot!.querySelector('[part~="prompt"]'), 'the prompt'))!;
    expect(prompt.textContent).to.include('Basic wants to send: “This is message text.”');
    expect(store.sent.some((s) => s.action.type === 'chat/turnStarted')).to.equal(false);
    (prompt.querySelector('[part~="prompt-confirm"]') as HTMLButtonElement).click();
    const turn = await until(() => store.sent.find((s) => s.action.type === 'chat/turnStarted'), 'chat/turnStarted');
    expect(turn.channel).to.equal(CHAT);
    const message = (turn.action as unknown as { message: { text: string; origin: { kind: string }; _meta: Record<string, unknown> } }).message;
    expect(message).to.deep.include({ text: 'This is message text.', origin: { kind: 'user' } });
    expect(message._meta['ahp-elements/fromMcpApp']).to.deep.equal({ serverId: 'basic', server: 'Basic', toolCallId: 'tc1' }, 'marked as the App\'s');
  });

  it('a model context the View sets while its message waits for the user is kept for the next message, not attached to this one', async () => {
    const channel = new FakeChannel({
      html: await drivenView({
        requests: [
          { method: 'ui/update-model-context', params: { content: [{ type: 'text', text: 'before' }] } },
          { method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'the message' }] } },
          { method: 'ui/update-model-context', params: { content: [{ type: 'text', text: 'after' }] } },
        ],
      }),
    });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    const done = { ...base, status: 'completed', invocationMessage: 'Getting time', toolInput: '{}', confirmed: 'not-needed', success: true, pastTenseMessage: 'Got time', content: [{ type: 'text', text: 'noon' }], structuredContent: { time: 'NOON' } } as unknown as ToolCallState;
    const store = new FakeChatStore(session, { [CHAT]: chatState([done]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()}></ahp-mcp-app>`);
    const answered = (id: string) => probes.some((p) => p.kind === 'answer' && p['id'] === id);
    // A scripted request is no user interaction: the message waits on the host's prompt while the View sets a new context.
    const prompt = (await until(() => el.shadowRoot!.querySelector('[part~="prompt"]'), 'the prompt'))!;
    await until(() => answered('drv-2'), 'the later context answered');
    expect(el.modelContext).to.deep.equal({ content: [{ type: 'text', text: 'after' }] });
    (prompt.querySelector('[part~="prompt-confirm"]') as HTMLButtonElement).click();
    const turn = await until(() => store.sent.find((s) => s.action.type === 'chat/turnStarted'), 'chat/turnStarted');
    const meta = (turn.action as unknown as { message: { _meta: Record<string, unknown> } }).message._meta;
    expect(meta['mcpAppModelContext']).to.deep.equal({ content: [{ type: 'text', text: 'before' }] }, 'the context set before the message');
    expect(el.modelContext).to.deep.equal({ content: [{ type: 'text', text: 'after' }] }, 'kept for the next message');
  });

  it('while the session is not connected, a View message is refused with the reason: nothing is dispatched, the model context is kept', async () => {
    const say = { role: 'user', content: [{ type: 'text', text: 'sent while down' }] };
    const channel = new FakeChannel({
      html: await drivenView({ requests: [{ method: 'ui/update-model-context', params: { content: [{ type: 'text', text: 'ctx' }] } }, { method: 'ui/message', params: say }] }),
    });
    const handle = new FakeHandle({ channels: () => channel as McpChannel });
    handle.setConnectionState({ kind: 'reconnecting', attempt: 1 });
    const done = { ...base, status: 'completed', invocationMessage: 'Getting time', toolInput: '{}', confirmed: 'not-needed', success: true, pastTenseMessage: 'Got time', content: [{ type: 'text', text: 'noon' }], structuredContent: { time: 'NOON' } } as unknown as ToolCallState;
    const store = new FakeChatStore(session, { [CHAT]: chatState([done]) });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .store=${store} .handle=${handle} chat=${CHAT} tool-call-id="tc1" sandbox-url=${sandboxUrl()} .intentPolicy=${ALLOW_ALL}></ahp-mcp-app>`);
    const answer = (id: string) => probes.find((p) => p.kind === 'answer' && p['id'] === id)?.['message'] as { result?: unknown; error?: { code: number; message: string } } | undefined;
    const refused = await until(() => answer('drv-1'), 'the message answered');
    expect(answer('drv-0')?.result).to.deep.equal({});
    expect(refused.error?.code).to.equal(-32000);
    expect(refused.error?.message).to.include('Not connected');
    expect(store.sent.some((s) => s.action.type === 'chat/turnStarted')).to.equal(false, 'nothing dispatched');
    expect(el.modelContext).to.deep.equal({ content: [{ type: 'text', text: 'ctx' }] }, 'the model context waits for the next message');
  });
});

describe('MCP App sandbox security', () => {
  it('the View cannot read the host document or navigate the top window', async () => {
    const href = location.href;
    await mountApp({ result: RESULT, driver: { probeTop: true } });
    const probe = await until(() => probes.find((p) => p.kind === 'top'), 'top probe');
    expect(probe['topTitle']).to.equal(undefined);
    expect(probe['topError']).to.equal('SecurityError');
    expect(probe['hostError']).to.equal('SecurityError');
    expect(probe['navigated']).to.not.equal(true);
    expect(location.href).to.equal(href);
  });

  it('a fetch to an undeclared loopback origin is blocked by the CSP header; a declared one is allowed', async () => {
    const target = `${location.origin}/__test/cors.json`;
    expect((await (await fetch(target)).json()).ok).to.equal(true);
    await mountApp({ result: RESULT, driver: { fetches: [target] } });
    const blocked = await until(() => probes.find((p) => p.kind === 'fetch'), 'fetch result');
    expect(blocked['ok']).to.equal(false);
    await until(() => probes.find((p) => p.kind === 'csp' && String(p['blockedURI']).startsWith(location.origin)), 'CSP violation report');

    probes.length = 0;
    await mountApp({ result: RESULT, driver: { fetches: [target] }, contentMeta: { csp: { connectDomains: [location.origin] } } });
    const allowed = await until(() => probes.find((p) => p.kind === 'fetch'), 'fetch result');
    expect(allowed['ok']).to.equal(true);
  });

  it('Apps of two servers on their own sandbox origins cannot see each other’s localStorage', async () => {
    const { sandboxOrigin2 } = await (await fetch('/__test/env.json')).json();
    const key = `k${Math.random()}`;
    await mountApp({ result: RESULT, driver: { storage: { set: [key, 'from-A'], get: key } } });
    const a = await until(() => probes.find((p) => p.kind === 'storage'), 'A storage');
    expect(a['value']).to.equal('from-A');
    probes.length = 0;
    const channel = new FakeChannel({ html: await drivenView({ storage: { get: key } }) });
    await fixture<AhpMcpApp>(html`<ahp-mcp-app server-id="other" resource-uri="ui://get-time/mcp-app.html" sandbox-url=${`${sandboxOrigin2}/sandbox/sandbox-proxy.html`}
      .channel=${channel as McpChannel} .capabilities=${ALL_CAPABILITIES} .toolResult=${RESULT}></ahp-mcp-app>`);
    const b = await until(() => probes.find((p) => p.kind === 'storage'), 'B storage');
    expect(b['origin']).to.equal(sandboxOrigin2);
    expect(a['origin']).to.not.equal(b['origin']);
    expect(b['value']).to.equal(null);
  });

  it('messages from another frame or origin are ignored', async () => {
    const { el } = await mountInitialized();
    const links: string[] = [];
    el.addEventListener('ahp-app-open-link', (e) => (e.preventDefault(), links.push(e.detail.url)));
    // A same-page frame and a cross-origin frame both post a well-formed View request to the host.
    const forged = { jsonrpc: '2.0', id: 99, method: 'ui/open-link', params: { url: 'https://evil.example/' } };
    const local = document.createElement('iframe');
    document.body.append(local);
    local.contentWindow!.parent.postMessage(forged, '*');
    window.postMessage(forged, '*');
    const foreign = document.createElement('iframe');
    foreign.srcdoc = `<script>parent.postMessage(${JSON.stringify(forged)}, '*')</script>`;
    document.body.append(foreign);
    await new Promise((r) => setTimeout(r, 300));
    expect(links).to.deep.equal([]);
    local.remove();
    foreign.remove();
  });

  it('refuses a sandbox-url on the page’s own origin with a clear error', async () => {
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app server-id="s" resource-uri="ui://x" sandbox-url="/sandbox/sandbox-proxy.html" .channel=${new FakeChannel() as McpChannel}></ahp-mcp-app>`);
    await until(() => el.matches(':state(error)'), 'error state');
    expect(el.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.match(/another origin/);
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
  });

  it('a View over the size limit (text or base64 blob) shows the size error, loads no frame, and the page runs the next App', async () => {
    const channelWith = (item: Record<string, unknown>) => {
      const channel = new FakeChannel();
      const request = channel.request.bind(channel);
      channel.request = (async (method: string, params?: Record<string, unknown>) => {
        if (method !== 'resources/read') return request(method, params);
        channel.requests.push({ method, params });
        return { contents: [{ uri: 'ui://get-time/mcp-app.html', mimeType: 'text/html;profile=mcp-app', ...item }] };
      }) as FakeChannel['request'];
      return channel;
    };
    const blob = 'PHA+'.repeat(Math.ceil((MAX_VIEW_LENGTH + 1) / 3)); // "<p>" repeated, decoded just over the limit
    for (const item of [{ text: 'x'.repeat(MAX_VIEW_LENGTH + 1) }, { blob }]) {
      const { el, channel } = await mountApp({ channel: channelWith(item) });
      await until(() => el.matches(':state(error)'), 'error state');
      const alert = el.shadowRoot!.querySelector('[role="alert"]')!;
      expect(alert.textContent).to.equal('App not shown: ui://get-time/mcp-app.html is over the 16 MB limit.');
      expect(el.shadowRoot!.querySelector('iframe'), 'no sandbox frame left').to.equal(null);
      expect(channel.count('resources/read')).to.equal(1);
    }
    // The page is fine: a real View starts next.
    const { el } = await mountApp({ result: RESULT });
    await until(() => el.bridge?.initialized, 'the next App initialized');
  });

  it('a page without any sandbox gets a quiet note, not red alert text', async () => {
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app server-id="s" resource-uri="ui://x" .channel=${new FakeChannel() as McpChannel}></ahp-mcp-app>`);
    await until(() => el.matches(':state(error)'), 'error state');
    const status = el.shadowRoot!.querySelector<HTMLElement>('[part~="status"]')!;
    expect(status.dataset.kind).to.equal('no-sandbox');
    expect(status.getAttribute('role')).to.equal(null);
    const probe = document.createElement('span');
    probe.style.color = 'var(--_danger)';
    el.shadowRoot!.append(probe);
    expect(getComputedStyle(status).color).to.not.equal(getComputedStyle(probe).color);
    probe.remove();
  });

  it('the proxy page refuses to run unframed, or framed by a page of its own origin', async () => {
    expect(() => runSandboxProxy(window)).to.throw(SandboxProxyError, /only runs inside/);
    const ready: unknown[] = [];
    const onReady = (e: MessageEvent) => e.data?.method === 'ui/notifications/sandbox-proxy-ready' && ready.push(e.source);
    window.addEventListener('message', onReady);
    try {
      // Control: framed from another origin with ?parent it announces itself.
      const good = document.createElement('iframe');
      good.src = `${sandboxUrl()}?parent=${encodeURIComponent(location.origin)}`;
      document.body.append(good);
      await until(() => ready.includes(good.contentWindow), 'ready from the proper sandbox');
      // Same origin as the top window: it must refuse and say why.
      const bad = document.createElement('iframe');
      bad.src = `/__test/same-origin-sandbox.html?parent=${encodeURIComponent('http://example.invalid')}`;
      document.body.append(bad);
      await until(() => bad.contentDocument?.body?.textContent?.includes('same origin'), 'refusal text');
      expect(ready.includes(bad.contentWindow)).to.equal(false);
      // Without ?parent it refuses too.
      const noParent = document.createElement('iframe');
      noParent.src = sandboxUrl();
      document.body.append(noParent);
      await new Promise((r) => setTimeout(r, 300));
      expect(ready.includes(noParent.contentWindow)).to.equal(false);
      for (const f of [good, bad, noParent]) f.remove();
    } finally {
      window.removeEventListener('message', onReady);
    }
  });
});

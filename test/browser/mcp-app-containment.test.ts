// A hostile View against <ahp-mcp-app>: side effects need the user (direct only right after an interaction with
// that App, else a host-owned prompt), the policy per kind, blocked popups reported, a hijacked proxy frame stops the
// App, floods and oversized messages are refused without stalling the page, Escape leaves fullscreen.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys, sendMouse } from '@web/test-runner-commands';
import '../../elements/mcp-app/define.js';
import { AhpMcpApp } from '../../elements/mcp-app/mcp-app.js';
import type { AppIntentPolicy } from '../../elements/mcp-app/intent-gate.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import { LIMIT_ERROR_CODE } from '../../src/apps/bridge.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { hostileView } from '../fixtures/apps/hostile-view.js';
import { collectViewProbes, probeWaits, type KindProbe } from './fixtures/view-probes.js';
import { withPopupBlocker } from './fixtures/popup-blocker.js';

const view = collectViewProbes<KindProbe>();
const { probes } = view;
const { until, probe } = probeWaits(probes);

async function mount(script: string, intentPolicy?: AppIntentPolicy, viewOptions: { tools?: boolean; noWait?: boolean } = {}) {
  const channel = new FakeChannel({ html: hostileView(script, viewOptions) });
  const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app
    server-id="budget"
    resource-uri="ui://get-time/mcp-app.html"
    sandbox-url=${`${view.otherOrigin}/sandbox/sandbox-proxy.html`}
    .channel=${channel as McpChannel}
    .capabilities=${ALL_CAPABILITIES}
    .intentPolicy=${intentPolicy}
  ></ahp-mcp-app>`);
  if (!viewOptions.noWait) await until(() => el.bridge?.initialized, 'the View initialized');
  return el;
}
const promptOf = (el: AhpMcpApp) => el.shadowRoot!.querySelector('[part~="prompt"]');
const collect = (name: string) => {
  const seen: unknown[] = [];
  const on = (e: Event) => {
    e.preventDefault();
    seen.push((e as CustomEvent).detail);
  };
  document.addEventListener(name, on);
  return { seen, stop: () => document.removeEventListener(name, on) };
};

/**
 * Two animation frames of the page. Clicks are routed by what each frame last rendered: a click sent right after the
 * View appeared or changed size can go to the page's <iframe> element instead of into the View.
 */
const rendered = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));

describe('<ahp-mcp-app> intents need the user', () => {
  it('without an interaction a message waits for the host-owned prompt; Send lets it through, Dismiss refuses it', async () => {
    const messages = collect('ahp-app-message');
    try {
      const el = await mount(`report('first', { answer: await message('/call everything get-sum {"a":1}') }); report('second', { answer: await message('again') });`);
      const prompt = await until(() => promptOf(el), 'the prompt');
      expect(prompt.textContent).to.include('budget wants to send: “/call everything get-sum {"a":1}”');
      expect(messages.seen).to.have.length(0, 'nothing reached the page before the user answered');
      (prompt.querySelector('[part~="prompt-confirm"]') as HTMLButtonElement).click();
      await until(() => probe('first'), 'first answer');
      expect((probe('first')!['answer'] as { result: unknown }).result).to.deep.equal({});
      expect(messages.seen).to.have.length(1);
      (await until(() => promptOf(el)?.querySelector('[part~="prompt-dismiss"]') as HTMLButtonElement | null, 'second prompt')).click();
      await until(() => probe('second'), 'second answer');
      expect((probe('second')!['answer'] as { result: { isError?: boolean } }).result.isError).to.equal(true);
      expect(messages.seen).to.have.length(1, 'the dismissed one never reached the page');
    } finally {
      messages.stop();
    }
  });

  it('right after the user clicks into the App one message goes through directly; a second from the same click asks', async () => {
    const messages = collect('ahp-app-message');
    try {
      const el = await mount(`addEventListener('pointerdown', async () => {
        report('first', { answer: await message('one') });
        report('second', { answer: await message('two') });
      }, { once: true }); requestAnimationFrame(() => requestAnimationFrame(() => report('armed')));`);
      await until(() => probe('armed'), 'armed');
      await rendered();
      const r = el.shadowRoot!.querySelector('iframe')!.getBoundingClientRect();
      await sendMouse({ type: 'click', position: [Math.round(r.left + r.width / 2), Math.round(r.top + 20)] });
      await until(() => probe('first'), 'first answer');
      expect((probe('first')!['answer'] as { result: unknown }).result).to.deep.equal({}, 'honoured directly');
      expect(messages.seen).to.have.length(1);
      const prompt = await until(() => promptOf(el), 'a prompt for the second');
      expect(prompt.textContent).to.include('two');
      (prompt.querySelector('[part~="prompt-dismiss"]') as HTMLButtonElement).click();
      await until(() => probe('second'), 'second answer');
      expect(messages.seen).to.have.length(1);
    } finally {
      messages.stop();
      await sendMouse({ type: 'click', position: [1, 1] });
    }
  });

  it('the policy: deny refuses every kind without asking; allow honours without an interaction', async () => {
    const downloads = collect('ahp-app-download');
    const links = collect('ahp-app-open-link');
    try {
      const denied = await mount(
        `report('answers', { message: await message('x'), link: await rpc('ui/open-link', { url: 'https://example.com/' }),
          download: await rpc('ui/download-file', { contents: [{ type: 'resource', resource: { uri: 'file:///evil.sh', text: 'rm -rf', mimeType: 'text/plain' } }] }),
          mode: await rpc('ui/request-display-mode', { mode: 'fullscreen' }) });`,
        { message: 'deny', openLink: 'deny', download: 'deny', displayMode: 'deny' },
      );
      const answers = (await until(() => probe('answers'), 'answers')) as Record<string, { result: Record<string, unknown> }>;
      expect(answers['message']!.result.isError).to.equal(true);
      expect(answers['link']!.result.isError).to.equal(true);
      expect(answers['download']!.result.isError).to.equal(true);
      expect(answers['mode']!.result.mode).to.equal('inline');
      expect(promptOf(denied)).to.equal(null);
      expect(downloads.seen.length + links.seen.length).to.equal(0);
      probes.length = 0;
      await mount(`report('answers', { download: await rpc('ui/download-file', { contents: [{ type: 'resource', resource: { uri: 'file:///ok.txt', text: 'ok', mimeType: 'text/plain' } }] }) });`, { download: 'allow' });
      await until(() => probe('answers'), 'answers');
      expect(downloads.seen).to.have.length(1);
    } finally {
      downloads.stop();
      links.stop();
    }
  });

  it('open-link reports failure when the browser blocked the window', async () => {
    // The test browser runs with popup blocking off; a blocked window.open answers null, as here.
    const open = window.open;
    const opened: unknown[] = [];
    window.open = (...args: unknown[]) => (opened.push(args), null);
    try {
      const el = await mount(`report('answer', { answer: await rpc('ui/open-link', { url: 'https://example.com/blocked' }) });`, { openLink: 'allow' });
      const answer = (await until(() => probe('answer'), 'answer'))['answer'] as { result: { isError?: boolean } };
      expect(opened).to.have.length(1);
      expect(answer.result.isError).to.equal(true);
      expect(el.matches(':state(ready)')).to.equal(true);
    } finally {
      window.open = open;
    }
  });

  it('a link the user allows in the prompt opens in the task of the Open click (a popup blocker lets it through)', async () => {
    const url = `${location.origin}/__test/env.json`;
    const el = await mount(`report('answer', { answer: await rpc('ui/open-link', { url: ${JSON.stringify(url)} }) });`);
    const prompt = await until(() => promptOf(el), 'the prompt');
    await withPopupBlocker(async (blocker) => {
      blocker.click(prompt.querySelector('[part~="prompt-confirm"]') as HTMLButtonElement);
      const answer = (await until(() => probe('answer'), 'answer'))['answer'] as { result: { isError?: boolean } };
      expect(blocker.blocked, 'no window.open after the click\'s task').to.equal(0);
      expect(blocker.opened).to.have.length(1);
      expect(answer.result.isError).to.equal(undefined);
      blocker.opened[0]!.close();
    });
  });

  it('display mode needs the user too; Escape leaves fullscreen and focus returns to the App', async function (this: Mocha.Context) {
    // Five waits in a row (View, prompt, fullscreen, focus, inline), each up to 10 s: with the default 10 s for the
    // whole test, a slow step on a busy machine (seen once in a full run) showed as a bare timeout instead of its name.
    this.timeout(30_000);
    const el = await mount(`report('answer', { answer: await rpc('ui/request-display-mode', { mode: 'fullscreen' }) });`);
    const prompt = await until(() => promptOf(el), 'the prompt');
    expect(prompt.textContent).to.include('full screen');
    const allow = prompt.querySelector('[part~="prompt-confirm"]') as HTMLButtonElement;
    allow.focus();
    allow.click();
    await until(() => el.matches(':state(fullscreen)'), 'fullscreen');
    await until(() => el.shadowRoot!.activeElement === el.shadowRoot!.querySelector('iframe'), 'focus back in the App after the prompt');
    const exit = el.shadowRoot!.querySelector('[part~="exit"]') as HTMLButtonElement;
    exit.focus();
    await sendKeys({ press: 'Escape' });
    await until(() => el.matches(':state(inline)'), 'inline after Escape');
    expect(el.shadowRoot!.activeElement).to.equal(el.shadowRoot!.querySelector('iframe'));
  });
});

describe('<ahp-mcp-app> containment', () => {
  it('a View that navigates its sandbox proxy away is torn down at once with a visible error and gets nothing more', async () => {
    // The View shares the proxy's origin: it injects a script into the proxy page, which navigates itself.
    const el = await mount(`const s = proxy.document.createElement('script');
      s.textContent = 'location.href = location.origin + "/attacker?stolen=" + encodeURIComponent(document.title)';
      proxy.document.body.appendChild(s);`);
    await until(() => el.matches(':state(error)'), 'error state');
    expect(el.shadowRoot!.querySelector('[part~="status"]')!.textContent).to.include('sandbox frame was navigated away');
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null, 'the attacker page is gone from the card');
    expect(el.bridge).to.equal(undefined);
  });

  it('a flood of 10,000 messages a second is cut by the sandbox proxy: the View gets errors, nothing reaches the page, one prompt', async () => {
    // The page's responsiveness under the flood (long tasks) is measured by `npm run bench:apps`, not timed here.
    const messages = collect('ahp-app-message');
    try {
      const el = await mount(`let limited = 0;
        addEventListener('message', (e) => { if (e.data && e.data.error && e.data.error.code === -32000) limited++; });
        for (let round = 0; round < 10; round++) {
          for (let i = 0; i < 1000; i++) post({ jsonrpc: '2.0', id: 'f' + round + '-' + i, method: 'ui/message', params: { role: 'user', content: [{ type: 'text', text: 'spam ' + i }] } });
          await new Promise((r) => setTimeout(r, 100));
        }
        report('flooded', { limited });`);
      const flooded = await until(() => probe('flooded'), 'the flood sent', 20_000);
      expect(flooded['limited'] as number).to.be.greaterThan(0, 'the View is told it is over the limit');
      expect(messages.seen).to.have.length(0);
      expect(el.shadowRoot!.querySelectorAll('[part~="prompt"]').length).to.equal(1, 'one question, not thousands');
      expect(el.matches(':state(ready)')).to.equal(true, 'an App that only pushes against the limit keeps running');
    } finally {
      messages.stop();
    }
  });

  it('a View that scripts its proxy to flood the page directly is stopped by the page\'s own limit', async () => {
    const el = await mount(`const s = proxy.document.createElement('script');
      s.textContent = 'for (let i = 0; i < 5000; i++) parent.postMessage({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: i } }, "*")';
      proxy.document.body.appendChild(s);`, undefined, { noWait: true });
    await until(() => el.matches(':state(error)'), 'stopped');
    expect(el.shadowRoot!.querySelector('[part~="status"]')!.textContent).to.include('sent far more messages than allowed');
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
  });

  it('an oversized message is refused with an error to the View', async () => {
    const el = await mount(`report('answer', { answer: await rpc('ui/message', { role: 'user', content: [{ type: 'text', text: 'x'.repeat(6 * 1024 * 1024) }] }) });`, { message: 'allow' });
    const answer = (await until(() => probe('answer'), 'answer'))['answer'] as { error?: { code: number; message: string } };
    expect(answer.error?.code).to.equal(LIMIT_ERROR_CODE);
    expect(answer.error?.message).to.match(/too large/);
    expect(el.matches(':state(ready)')).to.equal(true);
  });
});

describe('<ahp-mcp-app> View-provided tools', () => {
  it('lists and calls the View\'s own tools; its tools/list_changed becomes an event', async () => {
    const el = await mount(`report('armed'); addEventListener('message', (e) => { if (e.data && e.data.method === 'tools/call') setTimeout(() => { toolNames = ['pick', 'zoom']; post({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} }); }, 10); });`, undefined, { tools: true });
    expect((await el.listViewTools()).map((tool) => tool['name'])).to.deep.equal(['pick']);
    let changed = 0;
    el.addEventListener('ahp-app-tools-changed', () => changed++);
    const result = await el.callViewTool('pick', { page: 2 });
    expect(result.content[0]).to.deep.equal({ type: 'text', text: 'picked {"name":"pick","arguments":{"page":2}}' });
    await until(() => changed === 1, 'the list-changed event');
    expect((await el.listViewTools()).map((tool) => tool['name'])).to.deep.equal(['pick', 'zoom']);
  });

  it('a View that declared no tools: the API says so', async () => {
    const el = await mount(`report('armed');`);
    let error = '';
    await el.listViewTools().catch((e: Error) => (error = e.message));
    expect(error).to.match(/declared no tools/);
  });
});

describe('<ahp-mcp-app> start-up', () => {
  it('a View that fails before it starts shows its error (forwarded by the proxy) in a frame with the default height', async () => {
    const start = AhpMcpApp.startTimeoutMs;
    AhpMcpApp.startTimeoutMs = 1500;
    try {
      const channel = new FakeChannel({ html: '<!doctype html><p>broken view</p><script>throw new Error("pdf.js worker failed to load")</script>' });
      const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app server-id="budget" resource-uri="ui://get-time/mcp-app.html"
        sandbox-url=${`${view.otherOrigin}/sandbox/sandbox-proxy.html`} .channel=${channel as McpChannel} .capabilities=${ALL_CAPABILITIES}></ahp-mcp-app>`);
      const status = () => el.shadowRoot!.querySelector('[part~="status"]')?.textContent ?? '';
      await until(() => status().includes('pdf.js worker failed to load'), 'the View\'s error shown while loading');
      const frame = el.shadowRoot!.querySelector('iframe')!;
      expect(Math.round(frame.getBoundingClientRect().height)).to.equal(320, 'the default height until the View reports one');
      await until(() => el.matches(':state(error)'), 'the start times out');
      expect(status()).to.include('no ui/notifications/initialized within 2 s');
      expect(status()).to.include('pdf.js worker failed to load');
    } finally {
      AhpMcpApp.startTimeoutMs = start;
    }
  });

  it('Escape pressed inside the View (and not handled by it) leaves full screen', async () => {
    const el = await mount(`await rpc('ui/request-display-mode', { mode: 'fullscreen' }); requestAnimationFrame(() => requestAnimationFrame(() => report('drawn')));`, { displayMode: 'allow' });
    await until(() => el.matches(':state(fullscreen)'), 'fullscreen');
    await until(() => probe('drawn'), 'the View drawn at full screen');
    await rendered();
    const r = el.shadowRoot!.querySelector('iframe')!.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)] });
    await sendKeys({ press: 'Escape' });
    await until(() => el.matches(':state(inline)'), 'inline after Escape in the View');
    await sendMouse({ type: 'click', position: [1, 1] });
  });
});

// Many Apps on one page: an App far out of view does not start (no resource read, no proxy frame) until it comes
// near, through the scroll container it sits in; a suspended View's reported state (model context, size) is there
// while it is gone and after it starts again; proxy pages of one sandbox origin load a few at a time, an App waiting
// for its turn does not count the wait against its handshake, and a proxy that never answers still fails clearly; an
// App whose start was too slow is tried again when it comes back near.
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/define-all.js';
import { AhpMcpApp } from '../../elements/mcp-app/mcp-app.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import { SandboxFrame } from '../../src/apps/sandbox-frame.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { slotLoads } from '../fixtures/apps/load-slots-probe.js';
import { drivenView, type DriverOptions } from '../fixtures/apps/view-driver.js';
import { collectViewProbes, pollUntil } from './fixtures/view-probes.js';

const view = collectViewProbes();
const sandboxUrl = () => `${view.otherOrigin}/sandbox/sandbox-proxy.html`;
const until = <T>(fn: () => T | undefined | false | null, what: string, ms = 10_000): Promise<T> => pollUntil(fn, what, ms, () => '');

const RESULT = { content: [{ type: 'text', text: 'now' }], structuredContent: { time: '2026-12-01T12:00:00Z' } };
const channelFor = async (driver: DriverOptions = {}) => new FakeChannel({ html: await drivenView(driver) });
const app = (channel: FakeChannel, sandbox = sandboxUrl()) =>
  html`<ahp-mcp-app server-id="basic" resource-uri="ui://get-time/mcp-app.html" sandbox-url=${sandbox} .channel=${channel as McpChannel} .capabilities=${ALL_CAPABILITIES} .toolResult=${RESULT}></ahp-mcp-app>`;
const frameOf = (el: AhpMcpApp) => el.shadowRoot!.querySelector('iframe');

describe('<ahp-mcp-app> far out of view when it would start', () => {
  it('waits without reading its resource or loading a proxy until scrolled near, then initializes; an App near starts at once', async function () {
    // Two Views start one after the other: more than the default 10 s on a loaded machine.
    this.timeout(30_000);
    const nearChannel = await channelFor();
    const farChannel = await channelFor();
    const box = await fixture<HTMLElement>(html`<div style="height: 400px; overflow: auto">
      ${app(nearChannel)}
      <div style="height: 20000px"></div>
      ${app(farChannel)}
    </div>`);
    const [near, far] = [...box.querySelectorAll<AhpMcpApp>('ahp-mcp-app')];
    await until(() => near!.matches(':state(ready)'), 'the App near the view initialized');
    await until(() => far!.matches(':state(suspended)'), 'the App far below waits, suspended');
    expect(frameOf(far!), 'no proxy frame for the far App').to.equal(null);
    expect(farChannel.count('resources/read'), 'its resource is not read').to.equal(0);
    expect(far!.getBoundingClientRect().height, 'it keeps a place of the default height').to.be.greaterThan(100);

    box.scrollTop = box.scrollHeight;
    await until(() => far!.matches(':state(ready)'), 'the far App initialized once scrolled near');
    expect(farChannel.count('resources/read')).to.equal(1);
    await until(() => near!.matches(':state(suspended)'), 'the App now far above is suspended');
  });
});

describe('<ahp-mcp-app> suspended and restored', () => {
  it('keeps the model context and the size the View reported while it is gone, and has them when it runs again', async function () {
    // Two Views start one after the other: more than the default 10 s on a loaded machine.
    this.timeout(30_000);
    const context = { structuredContent: { picked: 7 } };
    const channel = await channelFor({ requests: [{ method: 'ui/update-model-context', params: context }] });
    const wrap = await fixture<HTMLElement>(html`<div>${app(channel)}<div style="height: 20000px"></div></div>`);
    const el = wrap.querySelector<AhpMcpApp>('ahp-mcp-app')!;
    const reported: unknown[] = [];
    el.addEventListener('ahp-app-model-context', (e) => reported.push((e as CustomEvent).detail));
    await until(() => el.matches(':state(ready)'), 'the View initialized');
    await until(() => reported.length > 0, 'the View reported its model context');
    // The View reports its size: the frame gets an inline height.
    const frameHeight = await until(() => frameOf(el)?.style.height, 'the View reported its size');
    const height = el.getBoundingClientRect().height;
    expect(el.modelContext).to.deep.equal(context);
    try {
      window.scrollTo(0, 15_000);
      await until(() => el.matches(':state(suspended)'), 'suspended far out of view');
      expect(frameOf(el), 'the View is gone').to.equal(null);
      expect(el.modelContext, 'the model context stays while no View runs').to.deep.equal(context);
      expect(Math.abs(el.getBoundingClientRect().height - height)).to.be.lessThan(2, 'its place keeps the reported height');
      window.scrollTo(0, 0);
      await until(() => el.matches(':state(ready)'), 'started again when back near');
      expect(el.modelContext).to.deep.equal(context);
      await until(() => frameOf(el)?.style.height === frameHeight, 'the new View has the size again');
      expect(channel.count('resources/read'), 'the resource is not read again').to.equal(1);
    } finally {
      window.scrollTo(0, 0);
    }
  });
});

describe('<ahp-mcp-app> whose start was too slow', () => {
  it('is tried again when it comes back near after being far, and runs', async function () {
    this.timeout(30_000);
    // The View's first load never speaks (as if the machine were too busy for it to start in time); later loads do.
    const flag = `slow-first-start-${Math.random()}`;
    const silentFirstTime = `<script>if (!localStorage.getItem('${flag}')) { localStorage.setItem('${flag}', '1'); window.parent.postMessage = () => {}; }</script>`;
    const channel = new FakeChannel({ html: (await drivenView({})).replace('<head>', `<head>${silentFirstTime}`) });
    const startTimeoutMs = AhpMcpApp.startTimeoutMs;
    AhpMcpApp.startTimeoutMs = 1500;
    try {
      const wrap = await fixture<HTMLElement>(html`<div>${app(channel)}<div style="height: 20000px"></div></div>`);
      const el = wrap.querySelector<AhpMcpApp>('ahp-mcp-app')!;
      await until(() => el.matches(':state(error)'), 'the first start failed');
      expect(el.shadowRoot!.textContent).to.match(/did not start/i);
      window.scrollTo(0, 15_000);
      await until(() => el.matches(':state(suspended)'), 'the failed App, far out of view, waits to try again');
      window.scrollTo(0, 0);
      await until(() => el.matches(':state(ready)'), 'tried again once back near: the View runs');
      expect(channel.count('resources/read'), 'from the cached resource').to.equal(1);
    } finally {
      AhpMcpApp.startTimeoutMs = startTimeoutMs;
      window.scrollTo(0, 0);
    }
  });
});

describe('sandbox proxy loads per origin', () => {
  it('a few at a time: an App waits its turn behind proxies that never answer (which fail clearly), then initializes', async function () {
    this.timeout(60_000);
    AhpMcpApp.warmer.clear();
    // Proxy pages that load but never announce themselves: a broken (or hostile) sandbox on the same origin.
    const broken = `${view.otherOrigin}/sandbox/not-a-proxy.html`;
    const brokenApps: AhpMcpApp[] = [];
    for (let i = 0; i < 4; i++) brokenApps.push(await fixture<AhpMcpApp>(app(await channelFor(), broken)));
    await until(() => brokenApps.every((el) => frameOf(el)?.getAttribute('src')?.startsWith(broken)), 'the broken proxies loading');
    expect(slotLoads(SandboxFrame.loads, view.otherOrigin).running).to.equal(4);

    const waiting = await fixture<AhpMcpApp>(app(await channelFor()));
    const frame = await until(() => frameOf(waiting), 'the waiting App has its frame in place');
    expect(frame.hasAttribute('src'), 'its proxy page is not requested while four of the origin load').to.equal(false);
    expect(slotLoads(SandboxFrame.loads, view.otherOrigin).waiting).to.equal(1);

    for (const el of brokenApps) await until(() => el.matches(':state(error)'), 'the broken proxy failed', 20_000);
    for (const el of brokenApps) expect(el.shadowRoot!.textContent).to.match(/The sandbox at http:\/\/127\.0\.0\.1:\d+ did not answer/);
    await until(() => waiting.matches(':state(ready)'), 'the waiting App initialized once its turn came', 20_000);
    expect(frameOf(waiting)).to.equal(frame, 'in the frame it waited in (not treated as navigated away)');
    expect(slotLoads(SandboxFrame.loads, view.otherOrigin).waiting).to.equal(0);
  });
});

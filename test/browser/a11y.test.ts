// axe-core over every element in every state, in light and dark. The element test files check their own states
// too; this matrix covers what they leave out (MCP App phases and display modes, chat with tool calls inside,
// the sign-in panel in each reason, the list's groups, everything in the dark scheme).
import { expect, fixture, html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import '../../elements/define-all.js';
import type { AhpMcpApp } from '../../elements/index.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import { ALL_CAPABILITIES, FakeChannel } from '../fixtures/apps/fake-channel.js';
import { drivenView } from '../fixtures/apps/view-driver.js';
import { hostileView } from '../fixtures/apps/hostile-view.js';
import { FakeStore } from './fixtures/fake-store.js';
import { session } from './fixtures/sessions.js';
import { groups } from './fixtures/element-states.js';

const SCHEMES = ['light', 'dark'] as const;

/** Renders `template` inside a wrapper with this color-scheme, waits for every element in it, and runs axe on each. */
async function checkAll(template: TemplateResult, scheme: (typeof SCHEMES)[number], settle?: (wrap: HTMLElement) => Promise<void>) {
  const wrap = await fixture<HTMLElement>(html`<div style=${`color-scheme: ${scheme}; background: Canvas; color: CanvasText`}>${template}</div>`);
  const els = [...wrap.querySelectorAll<HTMLElement & { updateComplete?: Promise<unknown> }>('*')].filter((e) => e.localName.startsWith('ahp-'));
  expect(els.length, 'renders an element').to.be.greaterThan(0);
  await Promise.all(els.map((e) => e.updateComplete));
  await new Promise((r) => setTimeout(r, 10));
  await settle?.(wrap);
  for (const el of els) await expect(el).to.be.accessible();
}

for (const [name, states] of Object.entries(groups)) {
  describe(`a11y ${name}`, () => {
    for (const [state, template] of Object.entries(states)) {
      for (const scheme of SCHEMES) it(`${state} (${scheme})`, () => checkAll(template, scheme));
    }
  });
}

describe('a11y <ahp-mcp-app>', () => {
  let otherOrigin = '';
  before(async () => {
    otherOrigin = (await (await fetch('/__test/env.json')).json()).otherOrigin;
  });
  /** A View on the test server's second origin, fed by `channel`. */
  const liveApp = (channel: FakeChannel) => html`<ahp-mcp-app
    server-id="basic"
    resource-uri="ui://get-time/mcp-app.html"
    sandbox-url=${`${otherOrigin}/sandbox/sandbox-proxy.html`}
    .channel=${channel as McpChannel}
    .capabilities=${ALL_CAPABILITIES}
  ></ahp-mcp-app>`;
  const waitFor = async (el: AhpMcpApp, ok: () => boolean, what: string) => {
    const t0 = performance.now();
    while (!ok()) {
      if (performance.now() - t0 > 8000) throw new Error(`timed out waiting for ${what}: ${el.shadowRoot!.innerHTML}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  for (const scheme of SCHEMES) {
    it(`idle / loading (${scheme})`, () => checkAll(html`<ahp-mcp-app></ahp-mcp-app>`, scheme));

    it(`error: no sandbox, and a same-origin sandbox (${scheme})`, () =>
      checkAll(
        html`<ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" .store=${new FakeStore(session([]))}></ahp-mcp-app>
          <ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" sandbox-url="/same-origin.html" .store=${new FakeStore(session([]))}></ahp-mcp-app>`,
        scheme,
        async (wrap) => {
          for (const el of wrap.querySelectorAll<AhpMcpApp>('ahp-mcp-app')) {
            await waitFor(el, () => el.matches(':state(error)'), 'the error phase');
          }
        },
      ));

    it(`a live View, inline, then full screen with its Exit button (${scheme})`, async () => {
      const channel = new FakeChannel({ html: await drivenView() });
      const template = liveApp(channel);
      await checkAll(template, scheme, async (wrap) => {
        const el = wrap.querySelector<AhpMcpApp>('ahp-mcp-app')!;
        await waitFor(el, () => !!el.shadowRoot!.querySelector('iframe') && !el.shadowRoot!.querySelector('[part="status"]'), 'the View');
      });
      const el = document.querySelector<AhpMcpApp>('ahp-mcp-app')!;
      el.displayMode = 'fullscreen';
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part="exit"]')).to.exist;
      await expect(el).to.be.accessible();
    });

    it(`a View asking without an interaction (the host-owned prompt), inline and in picture-in-picture (${scheme})`, async () => {
      const channel = new FakeChannel({ html: hostileView(`await message('hello');`) });
      const template = liveApp(channel);
      await checkAll(template, scheme, async (wrap) => {
        const el = wrap.querySelector<AhpMcpApp>('ahp-mcp-app')!;
        await waitFor(el, () => !!el.shadowRoot!.querySelector('[part~="prompt"]'), 'the prompt');
        expect(el.shadowRoot!.querySelector('iframe')!.title).to.equal('Hostile (MCP App from basic)', 'the frame is named after the App and its server');
      });
      const el = document.querySelector<AhpMcpApp>('ahp-mcp-app')!;
      el.displayMode = 'pip';
      await el.updateComplete;
      await expect(el).to.be.accessible();
    });
  }
});

import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { CSSResult, LitElement, TemplateResult } from 'lit';
import '../../elements/define-all.js';
import { AhpChat, AhpInputNeeded, AhpMcpApp, AhpMcpServer, AhpMcpServerList, AhpSession, AhpToolCall } from '../../elements/index.js';
import { tokenStyles } from '../../elements/shared/tokens.js';
import { FakeStore } from './fixtures/fake-store.js';
import { STATES, mcpServer, session } from './fixtures/sessions.js';
import { CALLS, CHAT, FakeChatStore, chatState } from './fixtures/tool-calls.js';

const ELEMENTS = { AhpSession, AhpMcpServer, AhpMcpServerList, AhpToolCall, AhpMcpApp, AhpChat, AhpInputNeeded } as const;

const cssOf = (ctor: typeof LitElement) => ctor.elementStyles.map((s) => (s as CSSResult).cssText ?? '').join('\n');
const defined = (css: string) => new Set([...css.matchAll(/(--_[\w-]+)\s*:/g)].map((m) => m[1]!));
const used = (css: string) => new Set([...css.matchAll(/var\(\s*(--_[\w-]+)/g)].map((m) => m[1]!));
/** The global tier: private tokens every element gets from `tokenStyles`. */
const GLOBAL = defined(tokenStyles.cssText);

describe('design tokens: private tokens', () => {
  it('the global tier defines private tokens (so the checks below test something)', () => {
    expect(GLOBAL.size).to.be.greaterThan(15);
  });

  for (const [name, ctor] of Object.entries(ELEMENTS)) {
    it(`${name}: every private token it uses is defined, every one it defines itself is used, no public token is set`, () => {
      const css = cssOf(ctor);
      const missing = [...used(css)].filter((t) => !defined(css).has(t));
      expect(missing, 'used but never defined').to.deep.equal([]);
      // Its own (component-tier) private tokens: all beyond the shared global tier.
      const own = [...defined(css)].filter((t) => !GLOBAL.has(t));
      const unused = own.filter((t) => !used(css).has(t));
      expect(unused, 'defined but never used').to.deep.equal([]);
      expect(css).not.to.match(/--ahp-[\w-]+\s*:/);
    });
  }

  it('every global-tier private token is used by some element', () => {
    const all = Object.values(ELEMENTS).map(cssOf).join('\n');
    const unused = [...GLOBAL].filter((t) => !used(all).has(t));
    expect(unused).to.deep.equal([]);
  });
});

/** Renders each visual element (<ahp-session> only renders a slot) and names a node inside it that shows text. */
const VISUAL: Record<string, { template: () => TemplateResult; inner: string }> = {
  'ahp-mcp-server': {
    template: () => html`<ahp-mcp-server server-id="a" .store=${new FakeStore(session([mcpServer('a', STATES.ready!)]))}></ahp-mcp-server>`,
    inner: '[part="name"]',
  },
  'ahp-mcp-server-list': {
    template: () => html`<ahp-mcp-server-list .store=${new FakeStore(session([mcpServer('a', STATES.ready!)]))}></ahp-mcp-server-list>`,
    inner: '[part="heading"]',
  },
  'ahp-tool-call': {
    template: () => html`<ahp-tool-call chat=${CHAT} tool-call-id="tc1" .store=${new FakeChatStore(session([mcpServer('a', STATES.ready!)]), { [CHAT]: chatState([CALLS.completed!]) })}></ahp-tool-call>`,
    inner: '[part="header"]',
  },
  'ahp-mcp-app': { template: () => html`<ahp-mcp-app></ahp-mcp-app>`, inner: '[part="status"]' },
  'ahp-chat': {
    template: () => {
      const store = new FakeChatStore(session([]), { [CHAT]: chatState([]) });
      return html`<ahp-chat chat=${CHAT} .store=${store}></ahp-chat>`;
    },
    inner: '[part="input"]',
  },
  'ahp-input-needed': { template: () => html`<ahp-input-needed .store=${new FakeStore(session([]))}></ahp-input-needed>`, inner: '[part="empty"]' },
};

const LIGHT = ['rgb(31, 35, 40)', 'rgb(89, 99, 110)']; // text, muted
const DARK = ['rgb(230, 237, 243)', 'rgb(145, 152, 161)'];

async function renderIn(tag: string, style: string): Promise<Element> {
  const { template, inner } = VISUAL[tag]!;
  const wrap = await fixture<HTMLElement>(html`<div style=${style}><section>${template()}</section></div>`);
  const el = wrap.querySelector(tag) as LitElement;
  await el.updateComplete;
  await new Promise((r) => setTimeout(r));
  await el.updateComplete;
  const node = el.shadowRoot!.querySelector(inner);
  expect(node, `${tag} renders ${inner}`).to.exist;
  return node!;
}

describe('design tokens: theming from an ancestor and color-scheme', () => {
  afterEach(() => emulateMedia({ colorScheme: 'light' }));

  for (const tag of Object.keys(VISUAL)) {
    it(`<${tag}>: global tokens set on an ancestor reach its shadow DOM`, async () => {
      const node = await renderIn(tag, '--ahp-color-text: rgb(1, 2, 3); --ahp-color-text-muted: rgb(1, 2, 3); --ahp-font-family: AhpTestFont, serif; --ahp-font-size: 21px');
      const style = getComputedStyle(node);
      expect(style.color).to.equal('rgb(1, 2, 3)');
      expect(style.fontFamily).to.contain('AhpTestFont');
      expect(style.fontSize).to.equal('21px');
    });

    it(`<${tag}>: light and dark defaults follow the inherited color-scheme and prefers-color-scheme`, async () => {
      const light = getComputedStyle(await renderIn(tag, 'color-scheme: light')).color;
      expect(LIGHT, 'a light default').to.include(light);
      const dark = getComputedStyle(await renderIn(tag, 'color-scheme: dark')).color;
      expect(dark).to.equal(DARK[LIGHT.indexOf(light)]);
      await emulateMedia({ colorScheme: 'dark' });
      const followed = getComputedStyle(await renderIn(tag, 'color-scheme: light dark')).color;
      expect(followed).to.equal(dark);
    });
  }

  it('component tokens set on an ancestor reach the parts they name', async () => {
    const server = await renderIn('ahp-mcp-server', '--ahp-mcp-server-background: rgb(4, 5, 6); --ahp-mcp-server-border-color: rgb(7, 8, 9)');
    const card = server.closest('.card')!;
    expect(getComputedStyle(card).backgroundColor).to.equal('rgb(4, 5, 6)');
    expect(getComputedStyle(card).borderTopColor).to.equal('rgb(7, 8, 9)');
    const header = await renderIn('ahp-tool-call', '--ahp-tool-call-background: rgb(4, 5, 6); --ahp-color-border: rgb(7, 8, 9)');
    const toolCard = (header.getRootNode() as ShadowRoot).querySelector('.card')!;
    expect(getComputedStyle(toolCard).backgroundColor).to.equal('rgb(4, 5, 6)');
    expect(getComputedStyle(toolCard).borderTopColor, 'the component token falls back to the global one').to.equal('rgb(7, 8, 9)');
    const input = await renderIn('ahp-chat', '--ahp-chat-transcript-max-height: 123px; --ahp-focus-ring-width: 5px');
    const transcript = (input.getRootNode() as ShadowRoot).querySelector('[part="transcript"]')!;
    expect(getComputedStyle(transcript).maxHeight).to.equal('123px');
    (input as HTMLElement).focus();
    expect(getComputedStyle(input).outlineWidth, 'the focus ring width token').to.equal('5px');
  });

  it('a dark-scheme element passes axe', async () => {
    const node = await renderIn('ahp-mcp-server', 'color-scheme: dark');
    await expect((node.getRootNode() as ShadowRoot).host).to.be.accessible();
  });
});

import { expect, fixture, html } from '@open-wc/testing';
import type { CSSResult } from 'lit';
import '../../elements/define-all.js';
import { AhpMcpServer, AhpMcpServerList, AhpSession } from '../../elements/index.js';
import type { LitElement } from 'lit';
import { FakeStore } from './fixtures/fake-store.js';
import { STATES, mcpServer, session } from './fixtures/sessions.js';

const ELEMENTS = { AhpMcpServer, AhpMcpServerList, AhpSession } as const;

const cssOf = (ctor: typeof LitElement) =>
  ctor.elementStyles.map((s) => (s as CSSResult).cssText ?? '').join('\n');
const defined = (css: string) => new Set([...css.matchAll(/(--_[\w-]+)\s*:/g)].map((m) => m[1]!));
const used = (css: string) => new Set([...css.matchAll(/var\(\s*(--_[\w-]+)/g)].map((m) => m[1]!));

describe('design tokens', () => {
  for (const [name, ctor] of Object.entries(ELEMENTS)) {
    it(`${name} uses no undefined private token and sets no public one`, () => {
      const css = cssOf(ctor);
      const missing = [...used(css)].filter((t) => !defined(css).has(t));
      expect(missing).to.deep.equal([]);
      expect(css).not.to.match(/--ahp-[\w-]+\s*:/);
    });
  }

  it('every private token is used by some element', () => {
    const all = Object.values(ELEMENTS).map(cssOf).join('\n');
    const unused = [...defined(all)].filter((t) => !used(all).has(t));
    expect(unused).to.deep.equal([]);
  });

  it('follows color-scheme and lets any ancestor set the public tokens', async () => {
    const store = new FakeStore(session([mcpServer('a', STATES.ready!)]));
    const wrap = await fixture<HTMLDivElement>(html`<div>
      <ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>
      <div style="color-scheme: dark"><ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server></div>
      <section style="--ahp-color-text: rgb(1, 2, 3)"><ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server></section>
    </div>`);
    const els = [...wrap.querySelectorAll('ahp-mcp-server')];
    await Promise.all(els.map((e) => e.updateComplete));
    const color = (e: Element) => getComputedStyle(e.shadowRoot!.querySelector('[part="name"]')!).color;
    expect(els.map(color)).to.deep.equal(['rgb(31, 35, 40)', 'rgb(230, 237, 243)', 'rgb(1, 2, 3)']);
    await expect(els[1]).to.be.accessible();
  });
});

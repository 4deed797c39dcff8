// Localization: the seam (nearest `lang`, per element, live changes, registered and lazily loaded languages, Intl),
// and every element state of the shared matrix rendered in zh-TW with no English UI string left.
import { expect, fixture, html } from '@open-wc/testing';
import type { TemplateResult } from 'lit';
import '../../elements/define-all.js';
import { loadLanguage, registerLanguage, translate } from '../../elements/shared/i18n.js';
import { EN } from '../../elements/shared/messages-en.js';
import zhTW from '../../elements/locales/zh-TW.js';
import type { AhpMcpServer } from '../../elements/index.js';
import { groups } from './fixtures/element-states.js';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import { FakeChannel } from '../fixtures/apps/fake-channel.js';
import { MAX_VIEW_LENGTH } from '../../src/apps/resource.js';
import { FakeStore } from './fixtures/fake-store.js';
import { STATES, mcpServer, session } from './fixtures/sessions.js';

type AnyEl = HTMLElement & { updateComplete?: Promise<unknown> };

/** Every ahp-* element under `root`, through shadow roots. */
function ahpElements(root: ParentNode): AnyEl[] {
  const out: AnyEl[] = [];
  for (const el of root.querySelectorAll<AnyEl>('*')) {
    if (el.localName.startsWith('ahp-')) out.push(el);
    if (el.shadowRoot) out.push(...ahpElements(el.shadowRoot));
  }
  return out;
}

/** Waits until every element (also the ones rendered inside others) has finished updating. */
async function settle(root: ParentNode): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const els = ahpElements(root);
    const pending = await Promise.all(els.map((e) => e.updateComplete));
    if (pending.every((done) => done !== false)) break;
  }
  await new Promise((r) => setTimeout(r, 0));
}

/** What a user can read or hear: text (not style/script) and the labels of every node, through shadow roots. */
function uiStrings(root: Node): string[] {
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.nodeType === Node.TEXT_NODE) {
      const t = n.textContent?.trim();
      if (t) out.push(t);
      return;
    }
    if (!(n instanceof Element || n instanceof ShadowRoot || n instanceof DocumentFragment)) return;
    if (n instanceof Element) {
      if (n.localName === 'style' || n.localName === 'script') return;
      for (const a of ['aria-label', 'placeholder', 'title', 'alt']) {
        const v = n.getAttribute(a);
        if (v) out.push(v);
      }
      if (n.shadowRoot) walk(n.shadowRoot);
    }
    for (const c of n.childNodes) walk(c);
  };
  walk(root);
  return out;
}

/** Strings that come from the data the elements show (store state, chat state, tool calls, attributes): not UI text. */
function dataStrings(root: ParentNode): string[] {
  const out = new Set<string>();
  const collect = (v: unknown, depth = 0) => {
    if (depth > 12 || v === null || v === undefined) return;
    if (typeof v === 'string') {
      if (v.length > 1) {
        out.add(v);
        out.add(v.replace(/[*_`]/g, ''));
        for (const line of v.split('\n')) if (line.trim().length > 1) out.add(line.trim());
      }
    } else if (Array.isArray(v)) for (const x of v) collect(x, depth + 1);
    else if (typeof v === 'object') for (const x of Object.values(v)) collect(x, depth + 1);
  };
  for (const el of ahpElements(root)) {
    const e = el as AnyEl & { currentStore?: { getState(): unknown; getChatState?(c: string): unknown }; toolCall?: unknown; chat?: string };
    const store = e.currentStore;
    collect(store?.getState());
    if (store?.getChatState && e.chat) collect(store.getChatState(e.chat));
    collect(e.toolCall);
    for (const a of el.getAttributeNames()) if (a !== 'lang') collect(el.getAttribute(a));
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** Technical names that stay as they are in every language. */
const KEPT = [/<ahp-[a-z-]+>/g, /\.handle\b/g, /https?:\/\/\S+/g, /\bmcp:\/\//g, /\bsandbox-url\b/g, /\bAhpMcpApp\.sandboxUrlFor\b/g, /\bui\/notifications\/initialized\b/g, /\bhttp\(s\)/g, /\bMCP\b/g, /\bkB\b/g, /\bMB\b/g];

/** Latin words of the shown data (markdown renders one data string as several text nodes, so words, not strings). */
function dataWords(root: ParentNode): Set<string> {
  const words = new Set<string>();
  for (const d of dataStrings(root)) for (const w of d.match(/[A-Za-z]{2,}/g) ?? []) words.add(w);
  return words;
}

/** Fragments of the English messages (the text between placeholders, 4+ letters) that must not show in another language. */
const EN_FRAGMENTS = Object.values(EN)
  .flatMap((m) => m.split(/\{\w+\}/))
  .map((f) => f.trim())
  .filter((f) => /[A-Za-z]{4,}/.test(f) && !KEPT.some((re) => f.replace(re, '').trim() === ''));

/** The English left in `root` once the shown data and the kept technical names are taken out. */
function englishLeft(root: ParentNode): string[] {
  const data = dataStrings(root);
  const words = dataWords(root);
  const left: string[] = [];
  for (const original of uiStrings(root as Node)) {
    let text = original;
    for (const d of data) if (text.includes(d)) text = text.split(d).join(' ');
    for (const re of KEPT) text = text.replace(re, ' ');
    const english = (text.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !words.has(w));
    if (english.length) left.push(text.trim());
    else for (const f of EN_FRAGMENTS) if (text.includes(f)) left.push(`${text.trim()} (message text “${f}”)`);
  }
  return left;
}

async function renderIn(lang: string, template: TemplateResult): Promise<HTMLElement> {
  const wrap = await fixture<HTMLElement>(html`<div lang=${lang}>${template}</div>`);
  await settle(wrap);
  return wrap;
}

const appStates: Record<string, TemplateResult> = {
  'idle (loading)': html`<ahp-mcp-app></ahp-mcp-app>`,
  'no session handle (no channel)': html`<ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" .store=${new FakeStore(session([]))}></ahp-mcp-app>`,
  'no sandbox': html`<ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" .channel=${new FakeChannel() as McpChannel}></ahp-mcp-app>`,
  'same-origin sandbox': html`<ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" sandbox-url="/same-origin.html" .channel=${new FakeChannel() as McpChannel}></ahp-mcp-app>`,
  'View over the size limit': html`<ahp-mcp-app server-id="a" resource-uri="ui://x/app.html" sandbox-url="http://127.0.0.1:9/sandbox.html" .channel=${new FakeChannel({ html: 'x'.repeat(MAX_VIEW_LENGTH + 1) }) as McpChannel}></ahp-mcp-app>`,
  'full screen (Exit)': html`<ahp-mcp-app display-mode="fullscreen"></ahp-mcp-app>`,
  'picture-in-picture (Exit)': html`<ahp-mcp-app display-mode="pip"></ahp-mcp-app>`,
};

describe('i18n: the zh-TW pack', () => {
  it('translates every message (no id missing, none left in English, placeholders kept)', () => {
    for (const [id, en] of Object.entries(EN)) {
      const zh = (zhTW as Record<string, string>)[id];
      expect(zh, id).to.be.a('string');
      expect(zh, id).to.not.equal(en);
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(zh!), `${id} placeholders`).to.deep.equal(names(en));
    }
    expect(Object.keys(zhTW).sort()).to.deep.equal(Object.keys(EN).sort());
  });
});

describe('i18n: every element state in zh-TW shows no English UI string', () => {
  before(() => loadLanguage('zh-TW'));
  for (const [name, states] of Object.entries({ ...groups, '<ahp-mcp-app>': appStates })) {
    for (const [state, template] of Object.entries(states)) {
      it(`${name} ${state}`, async () => {
        const wrap = await renderIn('zh-TW', template);
        if (name === '<ahp-mcp-app>' && /sandbox|channel|size/.test(state)) {
          const app = wrap.querySelector('ahp-mcp-app')!;
          for (let i = 0; i < 200 && !app.matches(':state(error)'); i++) await new Promise((r) => setTimeout(r, 10));
          expect(app.matches(':state(error)'), 'reached the error phase').to.be.true;
        }
        expect(englishLeft(wrap)).to.deep.equal([]);
        // The same state in English does show English (the check can fail).
        const en = await renderIn('en', template);
        expect(englishLeft(en).length, 'English text in the English rendering').to.be.greaterThan(0);
      });
    }
  }

  it('the chat states of the matrix really show the queue, history note, question form and Resume (so the sweep covers them)', async () => {
    const chatStates = groups['<ahp-chat>']!;
    const q = await renderIn('zh-TW', chatStates['queued and steering messages, activity, truncated history']!);
    const qRoot = q.querySelector('ahp-chat')!.shadowRoot!;
    expect(qRoot.querySelector('[part~="history-note"]'), 'history note').to.exist;
    expect(qRoot.textContent).to.include('then deploy');
    const f = await renderIn('zh-TW', chatStates['a question to answer in place (every question kind)']!);
    expect(f.querySelector('ahp-chat')!.shadowRoot!.querySelector('form.input-request'), 'question form').to.exist;
    const r = await renderIn('zh-TW', chatStates['an answered question and a resumable error']!);
    expect(r.querySelector('ahp-chat')!.shadowRoot!.querySelector('[data-action="resume"]'), 'Resume').to.exist;
  });

  it('a server whose Start fails again says so in zh-TW, with the time from Intl', async () => {
    const store = new FakeStore(session([mcpServer('a', STATES.error!)]));
    const wrap = await renderIn('zh-TW', html`<ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>`);
    const el = wrap.querySelector<AhpMcpServer>('ahp-mcp-server')!;
    store.setState(session([mcpServer('a', STATES.starting!)]));
    await el.updateComplete;
    store.setState(session([mcpServer('a', { ...STATES.error! })]));
    await el.updateComplete;
    const again = el.shadowRoot!.querySelector('.failed-again')!.textContent!;
    expect(again).to.include('再次失敗');
    expect(again).to.include(new Intl.DateTimeFormat('zh-TW', { timeStyle: 'medium' }).format(Date.now()).slice(0, 2));
    expect(englishLeft(wrap)).to.deep.equal([]);
  });
});

describe('i18n: the seam', () => {
  const store = () => new FakeStore(session([mcpServer('a', STATES.ready!)]));
  const badge = (el: Element) => el.shadowRoot!.querySelector('[part~="status"]')!.textContent!.trim();

  before(() => loadLanguage('zh-TW'));

  it('follows the nearest lang attribute, and lang on the element itself wins', async () => {
    const wrap = await fixture<HTMLElement>(html`<div lang="zh-TW">
      <ahp-mcp-server server-id="a" .store=${store()}></ahp-mcp-server>
      <ahp-mcp-server lang="en" server-id="a" .store=${store()}></ahp-mcp-server>
    </div>`);
    await settle(wrap);
    const [zh, en] = wrap.querySelectorAll('ahp-mcp-server');
    expect(badge(zh!)).to.equal('就緒');
    expect(badge(en!)).to.equal('Ready');
  });

  it('elements inside other elements’ shadow roots follow the outer lang (the list’s servers)', async () => {
    const wrap = await renderIn('zh-TW', html`<ahp-mcp-server-list .store=${store()}></ahp-mcp-server-list>`);
    const inner = wrap.querySelector('ahp-mcp-server-list')!.shadowRoot!.querySelector('ahp-mcp-server')!;
    expect(badge(inner)).to.equal('就緒');
  });

  it('re-renders when a lang attribute changes, on the element or an ancestor', async () => {
    const wrap = await renderIn('en', html`<ahp-mcp-server server-id="a" .store=${store()}></ahp-mcp-server>`);
    const el = wrap.querySelector<AhpMcpServer>('ahp-mcp-server')!;
    expect(badge(el)).to.equal('Ready');
    wrap.setAttribute('lang', 'zh-Hant-TW');
    for (let i = 0; i < 100 && badge(el) === 'Ready'; i++) await new Promise((r) => setTimeout(r, 5));
    expect(badge(el)).to.equal('就緒');
    el.setAttribute('lang', 'en-GB');
    for (let i = 0; i < 100 && badge(el) !== 'Ready'; i++) await new Promise((r) => setTimeout(r, 5));
    expect(badge(el)).to.equal('Ready');
  });

  it('zh-HK and zh-Hant resolve to the Traditional pack; zh-CN and zh stay English', () => {
    expect(translate('zh-HK', 'server.state.ready')).to.equal('就緒');
    expect(translate('zh-Hant', 'server.state.ready')).to.equal('就緒');
    expect(translate('zh-CN', 'server.state.ready')).to.equal('Ready');
    expect(translate('zh', 'server.state.ready')).to.equal('Ready');
    expect(translate('not a tag!', 'server.state.ready')).to.equal('Ready');
  });

  it('pages register more languages: a table, or a loader that runs only when an element uses the language', async () => {
    registerLanguage('fr', { 'server.state.ready': 'Prêt' });
    expect(translate('fr-CA', 'server.state.ready')).to.equal('Prêt');
    expect(translate('fr', 'server.state.stopped'), 'missing ids fall back to English').to.equal('Stopped');

    let loads = 0;
    registerLanguage('de', async () => {
      loads++;
      return { default: { 'server.state.ready': 'Bereit' } };
    });
    await renderIn('en', html`<ahp-mcp-server server-id="a" .store=${store()}></ahp-mcp-server>`);
    expect(loads, 'not loaded while no element is in German').to.equal(0);
    const wrap = await renderIn('de', html`<ahp-mcp-server server-id="a" .store=${store()}></ahp-mcp-server>`);
    const el = wrap.querySelector('ahp-mcp-server')!;
    for (let i = 0; i < 100 && badge(el) !== 'Bereit'; i++) await new Promise((r) => setTimeout(r, 5));
    expect(badge(el)).to.equal('Bereit');
    expect(loads).to.equal(1);
  });

  it('numbers, sizes and plurals go through Intl', () => {
    registerLanguage('en-x-plural', { 'server.failedAgain#one': '{count} try at {time}', 'server.failedAgain#other': '{count} tries at {time}' });
    expect(translate('en-x-plural', 'server.failedAgain', { count: 1, time: 'noon' })).to.equal('1 try at noon');
    expect(translate('en-x-plural', 'server.failedAgain', { count: 1200, time: 'noon' })).to.equal('1,200 tries at noon');
    expect(translate('de', 'toolCall.exitCode', { code: '2' })).to.equal('(exit code 2)');
    expect(translate('zh-TW', 'server.failedAgain', { count: 3, time: '上午7:00' })).to.equal('於 上午7:00 再次失敗（共嘗試 3 次）');
  });
});

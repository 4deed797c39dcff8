// End to end: the demo page as a first-time visitor meets it (Chromium + the playground's real servers): what the page
// says about the running config, contrast of its own pills, no scrolling past the content, an App's width on a phone,
// the chat following a new App and a pending approval into view, the composer while a turn runs, and a pending
// approval left over from an earlier visit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { clickLanded, launchChromium, untilWithin } from '../fixtures/playground-page.js';

const WAIT_MS = 60_000;

/** WCAG 2 contrast ratio of two sRGB colours given as `rgb(r, g, b)` / `rgba(…)`. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r = 0, g = 0, bl = 0] = (c.match(/[\d.]+/g) ?? []).map(Number);
    const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const waitFor = untilWithin(WAIT_MS);

describe('the demo page on a first visit (Chromium + real MCP servers)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  async function open(p: Page, url = playground.url): Promise<void> {
    await p.goto(url, { waitUntil: 'load' });
    await p.waitForFunction(() => !!document.querySelector('ahp-chat')?.shadowRoot?.querySelector('textarea'), { timeout: WAIT_MS });
  }

  async function typeAndEnter(p: Page, text: string): Promise<void> {
    const input = (await p.evaluateHandle(() => document.querySelector('ahp-chat')!.shadowRoot!.querySelector('textarea')!)) as ElementHandle<HTMLTextAreaElement>;
    await clickLanded(input);
    await input.type(text);
    await p.keyboard.press('Enter');
  }

  const idle = (p: Page) => p.waitForFunction(() => !document.querySelector('ahp-chat')?.matches(':state(active)'), { timeout: WAIT_MS });

  /** True when the point at the middle of the element is the element itself (nothing covers it, it is in the viewport and the transcript's visible box). */
  const onScreen = (p: Page, find: string) =>
    p.evaluate((find) => {
      const el = (new Function(`return (${find})`) as () => Element | null)();
      if (!el) return { found: false, visible: false };
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + Math.min(r.height / 2, 10);
      if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) {
        const t = document.querySelector('ahp-chat')!.shadowRoot!.querySelector('.transcript')!.getBoundingClientRect();
        return { found: true, visible: false, top: r.top, innerHeight, scrollY, transcript: `${t.top}-${t.bottom}`, page: document.documentElement.scrollHeight };
      }
      let hit: Element | null = document.elementFromPoint(x, y);
      while (hit?.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(x, y);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      let what = '';
      for (let n: Node | null = hit; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null) if (n instanceof Element) what += ` < ${n.localName}${n.className ? '.' + n.className : ''}`;
      const tr = document.querySelector('ahp-chat')!.shadowRoot!.querySelector('.transcript')!.getBoundingClientRect();
      what += ` transcript ${tr.top}-${tr.bottom}`;
      return { found: true, visible: hit === el || el.contains(hit) || !!(hit && el.shadowRoot?.contains(hit)), top: r.top, height: r.height, innerHeight, hit: what };
    }, find);

  async function waitOnScreen(what: string, p: Page, find: string): Promise<void> {
    let last: unknown;
    try {
      await waitFor(what, async () => {
        last = await onScreen(p, find);
        return (last as { visible: boolean }).visible;
      });
    } catch (err) {
      throw new Error(`${(err as Error).message}; last ${JSON.stringify(last)}`);
    }
  }

  const LAST_TOOL_CALL = `[...document.querySelector('ahp-chat').shadowRoot.querySelectorAll('ahp-tool-call')].at(-1)`;

  before(async () => {
    playground = await startPlayground({ port: 0 });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
    await page.setViewport({ width: 1024, height: 700 });
    await open(page);
    await page.waitForFunction(
      () => document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelector('ahp-mcp-server[server-id="basic-vanillajs"]')?.matches(':state(ready)'),
      { timeout: WAIT_MS },
    );
  });

  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('the default config: the page names servers.json and suggests commands for its servers', async () => {
    const text = await page.$eval('body', (b) => b.innerText);
    assert.match(text, /examples\/playground\/servers\.json/);
    assert.match(text, /\/call basic-vanillajs get-time \{\}/);
    assert.match(text, /tokens last only 60 s/);
  });

  it('with --config: the page names that file and suggests only its servers; Start on a missing command visibly fails again', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ahp-first-visit-'));
    const file = path.join(dir, 'my-servers.json');
    await writeFile(file, JSON.stringify({ servers: [{ id: 'mine', name: 'Mine', transport: 'stdio', command: 'ahp-no-such-command-16' }] }));
    const other = await startPlayground({ port: 0, configPath: file });
    const p = await browser.newPage();
    try {
      await open(p, other.url);
      const text = await p.$eval('body', (b) => b.innerText);
      assert.ok(text.includes(file), `names ${file}: ${text}`);
      assert.doesNotMatch(text, /examples\/playground\/servers\.json|npm start -- --config/);
      assert.doesNotMatch(text, /basic-vanillajs|debug-tool|everything/);
      assert.match(text, /\/tools mine/);

      const server = `document.querySelector('ahp-mcp-server-list').shadowRoot.querySelector('ahp-mcp-server[server-id="mine"]')`;
      await p.waitForFunction((s) => (new Function(`return ${s}`) as () => Element | null)()?.matches(':state(error)'), { timeout: WAIT_MS }, server);
      const actions = await p.evaluate(
        (s) => [...(new Function(`return ${s}`) as () => Element)().shadowRoot!.querySelectorAll<HTMLElement>('[data-action]:not([data-action="toggle"])')].map((b) => b.dataset.action),
        server,
      );
      assert.deepEqual(actions, ['start'], 'an errored server offers Start, not Start and Restart');
      await p.evaluate((s) => (new Function(`return ${s}`) as () => Element)().shadowRoot!.querySelector<HTMLElement>('[data-action="start"]')!.click(), server);
      const again = await p.waitForFunction(
        (s) => {
          const el = (new Function(`return ${s}`) as () => Element)().shadowRoot!.querySelector<HTMLElement>('.failed-again');
          return el?.checkVisibility() ? el.innerText : false;
        },
        { timeout: WAIT_MS },
        server,
      );
      assert.match(String(await again.jsonValue()), /again/);
    } finally {
      await p.close();
      await other.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the Connected / Disconnected pills have at least 4.5:1 contrast in light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      for (const kind of ['open', 'closed', 'connecting']) {
        const { fg, bg } = await page.evaluate((kind) => {
          const pill = document.getElementById('connection')!;
          const was = pill.dataset.kind;
          pill.dataset.kind = kind;
          const fg = getComputedStyle(pill).color;
          let bgEl: Element | null = pill;
          let bg = 'rgba(0, 0, 0, 0)';
          while (bgEl && /rgba\(.*, 0\)|transparent/.test(bg)) {
            bg = getComputedStyle(bgEl).backgroundColor;
            bgEl = bgEl.parentElement;
          }
          pill.dataset.kind = was ?? '';
          return { fg, bg };
        }, kind);
        const ratio = contrast(fg, bg);
        assert.ok(ratio >= 4.5, `${scheme} ${kind}: ${fg} on ${bg} is ${ratio.toFixed(2)}:1`);
      }
    }
    await page.emulateMediaFeatures([]);
  });

  it('a new App and a pending approval scroll into view; the page does not scroll past its content', async () => {
    await idle(page);
    // Fill the transcript first so the newest content starts out of view.
    for (let i = 0; i < 3; i++) {
      await typeAndEnter(page, `/sum ${i} 1`);
      await idle(page);
    }
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await typeAndEnter(page, '/call basic-vanillajs get-time {}');
    await page.waitForFunction(
      (find) => (new Function(`return (${find})`) as () => Element | undefined)()?.shadowRoot?.querySelector('ahp-mcp-app')?.matches(':state(ready)'),
      { timeout: WAIT_MS },
      LAST_TOOL_CALL,
    );
    const app = `${LAST_TOOL_CALL}.shadowRoot.querySelector('ahp-mcp-app')`;
    await waitOnScreen('the new App in view', page, app);

    await idle(page);
    await typeAndEnter(page, '/env');
    const allow = `${LAST_TOOL_CALL}.shadowRoot.querySelector('[data-action="approve"]')`;
    await waitOnScreen('Allow in view', page, allow);
    const deny = `${LAST_TOOL_CALL}.shadowRoot.querySelector('[data-action="deny"]')`;
    assert.ok((await onScreen(page, deny)).visible, 'Deny in view too');

    const { scrollHeight, contentBottom } = await page.evaluate(() => ({
      scrollHeight: document.documentElement.scrollHeight,
      contentBottom: Math.ceil(document.querySelector('.wrap')!.getBoundingClientRect().bottom + scrollY),
    }));
    assert.ok(scrollHeight <= contentBottom + 1, `the page scrolls to ${scrollHeight} px, its content ends at ${contentBottom} px`);
  });

  it('Enter while a turn waits keeps the text and says why nothing was sent', async () => {
    // The /env approval from the previous test is still pending.
    await page.waitForFunction(() => document.querySelector('ahp-chat')?.matches(':state(active)'), { timeout: WAIT_MS });
    await typeAndEnter(page, '/sum 2 2');
    const read = () =>
      page.evaluate(() => {
        const root = document.querySelector('ahp-chat')!.shadowRoot!;
        const hint = root.querySelector<HTMLElement>('[part~="composer-hint"]');
        return { value: root.querySelector('textarea')!.value, hint: hint?.checkVisibility() ? hint.innerText : '' };
      });
    const state = await read();
    assert.equal(state.value, '/sum 2 2', 'the text stays in the composer, on its own');
    assert.match(state.hint, /\S/, 'a visible hint explains why');
  });

  it('a pending approval left from an earlier visit tells the next visitor why the chat waits', async () => {
    const p = await browser.newPage();
    try {
      await p.setViewport({ width: 1024, height: 700 });
      await open(p);
      const hint = await p.waitForFunction(
        () => {
          const h = document.querySelector('ahp-chat')?.shadowRoot?.querySelector<HTMLElement>('[part~="composer-hint"]');
          return h?.checkVisibility() && h.innerText.trim() ? h.innerText : false;
        },
        { timeout: WAIT_MS },
      );
      assert.match(String(await hint.jsonValue()), /approv/i);
    } finally {
      await p.close();
    }
    // Answer it so the chat is free again.
    await page.evaluate((find) => (new Function(`return (${find})`) as () => HTMLButtonElement)().click(), `${LAST_TOOL_CALL}.shadowRoot.querySelector('[data-action="deny"]')`);
    await idle(page);
  });

  it('at 375 px an App gets most of the width', async () => {
    const p = await browser.newPage();
    try {
      await p.setViewport({ width: 375, height: 740, isMobile: true, hasTouch: true });
      await open(p);
      const width = await p.waitForFunction(
        () => {
          const tcs = [...(document.querySelector('ahp-chat')?.shadowRoot?.querySelectorAll('ahp-tool-call') ?? [])];
          const app = tcs.map((tc) => tc.shadowRoot?.querySelector('ahp-mcp-app')).find((a) => a?.matches(':state(ready)'));
          const frame = app?.shadowRoot?.querySelector('iframe');
          return frame ? frame.getBoundingClientRect().width : false;
        },
        { timeout: WAIT_MS },
      );
      const px = Number(await width.jsonValue());
      assert.ok(px >= 320, `the App is ${px} of 375 px wide`);
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
    } finally {
      await p.close();
    }
  });

  it('the page raised no errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});

// End to end: the demo page as a user sees it. Typing `/call <server> <tool> {}` into the chat runs the tool
// through the playground agent, and the App shows inline in the tool call, on that server's own sandbox origin.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, ElementHandle, Frame, Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { appServers } from '../fixtures/mcp-servers.js';
import { inFrame, clickLanded, launchChromium } from '../fixtures/playground-page.js';

const WAIT_MS = 20_000;

interface InlineApp {
  count: number;
  states: string[];
  status: string;
}

describe('demo page: MCP Apps inline in the chat (Chromium + real servers)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  /** The `<ahp-mcp-app>` elements inside the chat's tool calls (through the shadow roots), newest last. */
  const inlineApps = (): Promise<InlineApp> =>
    page.evaluate(() => {
      const chat = document.querySelector('ahp-chat');
      const apps = [...(chat?.shadowRoot?.querySelectorAll('ahp-tool-call') ?? [])].flatMap((tc) => [...(tc.shadowRoot?.querySelectorAll('ahp-mcp-app') ?? [])]);
      const last = apps.at(-1);
      return {
        count: apps.length,
        states: last ? ['loading', 'ready', 'error', 'closed'].filter((s) => last.matches(`:state(${s})`)) : [],
        status: last?.shadowRoot?.querySelector('[part~="status"]')?.textContent?.trim() ?? '',
      };
    });

  async function waitForApp(count: number): Promise<InlineApp> {
    const deadline = Date.now() + WAIT_MS;
    let last: InlineApp | undefined;
    for (;;) {
      last = await inlineApps();
      if (last.count >= count && last.states.includes('ready')) return last;
      if (last.states.includes('error') && last.count >= count) throw new Error(`the App failed: ${last.status}`);
      if (Date.now() > deadline) throw new Error(`no ready App #${count}; now ${JSON.stringify(last)}; page errors ${JSON.stringify(pageErrors)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function send(text: string): Promise<void> {
    const input = await page.waitForFunction(() => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('textarea') ?? false, { timeout: WAIT_MS });
    await page.waitForFunction(() => !document.querySelector('ahp-chat')?.matches(':state(active)'), { timeout: WAIT_MS });
    const el = input.asElement() as ElementHandle<HTMLTextAreaElement>;
    await clickLanded(el);
    await el.type(text);
    await page.keyboard.press('Enter');
  }

  /** View frames (the documents the sandbox proxy wrote) whose proxy is on `origin`. */
  async function viewFramesOn(origin: string): Promise<Frame[]> {
    const out: Frame[] = [];
    for (const f of page.frames()) {
      if (!f.parentFrame()?.url().startsWith(origin)) continue;
      if (await inFrame(f, () => !!document.body?.childElementCount).catch(() => false)) out.push(f);
    }
    return out;
  }

  before(async () => {
    const config = parseConfig({ servers: appServers(['basic-vanillajs', 'Basic'], ['debug', 'Debug']) });
    playground = await startPlayground({ port: 0, config });
    await playground.startServers();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
    await page.goto(playground.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('ahp-session')?.matches(':state(open)'), { timeout: WAIT_MS });
  });
  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('/call basic-vanillajs get-time {} shows the App inline, on basic-vanillajs\'s sandbox origin', async () => {
    await send('/call basic-vanillajs get-time {}');
    await waitForApp(1);
    const origin = playground.apps.sandboxes.get('basic-vanillajs')!.origin;
    const frames = await viewFramesOn(origin);
    assert.equal(frames.length, 1, 'one View document on that origin');
    const view = frames[0]!;
    assert.equal(await inFrame(view, () => location.origin), origin);
    const time = await view.waitForFunction(() => {
      const t = document.querySelector('#server-time')?.textContent?.trim();
      return t && t !== 'Loading...' ? t : false;
    }, { timeout: WAIT_MS });
    assert.ok(!Number.isNaN(Date.parse(String(await time.jsonValue()))), 'the View shows the tool result (a time)');
  });

  it('/call debug debug-tool {} shows the debug App on another origin than basic-vanillajs\'s', async () => {
    await send('/call debug debug-tool {}');
    await waitForApp(2);
    const debugOrigin = playground.apps.sandboxes.get('debug')!.origin;
    assert.notEqual(debugOrigin, playground.apps.sandboxes.get('basic-vanillajs')!.origin);
    const frames = await viewFramesOn(debugOrigin);
    assert.equal(frames.length, 1);
    assert.equal(await inFrame(frames[0]!, () => location.origin), debugOrigin);
  });

  it('no page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});

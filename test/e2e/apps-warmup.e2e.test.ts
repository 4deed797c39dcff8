// End to end: the sandbox proxy warmed before the first App. On the demo page (its own <ahp-session>, and
// AhpMcpApp.sandboxUrlFor set by the page), the real server-basic-vanillajs becomes ready and lists its View, so a
// proxy for its sandbox origin loads out of sight (and the host reads the View's resource, which its tool declares);
// the App of the first `/call` from the chat runs in exactly that frame, its read answered from the host's. The real
// server-everything offers Apps (tools, resources) but lists no View: no frame for it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { publishedServer } from '../fixtures/mcp-servers.js';
import { KEEP_NAMES_SHIM, launchChromium, recordMcpTraffic, untilWithin, type McpTraffic } from '../fixtures/playground-page.js';

const until = untilWithin(20_000);

interface Spare {
  origin: string;
  inert: boolean;
  focusable: boolean;
  right: number;
  sandbox: string | null;
}

describe('MCP Apps: the sandbox proxy warmed when the server is ready (Chromium + real servers)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;
  let traffic: McpTraffic;
  const pageErrors: string[] = [];

  /** The hidden spare proxy frames directly in the page's body. */
  const spares = (): Promise<Spare[]> =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLIFrameElement>('body > iframe[aria-hidden="true"]')].map((f) => ({
        origin: new URL(f.src).origin,
        inert: f.inert,
        focusable: (f.focus(), document.activeElement === f),
        right: f.getBoundingClientRect().right,
        sandbox: f.getAttribute('sandbox'),
      })),
    );
  const sandboxOrigin = (id: string) => playground.apps.sandboxes.get(id)!.origin;
  const sentMethods = (serverId: string, method: string) => (traffic.sent.get(serverId) ?? []).filter((m) => 'method' in m && m.method === method).length;

  before(async () => {
    const config = parseConfig({ servers: [publishedServer('server-basic-vanillajs', 'basic', 'Basic'), publishedServer('server-everything', 'everything', 'Everything')] });
    playground = await startPlayground({ port: 0, config });
    traffic = recordMcpTraffic(playground);
    await playground.startServers();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
    await page.evaluateOnNewDocument(KEEP_NAMES_SHIM);
    await page.goto(playground.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('ahp-session')?.matches(':state(open)'), { timeout: 20_000 });
  });
  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('a proxy for the View\'s sandbox origin loads out of sight, inert, once the server is ready; none for a server without a View', async () => {
    const [spare] = await until('a spare proxy for basic', async () => {
      const found = (await spares()).filter((s) => s.origin === sandboxOrigin('basic'));
      return found.length ? found : undefined;
    }, spares);
    assert.equal(spare!.inert, true);
    assert.equal(spare!.focusable, false);
    assert.ok(spare!.right <= 0, 'off screen');
    assert.equal(spare!.sandbox, 'allow-scripts allow-same-origin allow-forms', 'the sandbox of an App frame');
    // server-everything was asked for its listing (it offers resources) and lists no ui:// resource.
    await until('the everything listing answered', () => (traffic.received.get('everything') ?? []).some((m) => 'result' in m && Array.isArray((m.result as { resources?: unknown })?.resources)));
    assert.deepEqual((await spares()).map((s) => s.origin), [sandboxOrigin('basic')], 'one spare, for basic only');
    // The host read the View's resource once when the server became ready (its tool declares it), before any tool call.
    await until('the host\'s pre-read of the View', () => sentMethods('basic', 'resources/read') === 1);
  });

  it('the first App from the chat runs in that warmed frame; the server is listed once and read once (the host\'s pre-read serves the App)', async () => {
    // Mark the loaded spare so the App's frame can be recognised as the very same element.
    await until('the spare announced itself', () =>
      page.evaluate((origin: string) => {
        const spare = [...document.querySelectorAll<HTMLIFrameElement>('body > iframe[aria-hidden="true"]')].find((f) => f.src.startsWith(origin));
        if (!spare) return false;
        (spare as unknown as { __warmed: boolean }).__warmed = true;
        return true;
      }, sandboxOrigin('basic')),
    );
    const input = (await page.waitForFunction(() => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('textarea') ?? false, { timeout: 20_000 })).asElement() as ElementHandle<HTMLTextAreaElement>;
    await input.click();
    await input.type('/call basic get-time {}');
    await page.keyboard.press('Enter');
    const app = await until('the App ready in the chat', () =>
      page.evaluate(() => {
        const apps = [...(document.querySelector('ahp-chat')?.shadowRoot?.querySelectorAll('ahp-tool-call') ?? [])].flatMap((tc) => [...(tc.shadowRoot?.querySelectorAll('ahp-mcp-app') ?? [])]);
        const el = apps[0];
        if (el?.matches(':state(error)')) return { error: el.shadowRoot?.textContent?.trim() ?? '' };
        if (!el?.matches(':state(ready)')) return undefined;
        const frames = [...el.shadowRoot!.querySelectorAll('iframe')];
        return { frames: frames.length, warmed: frames.map((f) => (f as unknown as { __warmed?: boolean }).__warmed === true), inert: frames[0]!.inert, hidden: frames[0]!.hasAttribute('aria-hidden') };
      }),
    );
    assert.ok(!('error' in app), `the App failed: ${'error' in app ? app.error : ''}`);
    assert.deepEqual(app.warmed, [true], 'one frame in the App: the warmed proxy');
    assert.equal(app.inert, false);
    assert.equal(app.hidden, false);
    // The next spare for the origin is warmed once this View is up: never more than one per origin.
    assert.ok((await spares()).filter((s) => s.origin === sandboxOrigin('basic')).length <= 1);
    assert.equal(sentMethods('basic', 'resources/list'), 1, 'one listing (the host\'s at ready): the warm-up and the App were answered from it');
    assert.equal(sentMethods('basic', 'resources/read'), 1, 'the App\'s read was answered from the pre-read');
  });

  it('no page errors', () => {
    assert.deepEqual(pageErrors, []);
  });
});

// Benchmark: does a chat with 50 MCP App tool calls stay responsive to typing? The playground page (examples/index.html:
// <ahp-session> with <ahp-chat>, every server's Views on its own sandbox origin) runs 50 `/call basic-vanillajs
// get-time` turns against the real server-basic-vanillajs over stdio; <ahp-tool-call> embeds an <ahp-mcp-app> for each.
// Once every View has initialized, the bench types into the chat composer and prints the input latency per key
// (keydown's timestamp → the frame after the next paint: rAF, then a task) as median/p95/max, the Event Timing
// entries of 16 ms or more (keydown/keyup/input, which include the time to the next paint), and how many App iframes
// are live, with Chromium's resident memory. The same typing on the page before any App gives the baseline. (Headless Chromium may report no Event
// Timing entries at all once the page has many out-of-process frames; the keydown → paint figure is the one to read.)
// Apps whose start failed (e.g. a sandbox handshake timed out on a loaded machine) are counted and printed. Apps far out
// of view (`AhpMcpApp.suspendMargin`) wait or are suspended, so only those near the end of the transcript run; after
// the typing, the bench scrolls the transcript to its start and back, four screens at a time, waiting at each
// stop for the Apps near it to start again, and counts the Apps that failed over the whole run. It ends with the budget
// lines (input latency median and p95 under 50 ms, no App failed) and the load average. Asserts nothing.
// Run: node --import tsx test/bench/apps-many.ts [apps] [keys] [margin]   (margin: `AhpMcpApp.suspendMargin` for the run,
// `none` to start and keep every App whatever its place: the stress case for the sandbox origin's proxy loads)
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Browser, Page } from 'puppeteer-core';
import { startPlayground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { KEEP_NAMES_SHIM, launchChromium, sayInPage, turnIn, untilWithin } from '../fixtures/playground-page.js';
import { publishedServer } from '../fixtures/mcp-servers.js';

const APPS = Number(process.argv[2] ?? 50);
const KEYS = Number(process.argv[3] ?? 60);
const MARGIN = process.argv[4];
const until = untilWithin(60_000, 100);

/** What one typing run measured in the page. */
interface Typing {
  /** keydown → after the next paint, per key (ms). */
  latencies: number[];
  /** Event Timing entries of at least 16 ms: name and duration. */
  slowEvents: { name: string; duration: number }[];
  /** Long animation frames (≥ 50 ms) while typing: duration, the part that blocked input, the script that ran longest. */
  longFrames: { duration: number; blocking: number; script: string }[];
  /** Characters that reached the composer. */
  typed?: number;
}

/** What the page holds: every <ahp-mcp-app> (through the shadow roots) by state, and its live iframes. */
interface AppCensus {
  apps: number;
  ready: number;
  /** Far out of view: not started yet, or stopped until it comes near. */
  suspended: number;
  /** Starting (loading, or about to). */
  starting: number;
  failed: string[];
  /** Every iframe in the page's shadow roots (each App: its sandbox proxy frame). */
  iframes: number;
}

const census = (page: Page): Promise<AppCensus> =>
  page.evaluate(() => {
    const apps: Element[] = [];
    let iframes = 0;
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.localName === 'ahp-mcp-app') apps.push(el);
        if (el.localName === 'iframe') iframes++;
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return {
      apps: apps.length,
      ready: apps.filter((a) => a.matches(':state(ready)')).length,
      suspended: apps.filter((a) => a.matches(':state(suspended)')).length,
      starting: apps.filter((a) => !a.matches(':state(ready), :state(suspended), :state(error), :state(closed)')).length,
      failed: apps.filter((a) => a.matches(':state(error)')).map((a) => a.shadowRoot?.textContent?.trim().slice(0, 200) ?? ''),
      iframes,
    };
  });

/** Types `KEYS` characters into the chat composer, 40 ms apart, and returns what the page measured; clears it after. */
async function typeIntoComposer(page: Page): Promise<Typing> {
  await page.evaluate(() => {
    const w = window as unknown as { __typing: Typing; __typingObserved?: true };
    w.__typing = { latencies: [], slowEvents: [], longFrames: [] };
    if (w.__typingObserved) return;
    w.__typingObserved = true;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (['keydown', 'keyup', 'input', 'keypress'].includes(e.name)) w.__typing.slowEvents.push({ name: e.name, duration: e.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
    // Where the main thread went in a slow frame: shows whether the page's own work or only the machine made it slow.
    type LoafScript = { duration: number; invoker: string; sourceURL: string; sourceFunctionName: string };
    type Loaf = PerformanceEntry & { blockingDuration: number; scripts: LoafScript[] };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Loaf[]) {
        const top = [...e.scripts].sort((a, b) => b.duration - a.duration)[0];
        const script = top ? `${Math.round(top.duration)} ms ${top.invoker} ${top.sourceFunctionName || ''} ${top.sourceURL.split('/').pop() ?? ''}`.trim() : 'no script';
        w.__typing.longFrames.push({ duration: e.duration, blocking: e.blockingDuration, script });
      }
    }).observe({ type: 'long-animation-frame', buffered: false });
    // Capture on the window: runs before the composer's own handlers; the latency ends after the next paint.
    addEventListener(
      'keydown',
      (e) => {
        const start = e.timeStamp;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => w.__typing.latencies.push(performance.now() - start);
          channel.port2.postMessage(null);
        });
      },
      { capture: true },
    );
  });
  const input = await page.waitForSelector('ahp-chat >>> textarea[part~="input"]', { timeout: 10_000 });
  await input!.click();
  const text = 'the quick brown fox jumps over the lazy dog 0123456789 '.repeat(Math.ceil(KEYS / 55)).slice(0, KEYS);
  await page.keyboard.type(text, { delay: 40 });
  // The last key's paint, and Event Timing entries, arrive after the keystroke returns.
  await until('every key measured', () => page.evaluate((n: number) => (window as unknown as { __typing: Typing }).__typing.latencies.length >= n, KEYS));
  await new Promise((r) => setTimeout(r, 300));
  const typing = await page.evaluate(() => (window as unknown as { __typing: Typing }).__typing);
  typing.typed = await input!.evaluate((t) => (t as HTMLTextAreaElement).value.length);
  await input!.evaluate((t) => {
    (t as HTMLTextAreaElement).value = '';
    t.dispatchEvent(new Event('input', { bubbles: true }));
  });
  return typing;
}

/** Resident memory of Chromium and every process under it, in MB (Linux /proc; undefined elsewhere). */
function chromiumRssMb(browser: Browser): number | undefined {
  const root = browser.process()?.pid;
  if (!root) return undefined;
  try {
    let kb = 0;
    const pending = [root];
    while (pending.length) {
      const pid = pending.pop()!;
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        pending.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
      }
    }
    return Math.round(kb / 1024);
  } catch {
    return undefined;
  }
}

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `median ${at(0.5).toFixed(1)} ms  p95 ${at(0.95).toFixed(1)} ms  max ${s[s.length - 1]!.toFixed(1)} ms  (n=${s.length})`;
}

/** The value at quantile `q` of `ms` (nearest rank below). */
function quantile(ms: number[], q: number): number {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const load = () => loadavg().map((n) => n.toFixed(1)).join(' / ');

/** Scrolls the transcript by `screens` of its height (negative: up) until its start or end, waiting at each stop for the Apps near it to settle. */
async function scrollThrough(page: Page, screens: number): Promise<{ stops: number; maxReady: number }> {
  let stops = 0;
  let maxReady = 0;
  for (;;) {
    const moved = await page.evaluate((screens: number) => {
      const t = document.querySelector('ahp-session ahp-chat, ahp-chat')?.shadowRoot?.querySelector<HTMLElement>('.transcript');
      if (!t) throw new Error('no transcript');
      const before = t.scrollTop;
      t.scrollTop = before + screens * t.clientHeight;
      return t.scrollTop !== before;
    }, screens);
    if (!moved) return { stops, maxReady };
    stops++;
    // The observer reports on the next frames; then every App near this stop has started (or failed).
    await new Promise((r) => setTimeout(r, 100));
    const c = await until(`the Apps near scroll stop ${stops} settled`, async () => {
      const c = await census(page);
      return c.starting === 0 ? c : undefined;
    }, () => census(page), 90_000);
    maxReady = Math.max(maxReady, c.ready);
  }
}

function report(label: string, t: Typing, c: AppCensus, frames: number, rssMb: number | undefined): void {
  const slow = t.slowEvents.map((e) => Math.round(e.duration));
  console.log(`${label}: ${c.apps} <ahp-mcp-app> (${c.ready} ready, ${c.suspended} suspended far out of view), ${c.iframes} iframes in the page, ${frames} frames in Chromium, Chromium resident memory ${rssMb ?? 'n/a'} MB`);
  console.log(`  keydown → after next paint:  ${stats(t.latencies)}; ${t.typed}/${KEYS} characters reached the composer`);
  console.log(`  Event Timing entries ≥ 16 ms reported: ${slow.length ? `${slow.length} (max ${Math.max(...slow)} ms)` : 'none'}`);
  const long = [...t.longFrames].sort((a, b) => b.duration - a.duration);
  console.log(`  long animation frames (≥ 50 ms) while typing: ${long.length}${long.length ? `; longest: ${long.slice(0, 3).map((f) => `${Math.round(f.duration)} ms (blocking ${Math.round(f.blocking)} ms; longest script: ${f.script})`).join(', ')}` : ''}`);
}

const config = parseConfig({ servers: [publishedServer('server-basic-vanillajs', 'basic-vanillajs', 'Basic')] });
const playground = await startPlayground({ port: 0, config });
const browser = await launchChromium();
const loadBefore = load();
try {
  await playground.startServers();
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
  await page.evaluateOnNewDocument(KEEP_NAMES_SHIM);
  // Set as soon as the element is defined, before the chat renders any App (and again on the reopened page).
  if (MARGIN) await page.evaluateOnNewDocument((m: string) => {
    void customElements.whenDefined('ahp-mcp-app').then((McpApp) => void ((McpApp as unknown as { suspendMargin: string | null }).suspendMargin = m === 'none' ? null : m));
  }, MARGIN);
  // The playground's own page: <ahp-session> → <ahp-chat>, with McpApp.sandboxUrlFor pointing at each server's sandbox.
  await page.goto(playground.url, { waitUntil: 'load' });
  await page.waitForFunction(() => (document.querySelector('ahp-session') as unknown as { connectionState?: { kind: string } } | null)?.connectionState?.kind === 'open', { timeout: 20_000 });
  await page.waitForSelector('ahp-chat >>> textarea[part~="input"]', { timeout: 20_000 });

  if (MARGIN) console.log(`AhpMcpApp.suspendMargin for this run: ${MARGIN}`);
  const baseline = await typeIntoComposer(page);
  report('Before any App (baseline)', baseline, await census(page), page.frames().length, chromiumRssMb(browser));

  const started = Date.now();
  const chat = () => playground.host.getChatState(playground.chatUri);
  for (let i = 0; i < APPS; i++) {
    const turnId = await sayInPage(page, playground, '/call basic-vanillajs get-time {}', until);
    // The host has the turn before the next one is sent (one active turn at a time).
    await until(`turn ${i + 1} at the host`, () => turnIn(chat(), turnId));
  }
  /** How many turns the chat holds and its tool calls by status. */
  const toolCallSummary = () => {
    const c = chat();
    const statuses: Record<string, number> = {};
    for (const turn of c?.turns ?? []) for (const p of turn.responseParts) if (p.kind === 'toolCall') statuses[p.toolCall.status] = (statuses[p.toolCall.status] ?? 0) + 1;
    return { turns: c?.turns.length, statuses };
  };
  await until('the last turn ended', () => !chat()?.activeTurn, () => chat()?.activeTurn?.message.text);
  // Every App settled: ready, or failed (a loaded machine can time out a sandbox handshake; reported below).
  const settled = await until(`${APPS} Views initialized or failed`, async () => {
    const c = await census(page);
    return c.ready + c.suspended + c.failed.length >= APPS ? c : undefined;
  }, async () => ({ ...(await census(page)), calls: toolCallSummary() }), 90_000);
  console.log(`\n${APPS} App tool calls run and their Views settled in ${((Date.now() - started) / 1000).toFixed(1)} s: ${settled.ready} initialized, ${settled.suspended} suspended far out of view, ${settled.failed.length} failed`);
  for (const reason of new Set(settled.failed)) console.log(`  failed: ${reason}`);
  console.log('');

  const loaded = await typeIntoComposer(page);
  report(`${APPS} Apps in one chat`, loaded, await census(page), page.frames().length, chromiumRssMb(browser));

  // Every App comes near once (the near zone is the transcript and 3 of its heights each side): to its start and back, four screens at a time.
  const scrolled = Date.now();
  const up = await scrollThrough(page, -4);
  const down = await scrollThrough(page, 4);
  const after = await census(page);
  console.log(`\nScrolled through the transcript and back (${up.stops + down.stops} stops, ${((Date.now() - scrolled) / 1000).toFixed(1)} s): at most ${Math.max(up.maxReady, down.maxReady)} Views running at once; now ${after.ready} ready, ${after.suspended} suspended, ${after.failed.length} failed`);
  for (const reason of new Set(after.failed)) console.log(`  failed: ${reason}`);

  // The same chat opened again: all its Apps are rendered at once (the worst case for one sandbox origin).
  const reloaded = Date.now();
  await page.reload({ waitUntil: 'load' });
  const reopened = await until(`the reopened chat's ${APPS} Apps settled`, async () => {
    const c = await census(page);
    return c.apps >= APPS && c.starting === 0 ? c : undefined;
  }, () => census(page), 120_000);
  console.log(`Reopened the chat (all ${APPS} Apps rendered at once), settled in ${((Date.now() - reloaded) / 1000).toFixed(1)} s: ${reopened.ready} ready, ${reopened.suspended} suspended, ${reopened.failed.length} failed`);
  for (const reason of new Set(reopened.failed)) console.log(`  failed: ${reason}`);
  if (pageErrors.length) console.log(`\npage errors: ${pageErrors.slice(0, 5).join(' | ')}`);

  const median = quantile(loaded.latencies, 0.5);
  const p95 = quantile(loaded.latencies, 0.95);
  const failed = Math.max(settled.failed.length, after.failed.length) + reopened.failed.length;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const base = `the same page before any App: ${quantile(baseline.latencies, 0.5).toFixed(1)} / ${quantile(baseline.latencies, 0.95).toFixed(1)} ms`;
  console.log(`\nbudget: input latency with ${APPS} Apps, median ${median.toFixed(1)} ms (budget < 50 ms): ${verdict(median < 50)}  (${base})`);
  console.log(`budget: input latency with ${APPS} Apps, p95 ${p95.toFixed(1)} ms (budget < 50 ms): ${verdict(p95 < 50)}`);
  console.log(`budget: Apps failed ${failed} (of ${APPS} in the chat, then ${APPS} when it is reopened; budget 0): ${verdict(failed === 0)}`);
  console.log(`load average (1/5/15 min): ${loadBefore} before, ${load()} after`);
} finally {
  await browser.close();
  await playground.close();
}

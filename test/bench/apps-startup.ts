// Benchmark: how long an MCP App takes to come up in the playground, from `<ahp-mcp-app>` being connected to the
// View's `ui/notifications/initialized` reaching the page (the element turns :state(ready) in that same message
// task), next to the View's own load: the same HTML served straight into an iframe on the same sandbox origin, timed
// to its `ui/initialize` request. Budget: App start within 1.2x of the View's own load, for the small test Views and
// for the published example servers the playground and the e2e run.
//
// Each round goes through every App in turn (so machine load hits them alike) and measures:
//   1. the View's own load on a cold origin (no frame of the origin left for a second before);
//   2. a cold App: resource cache and spare proxies cleared, cold origin (the first App of a server start). Since
//      session 11 the playground host asks each server's listing and reads the Views its tools declare when the server
//      becomes ready, and answers the App's listing and read from that (examples/playground/apps/ui-resource-preread.ts):
//      this is the first App of a tool call made after the server is up, with the server's own answer, the stdio pipe
//      and the SDK's parse already done; what is left of the read is the host's send and the page's receipt;
//   3. a second App of the server (resource read, a spare proxy warmed by the first);
//   4. the View's own load on a live origin (the comparison for 3);
//   5. a warmed first App: what a page gets when the server became ready again before the call (a later start of a
//      server whose App the page showed before). Resource cache and spares cleared but not what earlier reads said
//      about each View's `_meta.ui` (`resources.clear(true)`, as a server restart keeps it; since session 10: a View
//      whose CSP is only in its content item, as pdf's, gets its own warmed proxy), cold origin, then the page sets
//      `AhpMcpApp.sandboxUrlFor` (as the playground page does; resolving
//      only this server), which runs the same warm-up as a server becoming ready: the server's listing is asked and
//      a spare proxy for its View loads out of sight. Once that spare has announced itself (and no listing is
//      pending), `<ahp-mcp-app>` is connected without `sandbox-url` (resolved like the playground's); the
//      resource is not cached in the page, so it is read as for any first App (answered from the host's pre-read, as
//      in 2.). Its budget line compares with the cold own load
//      (1.), the same baseline as the cold App; the live-origin ratio is printed below for comparison.
// Medians over the rounds (after one warm-up round, printed apart); the load average is sampled before every round.
// The cold App's phases (listing and read answered, proxy ready, ui/initialize, initialized) are printed too.
// Prints numbers and one budget line per App and condition; asserts nothing. After them, for comparison only, the
// App timed to the own load's end point (`ui/initialize` reaching the page): the budget lines include the View's
// answer to the host's `ui/initialize` reply (its own start-up code until `initialized`), which the own load does not.
// Chromium runs without DevTools' Network domain: with it on, Chromium copies every WebSocket frame into DevTools,
// which only the App's side has (the resource read's answer) and which costs a 4.4 MB frame hundreds of ms.
// Run: node --import tsx test/bench/apps-startup.ts [rounds] [serverId,…]
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import type { Page } from 'puppeteer-core';
import { startPlayground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { launchChromium, openSessionPage } from '../fixtures/playground-page.js';
import { sandboxResponseHeaders } from '../../src/apps/sandbox-headers.js';
import { appStart, appsNamed, instrumentPage, originIdle, serversConfig, warmedStart, type BenchApp, type Phases } from './apps-startup-page.js';

/** Where the bench serves a View's HTML on its sandbox origin (the request is answered by the bench's own server). */
const VIEW_PATH = '/__bench-view.html';
const BUDGET = 1.2;
const ROUNDS = Number(process.argv[2] ?? 5);
const APPS: BenchApp[] = appsNamed(process.argv[3]);

const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  return `median ${median(s).toFixed(0)} ms  min ${s[0]!.toFixed(0)}  max ${s.at(-1)!.toFixed(0)}  (n=${s.length})`;
}
const load = () => loadavg()[0]!;

/** The View's HTML per sandbox origin, served by a plain HTTP server the browser reaches in place of the origin. */
function startViewServer(viewHtml: Map<string, string>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const html = viewHtml.get(String(req.headers['x-bench-origin'] ?? ''));
    if (html === undefined) return void res.writeHead(404).end();
    res.writeHead(200, sandboxResponseHeaders(null, { policy: 'compat' }));
    res.end(html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * Only requests for VIEW_PATH are paused (CDP Fetch with a pattern: the proxy pages and everything else load
 * untouched) and sent on to the bench's server, the page still seeing the sandbox origin.
 */
async function routeViewLoads(page: Page, viewServer: http.Server): Promise<void> {
  const port = (viewServer.address() as AddressInfo).port;
  const cdp = await page.createCDPSession();
  cdp.on('Fetch.requestPaused', (event: { requestId: string; request: { url: string; headers: Record<string, string> } }) => {
    const origin = new URL(event.request.url).origin;
    const headers = Object.entries({ ...event.request.headers, 'x-bench-origin': origin }).map(([name, value]) => ({ name, value }));
    void cdp.send('Fetch.continueRequest', { requestId: event.requestId, url: `http://127.0.0.1:${port}${VIEW_PATH}`, headers }).catch(() => {});
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `*${VIEW_PATH}*`, requestStage: 'Request' }] });
}

const config = parseConfig(serversConfig(APPS));
const serverLog: string[] = [];
const playground = await startPlayground({ port: 0, config, log: (line) => serverLog.push(line) });
const viewHtml = new Map<string, string>();
const viewServer = await startViewServer(viewHtml);
const browser = await launchChromium({ networkEnabled: false });

interface Samples {
  cold: number[];
  coldView: number[];
  second: number[];
  /** Connected → the View's `ui/initialize` reached the page (the own load's end point), cold and second App. */
  coldInit: number[];
  secondInit: number[];
  view: number[];
  /** The warmed first App (5.): connected → initialized, and → ui/initialize. */
  warmed: number[];
  warmedInit: number[];
  warmedPhases: Phases[];
  /** Rounds in which the warmed first App ran in the warmed proxy (not when the View's read names a CSP or permissions the listing did not). */
  inWarmedFrame: number;
  phases: Phases[];
  warmup: string;
}

try {
  await playground.startServers();
  const page = await browser.newPage();
  await routeViewLoads(page, viewServer);
  // One session, connected before anything is measured (its store serves the Apps' mcp:// channels).
  await openSessionPage(page, playground, { id: 'bench-session' });
  await instrumentPage(page);

  for (const app of APPS) {
    const sandbox = playground.apps.sandboxes.get(app.serverId)!;
    const html = await page.evaluate(async (serverId: string, uri: string) => {
      // A server that did not come up says why in the playground's log (printed below).
      const session = document.getElementById('bench-session') as unknown as { currentHandle: { mcpChannel(id: string): { request(m: string, p: unknown): Promise<{ contents: { text?: string }[] }> } } };
      const result = await session.currentHandle.mcpChannel(serverId).request('resources/read', { uri });
      return result.contents[0]?.text ?? '';
    }, app.serverId, app.uri).catch((error: unknown) => {
      throw new Error(`${app.serverId}: ${String(error)}\n${serverLog.filter((l) => l.includes(app.serverId)).slice(-10).join('\n')}`);
    });
    viewHtml.set(sandbox.origin, html);
  }

  const viewLoad = (viewUrl: string) =>
    page.evaluate(
      (viewUrl: string) =>
        new Promise<number>((resolve, reject) => {
          const frame = document.createElement('iframe');
          frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
          const timer = setTimeout(() => done(new Error(`no ui/initialize from ${viewUrl} within 30 s`)), 30_000);
          const onMessage = (event: MessageEvent) => {
            if (event.source === frame.contentWindow && (event.data as { method?: unknown })?.method === 'ui/initialize') done(performance.now() - start);
          };
          const done = (result: number | Error) => {
            clearTimeout(timer);
            removeEventListener('message', onMessage);
            frame.remove();
            if (typeof result === 'number') resolve(result);
            else reject(result);
          };
          addEventListener('message', onMessage);
          const start = performance.now();
          frame.src = `${viewUrl}?r=${Math.random()}`;
          document.body.append(frame);
        }),
      viewUrl,
    );
  console.log(`MCP App start-up in Chromium: ${ROUNDS} rounds after one warm-up, Apps interleaved; load average at start ${load().toFixed(1)}\n`);
  const samples = new Map<string, Samples>(APPS.map((a) => [a.serverId, { cold: [], coldView: [], second: [], coldInit: [], secondInit: [], view: [], warmed: [], warmedInit: [], warmedPhases: [], inWarmedFrame: 0, phases: [], warmup: '' }]));
  const loads: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    loads.push(load());
    for (const app of APPS) {
      const sandbox = playground.apps.sandboxes.get(app.serverId)!;
      const viewUrl = `${sandbox.origin}${VIEW_PATH}`;
      await originIdle(page);
      const coldViewMs = await viewLoad(viewUrl);
      await originIdle(page);
      const phases = await appStart(page, app, sandbox.url, sandbox.origin, true);
      const second = await appStart(page, app, sandbox.url, sandbox.origin, false);
      const secondMs = second.initialized;
      const viewMs = await viewLoad(viewUrl);
      await originIdle(page);
      const warmed = await warmedStart(page, app, sandbox.url, sandbox.origin);
      const s = samples.get(app.serverId)!;
      if (round < 0) s.warmup = `cold App ${phases.initialized.toFixed(0)} ms / own load ${coldViewMs.toFixed(0)} ms; second App ${secondMs.toFixed(0)} ms / own load ${viewMs.toFixed(0)} ms; warmed first App ${warmed.initialized.toFixed(0)} ms`;
      else {
        s.warmed.push(warmed.initialized);
        if (warmed.inWarmedFrame) s.inWarmedFrame++;
        if (warmed.initialize !== undefined) s.warmedInit.push(warmed.initialize);
        s.warmedPhases.push(warmed);
        s.cold.push(phases.initialized);
        s.coldView.push(coldViewMs);
        s.second.push(secondMs);
        if (phases.initialize !== undefined) s.coldInit.push(phases.initialize);
        if (second.initialize !== undefined) s.secondInit.push(second.initialize);
        s.view.push(viewMs);
        s.phases.push(phases);
      }
    }
  }
  loads.push(load());
  const loadText = `load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;

  const budgetLines: string[] = [];
  for (const app of APPS) {
    const s = samples.get(app.serverId)!;
    const phaseOf = (list: Phases[]) => (key: keyof Phases) => {
      const values = list.map((p) => p[key]).filter((v): v is number => v !== undefined);
      return values.length ? `${median(values).toFixed(0)}` : '–';
    };
    const phase = phaseOf(s.phases);
    const warmedPhase = phaseOf(s.warmedPhases);
    console.log(`${app.serverId} (${app.kind}, ${app.uri}, ${(viewHtml.get(playground.apps.sandboxes.get(app.serverId)!.origin)!.length / 1024).toFixed(0)} KB)`);
    console.log(`  warm-up round: ${s.warmup}`);
    console.log(`  cold App (cache and spares cleared, cold origin): ${stats(s.cold)}`);
    console.log(`    phases, medians ms from connected: listing ${phase('listed')}, read ${phase('read')}, proxy ready ${phase('proxyReady')}, ui/initialize ${phase('initialize')}, initialized ${phase('initialized')}`);
    console.log(`  the View's own load, cold origin:               ${stats(s.coldView)}`);
    console.log(`  second App of the server:                       ${stats(s.second)}`);
    console.log(`  the View's own load, live origin:               ${stats(s.view)}`);
    console.log(`  warmed first App (server ready again before the call, cache cleared, the View's meta from earlier reads kept): ${stats(s.warmed)}; ran in the warmed proxy in ${s.inWarmedFrame} of ${s.warmed.length} rounds`);
    console.log(`    phases, medians ms from connected: listing ${warmedPhase('listed')} (asked by the warm-up), read ${warmedPhase('read')}, proxy ready ${warmedPhase('proxyReady')} (before connected when warmed), ui/initialize ${warmedPhase('initialize')}, initialized ${warmedPhase('initialized')}\n`);
    for (const [what, app_, own] of [['cold App', s.cold, s.coldView], ['second App', s.second, s.view], ['warmed first App', s.warmed, s.coldView]] as const) {
      const ratio = median(app_) / median(own);
      budgetLines.push(
        `budget ${app.serverId.padEnd(16)} ${what.padEnd(16)} start ${median(app_).toFixed(0).padStart(5)} ms  own load ${median(own).toFixed(0).padStart(5)} ms  ` +
          `${ratio.toFixed(2)}x (budget ${BUDGET}x) ${ratio <= BUDGET ? 'met' : 'MISSED'}  ${loadText}`,
      );
    }
  }
  console.log(budgetLines.join('\n'));
  // The budget lines end the App at `initialized` (the "View initialized"), after the host answered the View's
  // `ui/initialize` and the View ran its own start-up code; the own load ends at `ui/initialize`. The same end point on
  // both sides, for reading the figures (not a budget line):
  console.log('\nsame end point (connected → ui/initialize reaches the page), for comparison only:');
  for (const app of APPS) {
    const s = samples.get(app.serverId)!;
    for (const [what, app_, own] of [['cold App', s.coldInit, s.coldView], ['second App', s.secondInit, s.view], ['warmed first App', s.warmedInit, s.coldView]] as const) {
      if (!app_.length) continue;
      console.log(`  ${app.serverId.padEnd(16)} ${what.padEnd(16)} to ui/initialize ${median(app_).toFixed(0).padStart(5)} ms  own load ${median(own).toFixed(0).padStart(5)} ms  ${(median(app_) / median(own)).toFixed(2)}x`);
    }
  }
  // The warmed first App against the own load on a live origin (whose process is up, as the warmed proxy's is).
  console.log('\nwarmed first App against the own load on a live origin, for comparison only:');
  for (const app of APPS) {
    const s = samples.get(app.serverId)!;
    console.log(`  ${app.serverId.padEnd(16)} warmed first App ${median(s.warmed).toFixed(0).padStart(5)} ms  own load, live origin ${median(s.view).toFixed(0).padStart(5)} ms  ${(median(s.warmed) / median(s.view)).toFixed(2)}x`);
  }
} finally {
  await browser.close();
  await playground.close();
  viewServer.close();
}

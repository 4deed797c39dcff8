// Benchmark: how long an MCP App takes to come up in the playground, from `<ahp-mcp-app>` being connected to the
// View's `ui/notifications/initialized` (the element's :state(ready)), next to the View's own load (the same HTML
// served straight into an iframe on the same sandbox origin, timed to its `ui/initialize` request) and the ratio of
// the two (the budget is 1.2x), and the load time of a blank iframe on that origin (the floor any sandboxed App
// pays). Rounds interleave them so machine load hits them alike: a second App of the server (resource cached, proxy
// warmed) against the View's own load, and a cold App (cache and spare proxies cleared, no frame of the origin left
// for a second before) against the View's own load under the same condition. The warm-up round is printed on its own.
// Prints numbers; asserts nothing.
// Run: node --import tsx test/bench/apps-startup.ts [rounds]
import { startPlayground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { launchChromium, openSessionPage } from '../fixtures/playground-page.js';
import { sandboxResponseHeaders } from '../../src/apps/sandbox-headers.js';

/** Where the bench serves a View's HTML straight from its sandbox origin (answered by request interception). */
const VIEW_PATH = '/__bench-view.html';

const ROUNDS = Number(process.argv[2] ?? 10);

const APPS = [
  { serverId: 'basic-vanillajs', uri: 'ui://get-time/mcp-app.html', module: '@modelcontextprotocol/server-basic-vanillajs' },
  { serverId: 'debug', uri: 'ui://debug-tool/mcp-app.html', module: '@modelcontextprotocol/server-debug' },
];

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `median ${at(0.5).toFixed(1)} ms  p90 ${at(0.9).toFixed(1)} ms  min ${s[0]!.toFixed(1)} ms  mean ${mean.toFixed(1)} ms  (n=${s.length})`;
}

const config = parseConfig({
  servers: APPS.map((a) => ({ id: a.serverId, name: a.serverId, transport: 'stdio', command: 'node', args: [`node_modules/${a.module}/dist/index.js`, '--stdio'] })),
});
const playground = await startPlayground({ port: 0, config });
const browser = await launchChromium();
try {
  await playground.startServers();
  const page = await browser.newPage();
  // The View's own load: its HTML as the sandbox origin's response, with the proxy page's default (compat) CSP.
  const viewHtml = new Map<string, string>();
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = new URL(request.url());
    const html = url.pathname === VIEW_PATH ? viewHtml.get(url.origin) : undefined;
    if (html === undefined) return void request.continue();
    void request.respond({ status: 200, headers: sandboxResponseHeaders(null, { policy: 'compat' }), body: html });
  });
  // One session, connected before anything is measured (its store serves the Apps' mcp:// channels).
  await openSessionPage(page, playground, { id: 'bench-session' });

  console.log(`MCP Apps startup in Chromium (${ROUNDS} rounds each, after one warm-up; each round: View's own load and a cold App on a cold origin, a second App of the server, the View's own load, a blank frame)\n`);
  for (const app of APPS) {
    const sandbox = playground.apps.sandboxes.get(app.serverId)!;
    const appTimes: number[] = [];
    const coldTimes: number[] = [];
    const viewTimes: number[] = [];
    const coldViewTimes: number[] = [];
    const blankTimes: number[] = [];
    const html = await page.evaluate(async (serverId: string, uri: string) => {
      const session = document.getElementById('bench-session') as unknown as { currentHandle: { mcpChannel(id: string): { request(m: string, p: unknown): Promise<{ contents: { text?: string }[] }> } } };
      const result = await session.currentHandle.mcpChannel(serverId).request('resources/read', { uri });
      return result.contents[0]?.text ?? '';
    }, app.serverId, app.uri);
    viewHtml.set(sandbox.origin, html);
    let cold = '';
    const viewLoad = () => page.evaluate(
          (viewUrl: string) =>
            new Promise<number>((resolve, reject) => {
              const frame = document.createElement('iframe');
              frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
              const timer = setTimeout(() => done(new Error(`no ui/initialize from ${viewUrl} within 15 s`)), 15_000);
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
          `${sandbox.origin}${VIEW_PATH}`,
        );
    const originIdle = async () => {
      await page.evaluate(() => (customElements.get('ahp-mcp-app') as unknown as { warmer: { clear(): void } }).warmer.clear());
      await new Promise((resolve) => setTimeout(resolve, 1000));
    };
    const appStart = (cold: boolean) => page.evaluate(
        (serverId: string, uri: string, sandboxUrl: string, cold: boolean) =>
          new Promise<number>((resolve, reject) => {
            // Cold: as for the first App of a server start (nothing read yet, no proxy warmed).
            const App = customElements.get('ahp-mcp-app') as unknown as { resources: { clear(): void }; warmer: { clear(): void; settled(): Promise<void> } };
            if (cold) (App.resources.clear(), App.warmer.clear());
            const host = document.getElementById('bench-session')!;
            const el = document.createElement('ahp-mcp-app');
            el.setAttribute('server-id', serverId);
            el.setAttribute('resource-uri', uri);
            el.setAttribute('sandbox-url', sandboxUrl);
            const timer = setTimeout(() => reject(new Error(`${serverId}: no initialized within 15 s (${el.shadowRoot?.textContent?.trim()})`)), 15_000);
            const start = performance.now();
            host.append(el);
            const poll = () => {
              if (el.matches(':state(ready)')) {
                const ms = performance.now() - start;
                clearTimeout(timer);
                el.remove();
                // The spare proxy this App warms for the next one loads before anything else is measured.
                void App.warmer.settled().then(() => resolve(ms));
              } else if (el.matches(':state(error)')) {
                clearTimeout(timer);
                reject(new Error(`${serverId}: ${el.shadowRoot?.textContent?.trim()}`));
              } else requestAnimationFrame(poll);
            };
            poll();
          }),
        app.serverId,
        app.uri,
        sandbox.url,
        cold,
      );
    for (let round = -1; round < ROUNDS; round++) {
      // Cold origin for both: no frame of the sandbox origin left (spares cleared), time for its process to go.
      await originIdle();
      const coldViewMs = await viewLoad();
      await originIdle();
      const coldMs = await appStart(true);
      // The cold App warmed a spare for the next one: a second App of the server.
      const appMs = await appStart(false);
      const blankMs = await page.evaluate(
        (blankUrl: string) =>
          new Promise<number>((resolve) => {
            const frame = document.createElement('iframe');
            frame.setAttribute('sandbox', 'allow-scripts allow-same-origin');
            const start = performance.now();
            frame.onload = () => {
              const ms = performance.now() - start;
              frame.remove();
              resolve(ms);
            };
            frame.src = `${blankUrl}?r=${Math.random()}`;
            document.body.append(frame);
          }),
        sandbox.blankUrl,
      );
      const viewMs = await viewLoad();
      if (round < 0) cold = `App ${appMs.toFixed(1)} ms, View's own load ${viewMs.toFixed(1)} ms`;
      else {
        appTimes.push(appMs);
        coldTimes.push(coldMs);
        viewTimes.push(viewMs);
        coldViewTimes.push(coldViewMs);
        blankTimes.push(blankMs);
      }
    }
    console.log(`${app.serverId} (${app.uri}) on ${sandbox.origin}`);
    const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
    console.log(`  first App of the server (warm-up round): ${cold}`);
    console.log(`  <ahp-mcp-app> connected → View initialized:      ${stats(appTimes)}`);
    console.log(`  the same, cold (resource cache and warmed proxies cleared first): ${stats(coldTimes)}`);
    console.log(`  View's own load (same HTML, same origin, to ui/initialize): ${stats(viewTimes)}`);
    console.log(`  the same with no frame of the origin left before it:         ${stats(coldViewTimes)}`);
    console.log(`  blank iframe on the same origin loaded:         ${stats(blankTimes)}`);
    console.log(`  ratio App / View's own load (medians): ${(median(appTimes) / median(viewTimes)).toFixed(2)}x; cold App / View's own load on a cold origin ${(median(coldTimes) / median(coldViewTimes)).toFixed(2)}x (budget 1.2x)\n`);
  }
} finally {
  await browser.close();
  await playground.close();
}

// Benchmark: how long an MCP App takes to come up in the playground, from `<ahp-mcp-app>` being connected to the
// View's `ui/notifications/initialized` (the element's :state(ready)), next to the load time of a blank iframe on
// the same sandbox origin (the floor any sandboxed App pays). Prints numbers; asserts nothing.
// Run: node --import tsx test/bench/apps-startup.ts [rounds]
import { startPlayground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { launchChromium, openSessionPage } from '../fixtures/playground-page.js';

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
  // One session, connected before anything is measured (its store serves the Apps' mcp:// channels).
  await openSessionPage(page, playground, { id: 'bench-session' });

  console.log(`MCP Apps startup in Chromium (${ROUNDS} rounds each, after one warm-up)\n`);
  for (const app of APPS) {
    const sandbox = playground.apps.sandboxes.get(app.serverId)!;
    const appTimes: number[] = [];
    const blankTimes: number[] = [];
    for (let round = -1; round < ROUNDS; round++) {
      const appMs = await page.evaluate(
        (serverId: string, uri: string, sandboxUrl: string) =>
          new Promise<number>((resolve, reject) => {
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
                resolve(ms);
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
      );
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
      if (round >= 0) {
        appTimes.push(appMs);
        blankTimes.push(blankMs);
      }
    }
    console.log(`${app.serverId} (${app.uri}) on ${sandbox.origin}`);
    console.log(`  <ahp-mcp-app> connected → View initialized: ${stats(appTimes)}`);
    console.log(`  blank iframe on the same origin loaded:    ${stats(blankTimes)}\n`);
  }
} finally {
  await browser.close();
  await playground.close();
}

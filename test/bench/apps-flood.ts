// Benchmark: does a View flooding the host keep the page responsive? A View (test/fixtures/apps/hostile-server.mjs
// --flood) sends ui/message requests at 10,000 a second for 2 s through the real sandbox proxy on its own origin.
// Prints the page's long tasks (PerformanceObserver 'longtask', this frame only) in a quiet 2 s window before the
// flood and during it, and how many messages the element's limits dropped. Asserts nothing.
// Run: node --import tsx test/bench/apps-flood.ts
import { startPlayground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';
import { launchChromium, openSessionPage } from '../fixtures/playground-page.js';

const config = parseConfig({
  servers: [{ id: 'flood', name: 'Flood', transport: 'stdio', command: 'node', args: ['test/fixtures/apps/hostile-server.mjs', '--flood'] }],
});
const playground = await startPlayground({ port: 0, config });
const browser = await launchChromium();
try {
  await playground.startServers();
  const page = await browser.newPage();
  // One session, connected before anything is measured (its store serves the Apps' mcp:// channels).
  await openSessionPage(page, playground, { id: 'bench-session' });
  const result = await page.evaluate(
    (sandboxUrl: string) =>
      new Promise<{ quiet: number[]; flood: number[]; dropped: number; prompts: number; turns: number }>((resolve, reject) => {
        const long: { t: number; d: number }[] = [];
        const el = document.createElement('ahp-mcp-app') as HTMLElement & { bridge?: { dropped: number; initialized: boolean } };
        el.setAttribute('server-id', 'flood');
        el.setAttribute('resource-uri', 'ui://hostile/app.html');
        el.setAttribute('sandbox-url', sandboxUrl);
        let messages = 0;
        el.addEventListener('ahp-app-message', () => messages++);
        document.getElementById('bench-session')!.append(el);
        const fail = setTimeout(() => reject(new Error('no flood seen within 30 s')), 30_000);
        const waitReady = () => {
          if (!el.bridge?.initialized) return void setTimeout(waitReady, 20);
          const t0 = performance.now();
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (e.name === 'self') long.push({ t: e.startTime - t0, d: e.duration });
          }).observe({ type: 'longtask' });
          // Quiet window: 0.3–2.3 s after ready; the flood starts 2.5 s after the View initialized and lasts 2 s.
          setTimeout(() => {
            clearTimeout(fail);
            resolve({
              quiet: long.filter((l) => l.t >= 300 && l.t < 2300).map((l) => Math.round(l.d)),
              flood: long.filter((l) => l.t >= 2300 && l.t < 5000).map((l) => Math.round(l.d)),
              dropped: el.bridge?.dropped ?? -1,
              prompts: el.shadowRoot?.querySelectorAll('[part~="prompt"]').length ?? -1,
              turns: messages,
            });
          }, 5500);
        };
        waitReady();
      }),
    playground.apps.sandboxes.get('flood')!.url,
  );
  const fmt = (l: number[]) => (l.length ? `${l.length} (longest ${Math.max(...l)} ms: ${l.join(', ')})` : 'none');
  console.log('MCP App flood: ui/message requests at 10,000/s for 2 s through the sandbox proxy');
  console.log(`  long tasks (> 50 ms) in the page, quiet 2 s before the flood: ${fmt(result.quiet)}`);
  console.log(`  long tasks (> 50 ms) in the page, during the flood:           ${fmt(result.flood)}`);
  console.log(`  dropped by the element's limits: ${result.dropped}; prompts shown: ${result.prompts}; messages that reached the page: ${result.turns}`);
} finally {
  await browser.close();
  await playground.close();
}

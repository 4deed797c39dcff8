// Benchmark: <ahp-mcp-server-list> over a real SessionStore in Chromium. From the session snapshot to the paint of the
// servers in view and to every name being in the page, how many server elements exist then, and how many server
// elements one server change re-renders (top-level and inside a container) and how long it blocks. Prints the figures,
// the load average next to each, and one line per budget of issue 15 (figure, budget, met/MISSED); asserts nothing.
// Run: node --import tsx test/bench/render-servers.ts [rounds]
import { build } from 'esbuild';
import puppeteer from 'puppeteer-core';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg } from 'node:os';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import type { Round } from './render-page.js';
import { tracedRound } from './render-trace.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const SIZES = [1000, 10_000];

// The production build of the elements: development checks off, as rollup.config.mjs builds dist/lib and the CDN file.
const bundle = await build({
  entryPoints: [fileURLToPath(new URL('./render-page.ts', import.meta.url))],
  bundle: true,
  format: 'esm',
  write: false,
  minify: true,
  plugins: [{
    name: 'production-dev-flag',
    setup(b) {
      b.onLoad({ filter: /dev-warnings\.ts$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const code = await readFile(args.path, 'utf8');
        return { contents: code.replace('export const DEV: boolean = true;', 'export const DEV: boolean = false;'), loader: 'ts' };
      });
    },
  }],
});
const script = bundle.outputFiles[0]!.text;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

/** Issue 15's budgets: snapshot → painted per size, and element updates for one server change. */
const PAINT_BUDGET_MS: Record<number, number> = { 1000: 100, 10_000: 300 };
const budgetLine = (what: string, figure: string, budget: string, met: boolean, loadAvg: string) =>
  `budget: ${what}: ${figure} (budget ${budget}) ${met ? 'met' : 'MISSED'}   [load average ${loadAvg}]`;

const browser = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
const budgets: string[] = [];
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await page.addScriptTag({ content: script, type: 'module' });
  await page.waitForFunction(() => typeof (globalThis as { benchRender?: unknown }).benchRender === 'function');
  console.log(`<ahp-mcp-server-list> in Chromium, viewport 1280×800, one server in ten inside a plugin (${ROUNDS} rounds after one warm-up, medians)`);
  console.log(`load average before: ${loadavg().map((x) => x.toFixed(1)).join(' ')} (${cpus().length} CPUs)\n`);
  console.log('servers   snapshot → painted   main-thread CPU of it   → all names in page   scroll far → painted   server elements   one change: updates (top / in container)   blocked (top / container)   load');
  for (const count of SIZES) {
    const rounds: Round[] = [];
    const loadBefore = load();
    for (let r = -1; r < ROUNDS; r++) {
      const round = await page.evaluate((n: number) => (globalThis as unknown as { benchRender(n: number): Promise<Round> }).benchRender(n), count);
      if (r >= 0) rounds.push(round);
    }
    // One more round under a trace: the main thread's CPU time from the snapshot to the paint (what a quiet machine would wait).
    const { cpuMs } = await tracedRound(page, 'render-bench:snapshot', 'render-bench:painted', () =>
      page.evaluate((n: number) => (globalThis as unknown as { benchRender(n: number): Promise<Round> }).benchRender(n), count));
    const loadAvg = `${loadBefore}–${load()}`;
    const paint = median(rounds.map((x) => x.paintMs));
    const names = median(rounds.map((x) => x.namesMs));
    const scroll = median(rounds.map((x) => x.scrollMs));
    const els = median(rounds.map((x) => x.elements));
    const upTop = Math.max(...rounds.map((x) => x.changeTop.updates));
    const upNested = Math.max(...rounds.map((x) => x.changeNested.updates));
    const msTop = median(rounds.map((x) => x.changeTop.ms));
    const msNested = median(rounds.map((x) => x.changeNested.ms));
    console.log(
      `${count.toLocaleString('en-US').padStart(7)}   ${`${paint.toFixed(0)} ms`.padStart(18)}   ${`${cpuMs.toFixed(0)} ms`.padStart(21)}   ${`${names.toFixed(0)} ms`.padStart(19)}   ${`${scroll.toFixed(0)} ms`.padStart(20)}   ${String(els).padStart(15)}   ${`${upTop} / ${upNested}`.padStart(40)}   ${`${msTop.toFixed(1)} / ${msNested.toFixed(1)} ms`.padStart(25)}   ${loadAvg}`,
    );
    const n = count.toLocaleString('en-US');
    budgets.push(budgetLine(`${n} servers, snapshot → painted`, `${paint.toFixed(0)} ms`, `${PAINT_BUDGET_MS[count]} ms`, paint <= PAINT_BUDGET_MS[count]!, loadAvg));
    budgets.push(budgetLine(`${n} servers, one change: element updates (top-level / in container, most in any round)`, `${upTop} / ${upNested}`, '1 / 1', upTop === 1 && upNested === 1, loadAvg));
  }
  console.log('\nAll names in page: the time until every server name is in the DOM (find-in-page finds it, Tab reaches it); the names');
  console.log('far from view are filled in after the first paint. Scroll far: a jump to the server in the middle until its block is');
  console.log('painted as server elements. Times are wall clock (medians; on a loaded machine they include');
  console.log('waiting for a CPU) except the main-thread CPU, the thread time of one traced round (not a budget figure).\n');
  for (const line of budgets) console.log(line);
} finally {
  await browser.close();
}

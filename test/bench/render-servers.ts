// Benchmark: <ahp-mcp-server-list> over a real SessionStore in Chromium. From the session snapshot to the paint of the
// servers in view, how many server elements exist then, and how many server elements one server change re-renders
// (top-level and inside a container) and how long it blocks. Prints numbers; asserts nothing.
// Run: node --import tsx test/bench/render-servers.ts [rounds]
import { build } from 'esbuild';
import puppeteer from 'puppeteer-core';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';

const ROUNDS = Number(process.argv[2] ?? 3);
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

const browser = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  await page.addScriptTag({ content: script, type: 'module' });
  await page.waitForFunction(() => typeof (globalThis as { benchRender?: unknown }).benchRender === 'function');
  console.log(`<ahp-mcp-server-list> in Chromium, viewport 1280×800, one server in ten inside a plugin (${ROUNDS} rounds after one warm-up, medians)\n`);
  console.log('servers   snapshot → painted   server elements   one change: updates (top-level / in container)   blocked (top / container)');
  for (const count of SIZES) {
    const rounds: Array<{ paintMs: number; elements: number; changeTop: { updates: number; ms: number }; changeNested: { updates: number; ms: number } }> = [];
    for (let r = -1; r < ROUNDS; r++) {
      const round = await page.evaluate((n: number) => (globalThis as unknown as { benchRender(n: number): Promise<unknown> }).benchRender(n), count);
      if (r >= 0) rounds.push(round as (typeof rounds)[number]);
    }
    const paint = median(rounds.map((x) => x.paintMs));
    const els = median(rounds.map((x) => x.elements));
    const upTop = Math.max(...rounds.map((x) => x.changeTop.updates));
    const upNested = Math.max(...rounds.map((x) => x.changeNested.updates));
    const msTop = median(rounds.map((x) => x.changeTop.ms));
    const msNested = median(rounds.map((x) => x.changeNested.ms));
    console.log(
      `${count.toLocaleString('en-US').padStart(7)}   ${`${paint.toFixed(0)} ms`.padStart(18)}   ${String(els).padStart(15)}   ${`${upTop} / ${upNested}`.padStart(45)}   ${`${msTop.toFixed(1)} / ${msNested.toFixed(1)} ms`.padStart(25)}`,
    );
  }
  console.log('\nBudgets (issue 15): 1,000 servers painted within 100 ms, 10,000 within 300 ms; one change re-renders exactly one element.');
} finally {
  await browser.close();
}

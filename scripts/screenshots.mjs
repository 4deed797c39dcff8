// Screenshots of the playground for reviewers: light, dark, 375 px wide and zh-TW, written to docs/screenshots/.
//   node scripts/screenshots.mjs [--out docs/screenshots] [--repo <checkout>] [--prefix before-]
// Starts the playground of `--repo` (default: this checkout) on a free port, waits for its servers, sends a tool call,
// an MCP App call and a call that needs approval, then captures each view. `--repo` lets the same script photograph
// an older checkout (e.g. a `git worktree` of an earlier commit) for before/after pairs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, findChromium } from './find-chromium.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { out: { type: 'string', default: 'docs/screenshots' }, repo: { type: 'string', default: here }, prefix: { type: 'string', default: '' } },
});
const repo = path.resolve(values.repo);
const out = path.resolve(here, values.out);
const WAIT_MS = 60_000;

/** Starts `npm start`'s playground in `repo` on a free port; resolves with its URL and a stop function. */
function startPlayground() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/playground/main.ts', '--port', '0'], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the playground printed no URL within ${WAIT_MS} ms:\n${text}`)), WAIT_MS);
    child.stdout.on('data', (d) => {
      text += d;
      const m = /AHP playground: (http:\/\/\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGINT'))) });
      }
    });
    child.once('exit', (code) => reject(new Error(`the playground exited (${code}):\n${text}`)));
  });
}

async function send(page, text) {
  await page.waitForFunction(() => !document.querySelector('ahp-chat')?.matches(':state(active)'), { timeout: WAIT_MS });
  const input = await page.waitForFunction(() => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('textarea') ?? false, { timeout: WAIT_MS });
  await input.asElement().click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** Waits for the servers, then leaves a finished tool call, a live App and a pending approval in the main chat. */
async function populate(page) {
  await page.waitForFunction(
    () => document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelector('ahp-mcp-server[server-id="basic-vanillajs"]')?.matches(':state(ready)'),
    { timeout: WAIT_MS },
  );
  await send(page, '/sum 1 2');
  await send(page, '/call basic-vanillajs get-time {}');
  await page.waitForFunction(
    () => [...(document.querySelector('ahp-chat')?.shadowRoot?.querySelectorAll('ahp-tool-call') ?? [])].at(-1)?.shadowRoot?.querySelector('ahp-mcp-app')?.matches(':state(ready)'),
    { timeout: WAIT_MS },
  );
  await send(page, '/env');
  await page.waitForFunction(() => document.querySelector('ahp-chat')?.matches(':state(active)'), { timeout: WAIT_MS });
}

/** Opens the page as a viewer would and waits until the elements and any App have rendered. */
async function shoot(browser, url, file, { width, height, dark = false, lang, mobile = false }) {
  const page = await browser.newPage();
  await page.setViewport({ width, height, deviceScaleFactor: 1, isMobile: mobile, hasTouch: mobile });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: dark ? 'dark' : 'light' }]);
  if (lang) await page.evaluateOnNewDocument((lang) => document.addEventListener('DOMContentLoaded', () => (document.documentElement.lang = lang)), lang);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => !!document.querySelector('ahp-chat')?.shadowRoot?.querySelector('[part~="transcript"]'), { timeout: WAIT_MS });
  await page
    .waitForFunction(
      () => [...(document.querySelector('ahp-chat')?.shadowRoot?.querySelectorAll('ahp-tool-call') ?? [])].some((tc) => tc.shadowRoot?.querySelector('ahp-mcp-app')?.matches(':state(ready)')),
      { timeout: 15_000 },
    )
    .catch(() => {}); // an older checkout may not show Apps on reload; photograph what it shows
  await new Promise((r) => setTimeout(r, 500)); // let the Views paint their first frame
  await page.screenshot({ path: file, fullPage: true });
  await page.close();
  console.log(`${path.relative(here, file)}  ${(statSync(file).size / 1024).toFixed(0)} KB`);
}

mkdirSync(out, { recursive: true });
try {
  if (!execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).trim()) throw new Error('none');
} catch {
  console.warn('No Chinese font found (fc-list :lang=zh): the zh-TW shot will show boxes. On Debian: apt-get install fonts-wqy-microhei');
}
const playground = await startPlayground();
const browser = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
try {
  const setup = await browser.newPage();
  await setup.setViewport({ width: 1024, height: 800 });
  await setup.goto(playground.url, { waitUntil: 'load' });
  await populate(setup);
  await setup.close();
  const shots = [
    ['light', { width: 1024, height: 900 }],
    ['dark', { width: 1024, height: 900, dark: true }],
    ['375px', { width: 375, height: 812, mobile: true }],
    ['zh-TW', { width: 1024, height: 900, lang: 'zh-TW' }],
  ];
  for (const [name, options] of shots) await shoot(browser, playground.url, path.join(out, `${values.prefix}playground-${name}.png`), options);
} finally {
  await browser.close();
  await playground.stop();
}

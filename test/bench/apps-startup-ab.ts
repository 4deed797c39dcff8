// Benchmark, paired: the MCP App starts of apps-startup.ts (cold, second, warmed first App; see there) for a git ref (A)
// and the working tree (B), to judge a change to start-up. On a small machine one run's figures move by ±15 % from
// run to run, more than most changes; starts of A and B taken one after the other move together, so each round's
// difference B − A holds still where the figures do not. A is checked out in a scratch worktree (node_modules linked
// to this tree's); each tree gets its own playground (its own sources, bundled as the playground always does) and
// Chromium, driven by this tree's page code. Every round starts each App in A and B in turn, the first of the two
// alternating between rounds. Prints the medians, the paired differences round by round, B/A and the load average
// of each round; asserts nothing. The worktree is removed afterwards, also on an error or Ctrl-C.
// Run: npm run bench:ab -- [git-ref (main)] [rounds (6; even, so that A and B go first as often)] [serverId,…]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { launchChromium, openSessionPage } from '../fixtures/playground-page.js';
import { appStart, appsNamed, instrumentPage, originIdle, serversConfig, warmedStart, type BenchApp, type Phases } from './apps-startup-page.js';
import { median } from './timing.js';

const REF = process.argv[2] ?? 'main';
const ROUNDS = Number(process.argv[3] ?? 6);
const APPS = appsNamed(process.argv[4]);
const CONDITIONS = ['cold', 'second', 'warmed'] as const;
type Condition = (typeof CONDITIONS)[number];
type Starts = Record<Condition, Phases>;
const PHASES = { listed: 'listing', read: 'read', proxyReady: 'proxy ready', initialize: 'ui/initialize' } as const;

const TREE_B = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const git = (...args: string[]) => execFileSync('git', ['-C', TREE_B, ...args], { encoding: 'utf8' }).trim();
const load = () => loadavg()[0]!;

const commitA = git('rev-parse', '--verify', `${REF}^{commit}`);
const scratch = mkdtempSync(path.join(tmpdir(), 'ahp-bench-ab-'));
const TREE_A = path.join(scratch, 'tree');
let removed = false;
/** Synchronous, so that it also runs from an exit handler. */
function removeWorktree(): void {
  if (removed) return;
  removed = true;
  // The link first, so that nothing below can reach into this tree's node_modules.
  rmSync(path.join(TREE_A, 'node_modules'), { force: true });
  try {
    git('worktree', 'remove', '--force', TREE_A);
  } catch {
    // Not added (or already gone): the prune below forgets it.
  }
  rmSync(scratch, { recursive: true, force: true });
  git('worktree', 'prune');
}
/**
 * The Chromiums still running, killed on exit. Puppeteer's own exit handler would kill only the first of two (it drops
 * each from the list it walks), so this bench handles the signals itself; one that comes while a Chromium launches
 * waits for it.
 */
const browsers = new Set<Browser>();
let launching = false;
let exitCode: number | undefined;
const exitOn = (code: number) => () => (launching ? (exitCode = code) : process.exit(code));
process.on('SIGINT', exitOn(130));
process.on('SIGTERM', exitOn(143));
process.on('SIGHUP', exitOn(129));
async function launch(): Promise<Browser> {
  launching = true;
  try {
    const browser = await launchChromium({ networkEnabled: false, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
    browsers.add(browser);
    return browser;
  } finally {
    launching = false;
    if (exitCode !== undefined) process.exit(exitCode);
  }
}
process.on('exit', () => {
  for (const browser of browsers) {
    const pid = browser.process()?.pid;
    try {
      // Its own process group (puppeteer starts it detached).
      if (pid) process.kill(-pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  removeWorktree();
});

git('worktree', 'add', '--detach', TREE_A, commitA);
symlinkSync(realpathSync(path.join(TREE_B, 'node_modules')), path.join(TREE_A, 'node_modules'));

type PlaygroundModule = typeof import('../../examples/playground/playground.js');
type ConfigModule = typeof import('../../examples/playground/config.js');

/** A playground of `tree`'s own sources with the Apps' servers up, and a Chromium page on it ready to start Apps. */
async function openTree(tree: string) {
  const source = (file: string) => pathToFileURL(path.join(tree, file)).href;
  const { startPlayground } = (await import(source('examples/playground/playground.ts'))) as PlaygroundModule;
  const { parseConfig } = (await import(source('examples/playground/config.ts'))) as ConfigModule;
  const playground = await startPlayground({ port: 0, config: parseConfig(serversConfig(APPS)), log: () => {} });
  let browser: Browser | undefined;
  try {
    browser = await launch();
    await playground.startServers();
    const page: Page = await browser.newPage();
    await openSessionPage(page, playground, { id: 'bench-session' });
    await instrumentPage(page);
    const opened = browser;
    return {
      close: async () => void (await opened.close(), browsers.delete(opened), await playground.close()),
      starts: async (app: BenchApp): Promise<Starts> => {
        const sandbox = playground.apps.sandboxes.get(app.serverId)!;
        await originIdle(page);
        const cold = await appStart(page, app, sandbox.url, sandbox.origin, true);
        const second = await appStart(page, app, sandbox.url, sandbox.origin, false);
        await originIdle(page);
        const warmed = await warmedStart(page, app, sandbox.url, sandbox.origin);
        return { cold, second, warmed };
      },
    };
  } catch (error) {
    await browser?.close();
    if (browser) browsers.delete(browser);
    await playground.close();
    throw error;
  }
}

const ms = (n: number) => n.toFixed(0);
const signed = (n: number) => (Math.round(n) > 0 ? '+' : '') + ms(Math.round(n) || 0);
// A worktree's node_modules link shows as untracked (.gitignore names a folder).
const uncommitted = git('status', '--porcelain').split('\n').some((line) => line && line !== '?? node_modules');
const labelA = `${REF} (${commitA.slice(0, 7)})`;
const labelB = `the working tree (${git('rev-parse', '--short', 'HEAD')}${uncommitted ? ' and uncommitted changes' : ''})`;

const trees: Awaited<ReturnType<typeof openTree>>[] = [];
try {
  for (const tree of [TREE_A, TREE_B]) trees.push(await openTree(tree));
  /** Per tree, per App, the starts of each measured round. */
  const results = trees.map(() => new Map<string, Starts[]>(APPS.map((a) => [a.serverId, []])));
  const loads: string[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    loads.push(`${round ? `round ${round}` : 'warm-up'} ${load().toFixed(1)}`);
    for (const app of APPS) {
      for (const i of round % 2 ? [0, 1] : [1, 0]) {
        const starts = await trees[i]!.starts(app);
        if (round > 0) results[i]!.get(app.serverId)!.push(starts);
      }
    }
    process.stderr.write(`${round ? `round ${round} of ${ROUNDS}` : 'warm-up round'} done\n`);
  }
  loads.push(`end ${load().toFixed(1)}`);

  console.log(`MCP App start-up, A = ${labelA}, B = ${labelB}`);
  console.log(`${ROUNDS} rounds after one warm-up, A and B in turn App by App; connected → initialized, ms`);
  console.log(`load average: ${loads.join(', ')}\n`);
  for (const app of APPS) {
    const [a, b] = results.map((r) => r.get(app.serverId)!);
    console.log(app.serverId);
    for (const what of CONDITIONS) {
      const medianOf = (starts: Starts[], key: keyof Phases) => {
        const values = starts.map((s) => s[what][key]).filter((v): v is number => typeof v === 'number');
        return values.length ? ms(median(values)) : '–';
      };
      const diffs = a!.map((s, k) => b![k]![what].initialized - s[what].initialized);
      const [medA, medB] = [a!, b!].map((starts) => median(starts.map((s) => s[what].initialized)));
      console.log(
        `  ${what.padEnd(6)}  A ${ms(medA!).padStart(5)}  B ${ms(medB!).padStart(5)}  B−A paired median ${signed(median(diffs)).padStart(5)} ` +
          `(rounds: ${diffs.map(signed).join(' ')})  B/A ${(medB! / medA!).toFixed(2)}`,
      );
      const phases = (Object.keys(PHASES) as (keyof typeof PHASES)[])
        .map((key) => [PHASES[key], medianOf(a!, key), medianOf(b!, key)])
        // The second and the warmed App ask no listing, and the second no read: nothing to show.
        .filter(([, inA, inB]) => inA !== '–' || inB !== '–')
        .map(([label, inA, inB]) => `${label} ${inA} → ${inB}`);
      console.log(`          phases A → B, medians ms from connected: ${phases.join(', ')}`);
    }
  }
} finally {
  for (const tree of trees) await tree.close();
  removeWorktree();
}

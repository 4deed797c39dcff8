// `npm test`: type-check, the API report, Node tests, browser tests, end-to-end tests, MCP auth conformance and the size budgets, in that order.
// Every step runs even when an earlier one failed; then each failed test with the start of its error (CI shows only the tail), and the last line sums the tests.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const bin = (name) => path.join('node_modules', '.bin', name);
const testFiles = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(dir, f));
const WTR_COUNTS = path.join('.cache', 'wtr-counts.json');

const nodeTests = (dir) => [process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...testFiles(dir)]];

const steps = [
  { name: 'typecheck', cmd: [bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']] },
  // The generated framework typings and React wrappers against a TSX, a Vue and a DOM fixture.
  { name: 'typings', cmd: [bin('tsc'), ['--noEmit', '-p', 'test/types/tsconfig.json']] },
  // custom-elements.json, types/, react/index.ts, editor/ and docs/reference.md match the element JSDoc.
  { name: 'docs', cmd: [process.execPath, ['scripts/docs.mjs', '--check']] },
  // The public API report (api/*.api.md) and the README entry table match the entry modules (package.json exports).
  { name: 'api', cmd: [process.execPath, ['scripts/api.mjs', '--check']] },
  { name: 'node', cmd: nodeTests('test/node'), counts: 'node' },
  { name: 'browser', cmd: [bin('web-test-runner'), []], env: { AHP_WTR_COUNTS: WTR_COUNTS }, counts: 'wtr' },
  { name: 'e2e', cmd: nodeTests('test/e2e'), counts: 'node' },
  // The MCP conformance suite's client auth scenarios; its counts are scenarios, reported apart from the test totals.
  { name: 'conformance', cmd: [process.execPath, ['test/conformance/run.mjs']], counts: 'conformance' },
  { name: 'size', cmd: [process.execPath, ['scripts/size.mjs']] },
];

function run({ cmd: [file, args], env }) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

function nodeCounts(out) {
  const grab = (label) => Number(out.match(new RegExp(`^(?:ℹ|#) ${label} (\\d+)$`, 'm'))?.[1] ?? 0);
  return { passed: grab('pass'), failed: grab('fail') + grab('cancelled'), skipped: grab('skipped') + grab('todo') };
}

const MAX_ERROR_LINES = 6;
const MAX_LINE = 1000;
const MAX_SECTION = 8000;

/** The failed tests of a step's output: name (with its suites for node:test) and the first lines of its error. */
function failuresIn(step, out) {
  const lines = out.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').split('\n');
  return step.counts === 'node' ? nodeFailures(lines) : step.counts === 'wtr' ? wtrFailures(lines) : [];
}

/**
 * node:test's spec reporter: a failed test is `✖ name (time)` followed by its more indented error; a failed suite's
 * line has none. Suites are `▶ name` lines above, by indentation. The location comes from its "failing tests" list.
 */
function nodeFailures(lines) {
  const end = lines.findIndex((l) => l === '✖ failing tests:');
  const tree = end < 0 ? lines : lines.slice(0, end);
  const where = [];
  if (end >= 0) for (let i = end; i < lines.length - 1; i++) if (lines[i].startsWith('test at ')) where.push({ at: lines[i].slice(8), name: lines[i + 1].replace(/^✖ /, '').replace(/ \([\d.]+m?s\)$/, '') });
  const indent = (l) => l.length - l.trimStart().length;
  const suites = [];
  const found = [];
  for (let i = 0; i < tree.length; i++) {
    const line = tree[i];
    const text = line.trimStart();
    const depth = indent(line);
    if (text.startsWith('▶ ')) {
      while (suites.length && suites.at(-1).depth >= depth) suites.pop();
      suites.push({ depth, name: text.slice(2) });
      continue;
    }
    if (!text.startsWith('✖ ')) continue;
    const error = [];
    for (let j = i + 1; j < tree.length && (tree[j].trim() === '' || indent(tree[j]) > depth); j++) {
      const t = tree[j].trim();
      if (t.startsWith('at ') && error.length) break;
      if (t) error.push(t);
      if (error.length >= MAX_ERROR_LINES) break;
    }
    if (!error.length) continue;
    while (suites.length && suites.at(-1).depth >= depth) suites.pop();
    const name = text.slice(2).replace(/ \([\d.]+m?s\)$/, '');
    const at = where.findIndex((w) => w.name === name);
    const location = at >= 0 ? ` [${where.splice(at, 1)[0].at}]` : '';
    found.push({ name: [...suites.map((s) => s.name), name].join(' > ') + location, lines: error });
  }
  return found;
}

/** web-test-runner: a failed test is a `❌ suite > name` line under its file's line; its error follows up to an empty line (listed twice: once). */
function wtrFailures(lines) {
  const found = new Map();
  let file = '';
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].trim();
    if (/^\S+\.test\.[jt]s:$/.test(text)) file = text.slice(0, -1);
    if (!text.startsWith('❌')) continue;
    const error = [];
    for (let j = i + 1; j < lines.length && lines[j] !== '' && error.length < MAX_ERROR_LINES; j++) {
      const t = lines[j].trim();
      if (t.startsWith('at ') && error.length) break;
      if (t) error.push(t);
    }
    const name = `${text.replace(/^❌\s*/, '')}${file ? ` [${file}]` : ''}`;
    if (!found.has(name)) found.set(name, { name, lines: error });
  }
  return [...found.values()];
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const results = [];
rmSync(WTR_COUNTS, { force: true });
for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const started = Date.now();
  const { code, out } = await run(step);
  let c;
  if (step.counts === 'node') c = nodeCounts(out);
  if (step.counts === 'wtr') {
    try { c = JSON.parse(readFileSync(WTR_COUNTS, 'utf8')); } catch { c = { passed: 0, failed: 0, skipped: 0 }; }
  }
  const note = step.counts === 'conformance' ? (out.match(/^conformance \(.*?\): (.*) in [\d.]+ s$/m)?.[1] ?? 'no summary line') : undefined;
  if (c) { totals.passed += c.passed; totals.failed += c.failed; totals.skipped += c.skipped; }
  results.push({ name: step.name, ok: code === 0, seconds: (Date.now() - started) / 1000, c, note, failures: code === 0 ? [] : failuresIn(step, out) });
}

// CI logs keep only the tail: each failed test's name and the start of its error come again just above the summary.
const failed = results.flatMap((r) => r.failures.map((f) => ({ step: r.name, ...f })));
if (failed.length) {
  const text = failed.map((f) => `${f.step}: ${f.name}\n${f.lines.map((l) => `    ${l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l}`).join('\n')}`).join('\n');
  console.log(`\n=== failures (${failed.length}) ===\n${text.length > MAX_SECTION ? `${text.slice(0, MAX_SECTION)}\n… (cut; the full errors are above)` : text}`);
}

console.log('\n=== summary ===');
for (const r of results) {
  const counts = r.c ? ` (${r.c.passed} passed, ${r.c.failed} failed, ${r.c.skipped} skipped)` : r.note ? ` (${r.note})` : '';
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(11)} ${r.seconds.toFixed(1).padStart(6)} s${counts}`);
}
const failedSteps = results.filter((r) => !r.ok).length;
if (totals.skipped) console.log(`${totals.skipped} test(s) skipped — see above`);
console.log(`tests: ${totals.passed} passed, ${totals.failed + (failedSteps && !totals.failed ? failedSteps : 0)} failed`);
process.exit(failedSteps ? 1 : 0);

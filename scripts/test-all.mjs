// `npm test`: type-check, the API report, Node tests, browser tests, end-to-end tests, MCP auth conformance and the size budgets, in that order.
// Every step runs even when an earlier one failed; the last line sums the tests.
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
  results.push({ name: step.name, ok: code === 0, seconds: (Date.now() - started) / 1000, c, note });
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

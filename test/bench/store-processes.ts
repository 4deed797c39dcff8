// `npm run bench:store:processes [runs]`: `bench:store` in several fresh processes, one after the other, and the median
// of each budget line's figure across them. One process cannot call a line near its budget: the reference, the same
// code in every run, folds up to 2x faster in one process than in the next (JIT and heap layout are per process), so
// the ratios of one run move by ±30 % on an idle machine, and interleaving rounds inside one process does not remove
// that. Run with AHP_REFERENCE set to compare with the upstream reducers, as `bench:store`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './timing.js';

const runs = Number(process.argv[2] ?? 5);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a whole number ≥ 1, not ${process.argv[2]}`);
const script = fileURLToPath(new URL('./run.ts', import.meta.url));

/** A budget line of `bench:store`: its words, its figure and how the figure is judged. */
interface Line {
  label: string;
  value: number;
  judge: (v: number) => boolean;
  unit: string;
}

/** The budget lines `runWorkloads` prints (ratios with "budget ≥/≤ N×", memory with "vs the reference's N KB"). */
export function budgetLines(output: string): Line[] {
  const lines: Line[] = [];
  for (const text of output.split('\n')) {
    const ratio = /^\s+(.+?): (?:[\d,]+\/s = )?([\d.]+)× .*\(budget ([≥≤]) ([\d.]+)×\): (?:met|MISSED)$/.exec(text);
    if (ratio) {
      const [, label, value, op, budget] = ratio;
      const b = Number(budget);
      lines.push({ label: label!, value: Number(value), judge: op === '≥' ? (v) => v >= b : (v) => v <= b, unit: '×' });
      continue;
    }
    const memory = /^\s+(.+?): (\d+) KB vs the reference's (\d+) KB \(budget ≤\): (?:met|MISSED)$/.exec(text);
    // Memory as a share of the reference's in the same process (the reference's own figure moves too).
    if (memory) lines.push({ label: `${memory[1]} (share of the reference's)`, value: Number(memory[2]) / Number(memory[3]), judge: (v) => v <= 1, unit: '×' });
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const seen = new Map<string, Line[]>();
  for (let i = 1; i <= runs; i++) {
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script], { encoding: 'utf8', env: process.env, maxBuffer: 64 << 20 });
    if (child.status !== 0) throw new Error(`run ${i} failed (exit ${child.status}):\n${child.stderr}`);
    const found = budgetLines(child.stdout);
    if (found.length === 0) throw new Error(`run ${i} printed no budget line:\n${child.stdout.slice(-2000)}`);
    for (const line of found) (seen.get(line.label) ?? seen.set(line.label, []).get(line.label)!).push(line);
    console.log(`run ${i} of ${runs}: ${found.length} budget lines in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  console.log(`\nIssue 15 store budget lines, median of ${runs} fresh processes (min–max; "met in" counts the processes):`);
  for (const [label, found] of seen) {
    const values = found.map((l) => l.value);
    const mid = median(values);
    const met = found.filter((l) => l.judge(l.value)).length;
    console.log(`  ${label}: ${mid.toFixed(2)}${found[0]!.unit} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}; met in ${met} of ${found.length}): ${found[0]!.judge(mid) ? 'met' : 'MISSED'}`);
  }
}

// Plain timing helpers: warm-up, several rounds, median and best.
import { performance } from 'node:perf_hooks';

export interface Measurement {
  name: string;
  /** Operations per second per round. */
  rates: number[];
  unit: string;
}

/**
 * Runs `round` (which prepares untimed state and returns a timed body) `warmup` times untimed,
 * then `rounds` times timed; the body returns how many operations it performed.
 */
export function measure(name: string, unit: string, round: () => () => number, opts: { warmup?: number; rounds?: number } = {}): Measurement {
  const { warmup = 2, rounds = 5 } = opts;
  for (let i = 0; i < warmup; i++) round()();
  const rates: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const body = round();
    const start = performance.now();
    const ops = body();
    const ms = performance.now() - start;
    rates.push(ops / (ms / 1000));
  }
  return { name, rates, unit };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const fmt = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 3));

/** Prints rows as an aligned table. */
export function printTable(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

/** Table rows for throughput measurements: median, best and the per-operation cost. */
export function rateRows(ms: Measurement[]): string[][] {
  return ms.map((m) => {
    const med = median(m.rates);
    return [m.name, `${fmt(med)} ${m.unit}/s`, `${fmt(Math.max(...m.rates))} ${m.unit}/s`, `${fmt(1e6 / med)} µs`];
  });
}

export { fmt };

const gc = (globalThis as { gc?: () => void }).gc;
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Heap in use after a full collection (undefined without --expose-gc). Weighed in a later task: within the task that
 * built it, V8 does not yet free all of a dropped graph.
 */
export async function heapAfterGc(): Promise<number | undefined> {
  if (!gc) return undefined;
  await tick();
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

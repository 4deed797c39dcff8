// Main-thread CPU between two performance marks, from a Chromium trace (for render-servers.ts). Thread time, not wall
// time: on a shared machine the wall clock also counts waiting for a CPU; this does not.
import type { Page } from 'puppeteer-core';

/** The trace categories `mainThreadCpuMs` needs. */
export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; tdur?: number; tid: number }

/** Runs `round` under a trace; returns its result and the CPU time of the page's main thread from mark `from` to mark `to`. */
export async function tracedRound<T>(page: Page, from: string, to: string, round: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  await page.tracing.start({ categories: TRACE_CATEGORIES });
  const result = await round();
  const events = (JSON.parse(Buffer.from((await page.tracing.stop())!).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const start = events.find((e) => e.name === from);
  const end = events.find((e) => e.name === to);
  if (!start || !end) throw new Error(`trace has no marks ${from} / ${to}`);
  // Top-level slices of the thread that set the marks; nested slices are inside them.
  let cpuMs = 0;
  let until = -1;
  const slices = events.filter((e) => e.ph === 'X' && e.tid === start.tid && e.ts >= start.ts && e.ts <= end.ts).sort((a, b) => a.ts - b.ts);
  for (const e of slices) {
    if (e.ts < until) continue;
    until = e.ts + (e.dur ?? 0);
    cpuMs += (e.tdur ?? e.dur ?? 0) / 1000;
  }
  return { result, cpuMs };
}

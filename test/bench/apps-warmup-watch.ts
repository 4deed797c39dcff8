// Benchmark: what the MCP Apps warm-up watch (elements/mcp-app/server-warmup.ts) costs per server change on a page
// that sets AhpMcpApp.sandboxUrlFor. A real SessionStore at 1,000 and 10,000 servers folds W3 server-state changes one
// envelope at a time (a listener hears each one: the strict case), up to 20,000 a round or 1 s. Per change it is timed
// with a session listener that only reads the state, and with the warm-up watch instead. The servers offer no Apps
// here, so the watch's own bookkeeping is all that is timed (no listing, no frame). Interleaved rounds, medians.
// Run: node --import tsx test/bench/apps-warmup-watch.ts [rounds]
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { SessionHandle } from '../../src/client/session-handle.js';
import { warmAppServers } from '../../elements/mcp-app/server-warmup.js';
import type { AppPageSettings } from '../../elements/mcp-app/app-lifecycle.js';
import { SESSION, benchStore, sequence, sessionWithServers } from './fixtures.js';
import { median } from './timing.js';
import { w3ServerStates } from './workloads.js';

const rounds = Number(process.argv[2] ?? 5);
const CHANGES = 20_000;
/** A round stops after this long (the list-reading watch of before took ms per change). */
const ROUND_MS = 1_000;
const handle = { unavailable: () => false, mcpChannel: () => ({}) } as unknown as SessionHandle;
const page = {
  sandboxUrlFor: () => undefined,
  resources: { listing: () => Promise.resolve([]) },
  warmer: { take: () => undefined, warm: () => undefined },
} as unknown as AppPageSettings;

type Watch = 'plain listener' | 'warm-up watch';
const watchers: Record<Watch, (store: ReturnType<typeof benchStore>) => () => void> = {
  'plain listener': (store) => store.subscribe(() => void store.getState()),
  'warm-up watch': (store) => warmAppServers(store, handle, page),
};

/** µs per server change with `watch` listening. */
function perChange(servers: number, watch: Watch): number {
  const store = benchStore(sessionWithServers(servers));
  const stop = watchers[watch](store);
  const envelope = sequence();
  const actions = w3ServerStates(servers, CHANGES).actions;
  const t0 = performance.now();
  let done = 0;
  while (done < actions.length && (done % 100 || performance.now() - t0 < ROUND_MS)) store.receive(envelope(SESSION, actions[done++]!));
  const us = ((performance.now() - t0) * 1000) / done;
  stop();
  return us;
}

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const loadBefore = load();
console.log(`MCP Apps warm-up watch: µs per mcpServerStateChanged (up to ${CHANGES.toLocaleString('en-US')} or ${ROUND_MS} ms per round, ${rounds} rounds, medians)`);
for (const servers of [1_000, 10_000]) {
  const times: Record<Watch, number[]> = { 'plain listener': [], 'warm-up watch': [] };
  perChange(servers, 'warm-up watch'); // warm the JIT
  for (let r = 0; r < rounds; r++) for (const watch of Object.keys(times) as Watch[]) times[watch].push(perChange(servers, watch));
  const plain = median(times['plain listener']);
  const warm = median(times['warm-up watch']);
  console.log(
    `  ${servers.toLocaleString('en-US')} servers: store with a plain listener ${plain.toFixed(1)} µs, with the warm-up watch ${warm.toFixed(1)} µs (${(warm / plain).toFixed(2)}x; the watch adds ${(warm - plain).toFixed(1)} µs)`,
  );
}
console.log(`  load average ${loadBefore} → ${load()}`);

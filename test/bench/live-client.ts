// `npm run bench:live`: the live client (connectSession) folding what one read of the connection delivers.
// A HostCore publishes bursts of server actions at once; the client receives them over an in-process transport
// (one message per envelope, as over a WebSocket) and the store folds them. Reports CPU time per envelope and how
// often session listeners were woken. Plain Node timing, no test framework; short by default (AHP_BENCH_ROUNDS).
import { performance } from 'node:perf_hooks';
import { connectSession } from '../../src/connection/connect-session.js';
import { createInMemoryPair } from '../../src/client/index.js';
import { HostCore, attachTransport } from '../../src/host.js';
import { fmt, median, printTable } from './timing.js';
import { sessionWithServers } from './workloads.js';

const SESSION = 'ahp-session:/live-bench';
const ROUNDS = Number(process.env.AHP_BENCH_ROUNDS ?? 5);

async function round(servers: number, burst: number, bursts: number): Promise<{ usPerEnvelope: number; wakes: number; wallMs: number }> {
  const host = new HostCore({ log: () => {}, actionLogLimit: burst });
  host.createSession(SESSION, sessionWithServers(servers));
  const conn = connectSession({
    session: SESSION,
    clientId: 'bench',
    reconnect: false,
    createTransport: async () => {
      const [client, server] = createInMemoryPair();
      attachTransport(host, server);
      return client;
    },
  });
  await conn.ready;
  let wakes = 0;
  conn.store.subscribe(() => wakes++);
  let n = 0;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let b = 0; b < bursts; b++) {
    for (let i = 0; i < burst; i++, n++) {
      host.dispatchServerAction(SESSION, { type: 'session/mcpServerStateChanged', id: `srv-${(n * 7919) % servers}`, state: { kind: n % 2 ? 'starting' : 'ready' } });
    }
    const target = host.serverSeq;
    await new Promise<void>((resolve) => {
      if (conn.store.getCursor() >= target) return resolve();
      const stop = conn.store.subscribe(() => conn.store.getCursor() >= target && (stop(), resolve()));
    });
  }
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - wall;
  conn.close();
  return { usPerEnvelope: (used.user + used.system) / n, wakes: wakes / bursts, wallMs };
}

const rows: string[][] = [];
for (const [servers, burst, bursts] of [
  [1000, 1, 2000],
  [1000, 64, 100],
  [1000, 256, 40],
  [10_000, 256, 10],
] as const) {
  const results = [];
  for (let r = 0; r < ROUNDS; r++) results.push(await round(servers, burst, bursts));
  rows.push([
    String(servers),
    String(burst),
    `${fmt(median(results.map((x) => x.usPerEnvelope)))} µs`,
    fmt(median(results.map((x) => x.wakes))),
    `${fmt(median(results.map((x) => x.wallMs)))} ms`,
  ]);
}
printTable(
  'Live client: server-action bursts through connectSession (in-process transport, one message per envelope); medians',
  ['servers', 'envelopes per burst', 'CPU / envelope', 'session wake-ups / burst', 'wall time (all bursts)'],
  rows,
);

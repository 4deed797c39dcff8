// `npm run bench` (bench:worker): the same host traffic seen through the worker (session worker API over a
// MessageChannel with comlink, as over a SharedWorker port; the worker sends changes, not whole states) and in the
// page (connectSession). W4: a streamed chat with 10,000 response parts; W5: 1,000 server state changes in a
// session with 1,000 servers. Both against a real HostCore over an in-memory transport. Plain Node timing.
import { performance } from 'node:perf_hooks';
import { serialize } from 'node:v8';
import { expose } from 'comlink';
import { createInMemoryPair } from '../../src/client/index.js';
import { connectSession, type SessionConnection } from '../../src/connection/connect-session.js';
import { HostCore, attachTransport } from '../../src/host.js';
import type { AnyAction } from '../../src/protocol/index.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { createSessionWorkerApi } from '../../src/worker/session-worker.js';
import type { WorkerEvent } from '../../src/worker/worker-messages.js';
import { connectSessionOverEndpoint } from '../../src/worker/worker-store.js';
import { SESSION, serverIds, sessionWithServers } from './fixtures.js';
import { printTable } from './timing.js';

const CHAT = 'ahp-chat:/bench-stream';
const PARTS = 10_000;
const SERVERS = 1000;
/** Host actions sent per macrotask: a stream, not one burst the worker could fold into a single update. */
const PER_TICK = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const tick = () => new Promise<void>((r) => setImmediate(r));

interface Traffic {
  /** Batches the worker posted to the page. */
  batches: number;
  /** Structured-clone bytes of what was posted. */
  bytes: number;
  /** What posting the whole view instead of each patch would have cost (the worker's view at that moment). */
  wholeBytes: number;
}

interface Opened {
  store: SessionStoreLike;
  traffic?: Traffic;
  close(): Promise<void>;
}

function newHost(): HostCore {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, sessionWithServers(SERVERS));
  return host;
}

const transportTo = (host: HostCore) => async () => {
  const [client, server] = createInMemoryPair();
  attachTransport(host, server);
  return client;
};

async function openPage(host: HostCore): Promise<Opened> {
  const conn = connectSession({ session: SESSION, createTransport: transportTo(host), reconnect: false });
  await conn.ready;
  return { store: conn.store, close: async () => conn.close() };
}

/** The worker path; with `count`, also measures what it posts (untimed runs only: serializing costs time). */
async function openWorker(host: HostCore, count = false): Promise<Opened> {
  const traffic: Traffic = { batches: 0, bytes: 0, wholeBytes: 0 };
  let worker: SessionConnection | undefined;
  const api = createSessionWorkerApi({ connect: (options) => (worker = connectSession({ ...options, createTransport: transportTo(host), reconnect: false })) });
  const attach = api.attach.bind(api);
  if (count) api.attach = (options, sink) =>
    attach(options, (events: WorkerEvent[]) => {
      traffic.batches++;
      traffic.bytes += serialize(events).length;
      for (const e of events) {
        if (e.type === 'patch' || e.type === 'state') traffic.wholeBytes += serialize(worker!.store.getState()).length;
        else if (e.type === 'chat-patch' || e.type === 'chat') traffic.wholeBytes += serialize(worker!.store.getChatState(e.uri)).length;
        else traffic.wholeBytes += serialize(e).length;
      }
      return sink(events);
    });
  const channel = new MessageChannel();
  expose(api, channel.port2);
  const conn = connectSessionOverEndpoint(channel.port1, { url: 'mem://bench', session: SESSION });
  await conn.ready;
  return {
    store: conn.store,
    ...(count && { traffic }),
    close: async () => {
      conn.close();
      for (let i = 0; i < 400 && api.stats().attachments > 0; i++) await new Promise((r) => setTimeout(r, 5));
      worker?.close();
      channel.port1.close();
      channel.port2.close();
    },
  };
}

/** Streams host actions PER_TICK at a time; resolves when `done()` holds on the page's store. Returns ms. */
async function stream(host: HostCore, actions: [string, AnyAction][], done: () => boolean): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < actions.length; i += PER_TICK) {
    for (const [channel, action] of actions.slice(i, i + PER_TICK)) host.dispatchServerAction(channel, action);
    await tick();
  }
  while (!done()) await tick();
  return performance.now() - start;
}

async function streamedChat(open: (h: HostCore) => Promise<Opened>): Promise<{ ms: number; traffic?: Traffic }> {
  const host = newHost();
  host.createChat(SESSION, CHAT, { initialMessage: { text: 'go', origin: { kind: 'user' } } as never });
  const turnId = host.getChatState(CHAT)!.activeTurn!.id;
  const opened = await open(host);
  const release = opened.store.watchChat(CHAT);
  while (!opened.store.getChatState(CHAT)) await tick();
  const actions: [string, AnyAction][] = Array.from({ length: PARTS }, (_, i) => [
    CHAT,
    { type: 'chat/responsePart', turnId, part: { kind: 'markdown', id: `p${i}`, content: `Part ${i} of the streamed answer.` } } as AnyAction,
  ]);
  const parts = () => opened.store.getChatState(CHAT)?.activeTurn?.responseParts.length ?? 0;
  const ms = await stream(host, actions, () => parts() === PARTS);
  release();
  await opened.close();
  host.close();
  return { ms, ...(opened.traffic && { traffic: opened.traffic }) };
}

async function serverChanges(open: (h: HostCore) => Promise<Opened>): Promise<{ ms: number; traffic?: Traffic; wakes: number }> {
  const host = newHost();
  const opened = await open(host);
  const ids = serverIds(SERVERS);
  let wakes = 0;
  for (const id of ids) opened.store.subscribeMcpServer(id, () => wakes++);
  const actions: [string, AnyAction][] = ids.map((id) => [SESSION, { type: 'session/mcpServerStateChanged', id, state: { kind: 'stopped' } } as AnyAction]);
  const last = ids.at(-1)!;
  const ms = await stream(host, actions, () => wakes === SERVERS && opened.store.getState()?.customizations?.some((c) => c.id === 'plugin-1') === true && stoppedLast(opened.store, last));
  await opened.close();
  host.close();
  return { ms, ...(opened.traffic && { traffic: opened.traffic }), wakes };
}

function stoppedLast(store: SessionStoreLike, id: string): boolean {
  for (const c of store.getState()?.customizations ?? []) {
    for (const s of [c, ...(((c as { children?: unknown[] }).children ?? []) as typeof c[])]) if (s.id === id) return (s as { state?: { kind?: string } }).state?.kind === 'stopped';
  }
  return false;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function compare(name: string, run: (open: (h: HostCore) => Promise<Opened>) => Promise<{ ms: number; traffic?: Traffic }>) {
  await run(openPage); // warm-up
  await run(openWorker);
  const page: number[] = [];
  const worker: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    page.push((await run(openPage)).ms);
    worker.push((await run(openWorker)).ms);
  }
  const { traffic } = await run((h) => openWorker(h, true));
  const p = median(page);
  const w = median(worker);
  return [
    name,
    `${p.toFixed(0)} ms`,
    `${w.toFixed(0)} ms`,
    `${(w / p).toFixed(2)}×`,
    String(traffic!.batches),
    kb(traffic!.bytes),
    kb(traffic!.wholeBytes),
    `${(traffic!.wholeBytes / traffic!.bytes).toFixed(0)}×`,
  ];
}

const rows = [
  await compare(`W4 streamed chat, ${PARTS.toLocaleString('en-US')} response parts`, streamedChat),
  await compare(`W5 ${SERVERS.toLocaleString('en-US')} server changes, ${SERVERS.toLocaleString('en-US')} servers`, serverChanges),
];
printTable(
  `Worker vs page (median of ${ROUNDS}; ${PER_TICK} host actions per macrotask; worker→page traffic as structured-clone bytes)`,
  ['workload', 'page', 'worker', 'worker/page', 'batches', 'patches sent', 'whole views would be', 'saved'],
  rows,
);

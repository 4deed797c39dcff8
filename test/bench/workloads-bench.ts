// W1-W3 of issue 15: our reducers alone, the full store path one envelope at a time (nobody listening; with a
// listener told of every change that reads the state each time; with the listener told once per frame, as the
// elements under <ahp-session> are since scheduleNotify, frames simulated by count and by the clock), and the store
// fed in bursts (`receiveAll`). Reference-free: the streams come from workloads.ts and the budget lines compare with the
// reference figures recorded in issue 15. With AHP_REFERENCE=<path to the upstream reducers module> the reference
// is folded side by side instead, interleaved with ours, in a process of its own (reference-fold.ts says why;
// nothing of it is part of the project).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ActionEnvelope, AnyAction, ChatState, SessionState } from '../../src/protocol/index.js';
import { chatReducer, sessionReducer } from '../../src/reducers/index.js';
import { SessionStore } from '../../src/store/index.js';
import { fmt, heapAfterGc, median, printTable } from './timing.js';
import { CHILD_ENV, referenceFolder, type ReferenceReply, type ReferenceRequest } from './reference-fold.js';
import { w1ChatDeltas, w2ToolCalls, w3ServerStates, type Workload } from './workloads.js';

const SESSION = 'ahp-session:/bench';
const CHAT = 'ahp-chat:/bench';
/** Envelopes per `receiveAll` in the burst rows. */
export const BURST = 256;
/**
 * Envelopes per simulated animation frame in the `store-frame` rows. A page at 60 Hz sees 16 envelopes a frame when
 * they arrive at about 1,000/s; a faster stream puts more into each frame (at the rates measured here, thousands).
 */
export const FRAME = 16;
/** Milliseconds per frame in the `store-frame-ms` rows: a 60 Hz page while envelopes arrive faster than it folds them. */
export const FRAME_MS = 16;

type Mode = 'reference' | 'reducer' | 'store' | 'store-read' | 'store-read-list' | 'store-frame' | 'store-frame-ms' | 'store-burst';
/** The reference folding in its own process: one fold of a workload (by key) per call, the calls one at a time. */
interface Reference {
  fold(key: string): Promise<{ ms: number; bytes: number | undefined }>;
  close(): void;
}

/**
 * The stream as envelopes, built once per workload: like the reference's actions, the store's input exists before the
 * timed folds and is old by then. Built again for every fold (as up to session 8), 200,000 fresh envelopes held for the
 * whole fold were copied and promoted by the young-generation GC inside the timed loop: a cost of the harness's input,
 * which a page's envelopes (parsed one by one, dropped once received) do not have and the reference's rows never paid.
 */
const envelopes = new WeakMap<Workload<object>, ActionEnvelope[]>();
function envelopesOf<S extends object>(w: Workload<S>, isChat: boolean): ActionEnvelope[] {
  let envs = envelopes.get(w);
  if (!envs) envelopes.set(w, (envs = w.actions.map((action, i) => ({ channel: isChat ? CHAT : SESSION, serverSeq: i + 1, action }))));
  return envs;
}

interface Kept {
  state?: unknown;
  store?: SessionStore;
}

/** One fold of the whole stream from a fresh initial state; returns its CPU time and what it built. */
function foldOnce<S extends object>(w: Workload<S>, mode: Exclude<Mode, 'reference'>, isChat: boolean): { ms: number; kept: Kept } {
  const initial = w.initial();
  let store: SessionStore | undefined;
  let envs: ActionEnvelope[] = [];
  /** The flush the store asked for (store-frame): called once per simulated frame. */
  let flush: (() => void) | undefined;
  if (mode.startsWith('store')) {
    store = new SessionStore({
      channel: SESSION,
      clientId: 'bench',
      send: () => {},
      nextClientSeq: () => 1,
      pendingTimeoutMs: 3_600_000,
      // What <ahp-session> does (frameScheduler): listeners hear of received envelopes once per frame.
      ...(mode.startsWith('store-frame') && { scheduleNotify: (f: () => void) => void (flush = f) }),
    });
    if (isChat) {
      store.loadSnapshot({ resource: SESSION, state: { provider: 'b', title: 'b', status: 1, lifecycle: 'ready', activeClients: [], chats: [] }, fromSeq: 0 });
      store.watchChat(CHAT);
    }
    store.loadSnapshot({ resource: isChat ? CHAT : SESSION, state: initial, fromSeq: 0 });
    if (mode.startsWith('store-read') || mode.startsWith('store-frame')) {
      // What a page's elements do: every change they hear of wakes a controller that reads the new state (StoreController.check).
      const s = store;
      let reads = 0;
      if (isChat) s.subscribeChat(CHAT, () => void (s.getChatState(CHAT) && reads++));
      // store-read-list (W3 only): the listener also reads the whole customizations list, which a server change
      // builds only when read (reducers/customization-chunks.ts), as <ahp-mcp-server-list> does once per render.
      else if (mode === 'store-read-list') s.subscribe(() => void (s.getState()?.customizations?.length && reads++));
      else s.subscribe(() => void (s.getState() && reads++));
    }
    envs = envelopesOf(w, isChat);
  }
  const bursts: ActionEnvelope[][] = [];
  if (mode === 'store-burst') for (let i = 0; i < envs.length; i += BURST) bursts.push(envs.slice(i, i + BURST));
  let state: unknown = initial;
  const reduce = (isChat ? chatReducer : sessionReducer) as unknown as (s: unknown, a: AnyAction) => unknown;
  // CPU time (this process, GC threads included), as the issue's reference figures: wall time on a shared machine measures the neighbours.
  const start = process.cpuUsage();
  if (mode === 'reducer') for (const a of w.actions) state = reduce(state, a);
  else if (mode === 'store-burst') for (const b of bursts) store!.receiveAll(b);
  else if (mode.startsWith('store-frame')) {
    const byTime = mode === 'store-frame-ms';
    let frameStart = performance.now();
    for (let i = 0; i < envs.length; i++) {
      store!.receive(envs[i]!);
      // By count, or by the clock (looked at every 8 envelopes).
      const due = byTime ? (i & 7) === 7 && performance.now() - frameStart >= FRAME_MS : (i + 1) % FRAME === 0;
      if (due && flush) {
        const f = flush;
        flush = undefined;
        f();
        frameStart = performance.now();
      }
    }
    flush?.();
  } else for (const e of envs) store!.receive(e);
  if (store) state = isChat ? store.getChatState(CHAT) : store.getState();
  const used = process.cpuUsage(start);
  w.check(state as S);
  return { ms: (used.user + used.system) / 1000, kept: { state, store } };
}

/** One fold and the heap its final state keeps (for a store: everything the store keeps): the heap with it minus the heap once it is dropped. */
async function foldAndWeigh<S extends object>(key: string, w: Workload<S>, mode: Mode, isChat: boolean, ref: Reference | undefined): Promise<{ ms: number; bytes: number | undefined }> {
  if (mode === 'reference') return ref!.fold(key);
  const { ms, kept } = foldOnce(w, mode, isChat);
  const withState = await heapAfterGc();
  kept.store?.dispose();
  kept.store = undefined;
  kept.state = undefined;
  const without = await heapAfterGc();
  return { ms, bytes: withState !== undefined && without !== undefined ? withState - without : undefined };
}

interface Result {
  rate: number;
  bytes: number | undefined;
}

/**
 * `rounds` timed folds per mode after one warm-up each, the modes interleaved round by round; medians. Several workloads
 * (the W3 sizes) are interleaved the same way, so that a change of load on a shared machine during the run moves every
 * size alike and the slow-down between sizes compares folds made at the same time.
 */
async function measureWorkloads<S extends object>(ws: { key: string; w: Workload<S>; modes: Mode[] }[], isChat: boolean, rounds: number, ref: Reference | undefined): Promise<Record<string, Map<Mode, Result>>> {
  for (const { key, w, modes } of ws) for (const mode of modes) await foldAndWeigh(key, w, mode, isChat, ref);
  const rates = new Map<string, number[]>();
  const sizes = new Map<string, number[]>();
  for (let i = 0; i < rounds; i++) {
    for (const { key, w, modes } of ws) {
      for (const mode of modes) {
        const { ms, bytes } = await foldAndWeigh(key, w, mode, isChat, ref);
        (rates.get(`${key} ${mode}`) ?? rates.set(`${key} ${mode}`, []).get(`${key} ${mode}`)!).push(w.actions.length / (ms / 1000));
        if (bytes !== undefined) (sizes.get(`${key} ${mode}`) ?? sizes.set(`${key} ${mode}`, []).get(`${key} ${mode}`)!).push(bytes);
      }
    }
  }
  const out: Record<string, Map<Mode, Result>> = {};
  for (const { key, modes } of ws) {
    out[key] = new Map(modes.map((mode) => [mode, { rate: median(rates.get(`${key} ${mode}`)!), bytes: sizes.get(`${key} ${mode}`)?.length ? median(sizes.get(`${key} ${mode}`)!) : undefined }]));
  }
  return out;
}

/**
 * `AHP_REFERENCE_SAME_PROCESS=1` (not the budget run): the reference folds in this process, next to the store, as up to
 * session 14, for comparison with the budget run; its lines are marked.
 */
const sameProcess = process.env.AHP_REFERENCE_SAME_PROCESS === '1';

const MODE_LABEL: Record<Mode, string> = {
  reference: `reference (AHP_REFERENCE, ${sameProcess ? 'in this process' : 'in its own process'})`,
  reducer: 'reducers',
  store: 'store, per envelope, nobody listening',
  'store-read': 'store, per envelope, a listener reads every change',
  'store-read-list': 'store, per envelope, a listener reads every change and its whole customizations list (no budget)',
  'store-frame': `store, per envelope, a listener reads once per frame of ${FRAME} envelopes (<ahp-session>)`,
  'store-frame-ms': `store, per envelope, a listener reads once per ${FRAME_MS} ms frame (<ahp-session> under a flood)`,
  'store-burst': `store, bursts of ${BURST}`,
};
const mb = (b: number | undefined): string => (b === undefined ? 'n/a (run with --expose-gc)' : `${(b / 1e6).toFixed(2)} MB`);

/**
 * The reference figures issue 15 records for the upstream reducers on this machine class (CPU time, medians):
 * W1 about 1.4 M actions/s, W2 about 0.6 M/s, W3 85-125 k/s at 1,000 servers (the higher end taken) and 14 k/s
 * at 10,000; final state memory at 10,000 servers 1.9-2.0 MB (side by side in the same harness, the lower end taken).
 */
const RECORDED = { w1: 1.4e6, w2: 0.6e6, w3: { 1000: 125e3, 10_000: 14e3 } as Record<number, number>, w3Bytes10k: 1.9e6 };

/** Forks the reference's process (reference-fold.ts) when AHP_REFERENCE names the upstream reducers module. */
async function loadReference(): Promise<Reference | undefined> {
  const path = process.env.AHP_REFERENCE;
  if (!path) return undefined;
  const { ask, close } = sameProcess ? { ask: await referenceFolder(path), close: () => {} } : await forkReference(path);
  return {
    async fold(key) {
      const reply = await ask(key);
      if ('error' in reply) throw new Error(`the reference's fold of ${key} failed: ${reply.error}`);
      return reply;
    },
    close,
  };
}

/** Forks reference-fold.ts as the reference's process; resolves once it is ready to fold. */
async function forkReference(path: string): Promise<{ ask(key: string): Promise<ReferenceReply>; close(): void }> {
  const child = fork(fileURLToPath(new URL('./reference-fold.ts', import.meta.url)), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, [CHILD_ENV]: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((reply: ReferenceReply | 'ready') => void)[] = [];
  let gone: string | undefined;
  child.on('message', (reply: ReferenceReply | 'ready') => waiting.shift()?.(reply));
  child.on('exit', (code, signal) => {
    gone = `the reference's process ended (${signal ?? `exit ${code}`}; its error is above)`;
    for (const resolve of waiting.splice(0)) resolve({ error: gone });
  });
  const next = () => new Promise<ReferenceReply | 'ready'>((resolve) => (gone ? resolve({ error: gone }) : waiting.push(resolve)));
  const ready = await next();
  if (ready !== 'ready') throw new Error(`AHP_REFERENCE=${path}: ${'error' in ready ? ready.error : 'no answer'}`);
  return {
    async ask(key) {
      const pending = next();
      child.send({ key } satisfies ReferenceRequest);
      const reply = await pending;
      return reply === 'ready' ? { error: 'it answered "ready" to a fold' } : reply;
    },
    close: () => void child.kill(),
  };
}

const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

/**
 * `AHP_BENCH_LIVE_STORE=1` (not the budget run): one more store lives through the whole run, watching a chat with a
 * listener, as a page's store does. By default every fold builds its store after the collections between folds have
 * freed every earlier store; V8 then drops the store classes' hidden classes and deoptimizes the store code compiled
 * for them (`--trace-deopt`: "weak objects"), so each store fold starts cold, which a page's one store does not. The
 * lines of such a run are marked; nothing else in the run changes (a fold's memory is still the heap with its store
 * minus the heap without it).
 */
function liveStore(): SessionStore | undefined {
  if (process.env.AHP_BENCH_LIVE_STORE !== '1') return undefined;
  const store = new SessionStore({ channel: SESSION, clientId: 'live', send: () => {}, nextClientSeq: () => 1 });
  store.loadSnapshot({ resource: SESSION, state: { provider: 'b', title: 'b', status: 1, lifecycle: 'ready', activeClients: [], chats: [] }, fromSeq: 0 });
  store.watchChat(CHAT);
  store.loadSnapshot({ resource: CHAT, state: w1ChatDeltas(4).initial(), fromSeq: 0 });
  store.subscribeChat(CHAT, () => void store.getChatState(CHAT));
  return store;
}

/** Runs W1-W3 and prints the rates, the memory and one budget line per budget of issue 15; `rounds` timed folds per row after one warm-up. */
export async function runWorkloads(rounds = 3): Promise<void> {
  const live = liveStore();
  const ref = await loadReference();
  const modes: Mode[] = [...(ref ? (['reference'] as const) : []), 'reducer', 'store', 'store-read', 'store-frame', 'store-frame-ms', 'store-burst'];
  const rows: string[][] = [];
  const results: Record<string, Map<Mode, Result>> = {};
  const run = async <S extends object>(ws: { key: string; w: Workload<S> }[], isChat: boolean) => {
    const own = isChat ? modes : [...modes, 'store-read-list' as const];
    Object.assign(results, await measureWorkloads(ws.map((x) => ({ ...x, modes: own })), isChat, rounds, ref));
    for (const { key, w } of ws) for (const mode of own) rows.push([w.name, MODE_LABEL[mode], `${fmt(results[key]!.get(mode)!.rate)} actions/s`, mb(results[key]!.get(mode)!.bytes)]);
  };
  await run([{ key: 'w1', w: w1ChatDeltas() }], true);
  await run([{ key: 'w2', w: w2ToolCalls() }], true);
  // The three sizes in one interleaved run: the slow-down rows compare them.
  await run([1000, 5000, 10_000].map((servers) => ({ key: `w3-${servers}`, w: w3ServerStates(servers) })), false);
  printTable(
    '(d) Issue 15 workloads W1-W3 (CPU time, medians of interleaved folds, the W3 sizes interleaved with each other too; memory = heap kept by the final state, for a store everything the store keeps)',
    ['workload', 'path', 'throughput', 'memory'],
    rows,
  );

  const source = ref ? `reference folded side by side ${sameProcess ? 'in this process' : 'in its own process'} (AHP_REFERENCE)` : 'reference = the figures recorded in issue 15 for this machine class';
  const refRate = (key: string, recorded: number) => (ref ? results[key]!.get('reference')!.rate : recorded);
  const lines: string[] = [];
  const ratioLine = (what: string, key: string, mode: Mode, recorded: number, budget: number) => {
    const ours = results[key]!.get(mode)!.rate;
    const base = refRate(key, recorded);
    lines.push(`${what}, ${MODE_LABEL[mode]}: ${fmt(ours)}/s = ${(ours / base).toFixed(2)}× the reference's ${fmt(base)}/s (budget ≥ ${budget.toFixed(1)}×): ${verdict(ours / base >= budget)}`);
  };
  for (const mode of ['store', 'store-read', 'store-frame', 'store-frame-ms'] as const) {
    ratioLine('W1', 'w1', mode, RECORDED.w1, 1);
    ratioLine('W2', 'w2', mode, RECORDED.w2, 1);
    ratioLine('W3 at 10,000 servers', 'w3-10000', mode, RECORDED.w3[10_000]!, 10);
  }
  const list = results['w3-10000']!.get('store-read-list')!.rate;
  const listSlow = results['w3-1000']!.get('store-read-list')!.rate / list;
  lines.push(`W3 at 10,000 servers, ${MODE_LABEL['store-read-list']}: ${fmt(list)}/s = ${(list / refRate('w3-10000', RECORDED.w3[10_000]!)).toFixed(2)}× the reference; slow-down from 1,000 servers ${listSlow.toFixed(2)}× (not budget rows: the strict row's listener reads the state, not the list)`);
  for (const mode of ['store', 'store-read', 'store-frame', 'store-frame-ms', 'store-burst', 'reducer'] as const) {
    const slow = results['w3-1000']!.get(mode)!.rate / results['w3-10000']!.get(mode)!.rate;
    lines.push(`W3 slow-down from 1,000 to 10,000 servers, ${MODE_LABEL[mode]}: ${slow.toFixed(2)}× (budget ≤ 1.5×): ${verdict(slow <= 1.5)}`);
  }
  const refBytes = ref ? results['w3-10000']!.get('reference')!.bytes : RECORDED.w3Bytes10k;
  for (const mode of ['store', 'store-frame', 'reducer'] as const) {
    const bytes = results['w3-10000']!.get(mode)!.bytes;
    if (bytes === undefined || refBytes === undefined) lines.push(`W3 at 10,000 servers, final state memory: n/a (run with --expose-gc)`);
    else lines.push(`W3 at 10,000 servers, final state memory, ${MODE_LABEL[mode]}: ${(bytes / 1e3).toFixed(0)} KB vs the reference's ${(refBytes / 1e3).toFixed(0)} KB (budget ≤): ${verdict(bytes <= refBytes)}`);
  }
  console.log(`\nIssue 15 budgets (${source}):`);
  console.log(
    `  Store rows: "reads every change" tells a listener after each envelope, which reads the state (a page before` +
      ` scheduleNotify; the strict form). "once per frame of ${FRAME}" is a page with <ahp-session> now: the store` +
      ` tells its listeners once per animation frame (frameScheduler), here simulated as every ${FRAME} envelopes,` +
      ` and the listener reads then. "once per ${FRAME_MS} ms frame" is the same page while envelopes arrive faster than` +
      ` it folds them (a flood, a replay): frames by the clock, so each holds as many envelopes as arrived in it.` +
      ` Both are other measurements than the strict row, not the strict row made faster. In every row the listener` +
      ` reads the state object (what StoreController does), not its customizations list: a server change's list is` +
      ` built only when read (reducers/customization-chunks.ts), so a listener that reads the whole list after every` +
      ` envelope still pays O(servers) per read, which these rows do not measure.`,
  );
  const mark =
    (live ? '[AHP_BENCH_LIVE_STORE=1, a store kept alive through the run, not the budget run] ' : '') +
    (ref && sameProcess ? '[AHP_REFERENCE_SAME_PROCESS=1, the reference folded next to the store, not the budget run] ' : '');
  for (const l of lines) console.log(`  ${mark}${l}`);
  live?.dispose();
  ref?.close();
}

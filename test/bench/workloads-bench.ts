// W1-W3 of issue 15: our reducers alone, the full store path one envelope at a time, and the store path
// fed in bursts (`receiveAll`, as a replay or one socket read delivers them). Reference-free: the streams come
// from workloads.ts; comparing with the upstream reference reducers is done outside the project.
import type { ActionEnvelope, AnyAction, ChatState, SessionState } from '../../src/protocol/index.js';
import { chatReducer, sessionReducer } from '../../src/reducers/index.js';
import { SessionStore } from '../../src/store/index.js';
import { fmt, median, printTable } from './timing.js';
import { w1ChatDeltas, w2ToolCalls, w3ServerStates, type Workload } from './workloads.js';

const SESSION = 'ahp-session:/bench';
const CHAT = 'ahp-chat:/bench';
/** Envelopes per `receiveAll` in the burst rows. */
export const BURST = 256;

type Mode = 'reducer' | 'store' | 'store-burst';
const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterGc(): number | undefined {
  if (!gc) return undefined;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** One fold of the whole stream from a fresh initial state; returns its CPU time and what it built. */
function foldOnce<S extends object>(w: Workload<S>, mode: Mode, isChat: boolean): { ms: number; kept: { state?: S; store?: SessionStore } } {
  const initial = w.initial();
  let store: SessionStore | undefined;
  let envs: ActionEnvelope[] = [];
  if (mode !== 'reducer') {
    store = new SessionStore({ channel: SESSION, clientId: 'bench', send: () => {}, nextClientSeq: () => 1, pendingTimeoutMs: 3_600_000 });
    if (isChat) {
      store.loadSnapshot({ resource: SESSION, state: { provider: 'b', title: 'b', status: 1, lifecycle: 'ready', activeClients: [], chats: [] }, fromSeq: 0 });
      store.watchChat(CHAT);
    }
    store.loadSnapshot({ resource: isChat ? CHAT : SESSION, state: initial, fromSeq: 0 });
    envs = w.actions.map((action, i) => ({ channel: isChat ? CHAT : SESSION, serverSeq: i + 1, action }));
  }
  const bursts: ActionEnvelope[][] = [];
  if (mode === 'store-burst') for (let i = 0; i < envs.length; i += BURST) bursts.push(envs.slice(i, i + BURST));
  let state: S = initial;
  // CPU time (this process, GC threads included), as the reference figures: wall time on a shared machine measures the neighbours.
  const start = process.cpuUsage();
  if (mode === 'reducer') {
    const reduce = (isChat ? chatReducer : sessionReducer) as unknown as (s: S, a: AnyAction) => S;
    for (const a of w.actions) state = reduce(state, a);
  } else if (mode === 'store') for (const e of envs) store!.receive(e);
  else for (const b of bursts) store!.receiveAll(b);
  const used = process.cpuUsage(start);
  const ms = (used.user + used.system) / 1000;
  if (store) state = (isChat ? store.getChatState(CHAT) : store.getState()) as S;
  w.check(state);
  return { ms, kept: { state, store } };
}

/** One fold and the heap its final state (and store) keeps: the heap with them minus the heap once they are dropped. */
function foldAndWeigh<S extends object>(w: Workload<S>, mode: Mode, isChat: boolean): { ms: number; bytes: number | undefined } {
  const { ms, kept } = foldOnce(w, mode, isChat);
  const withState = heapAfterGc();
  kept.store?.dispose();
  kept.store = undefined;
  kept.state = undefined;
  const without = heapAfterGc();
  return { ms, bytes: withState !== undefined && without !== undefined ? withState - without : undefined };
}

interface Result {
  name: string;
  mode: Mode;
  rate: number;
  bytes: number | undefined;
}

function measureWorkload<S extends object>(w: Workload<S>, mode: Mode, isChat: boolean, rounds: number): Result {
  foldAndWeigh(w, mode, isChat);
  const rates: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const { ms, bytes } = foldAndWeigh(w, mode, isChat);
    rates.push(w.actions.length / (ms / 1000));
    if (bytes !== undefined) sizes.push(bytes);
  }
  return { name: w.name, mode, rate: median(rates), bytes: sizes.length ? median(sizes) : undefined };
}

const MODE_LABEL: Record<Mode, string> = { reducer: 'reducers', store: 'store, per envelope', 'store-burst': `store, bursts of ${BURST}` };
const mb = (b: number | undefined): string => (b === undefined ? 'n/a (run with --expose-gc)' : `${(b / 1e6).toFixed(2)} MB`);

/** Runs W1-W3 and prints the rates; `rounds` timed folds per row after one warm-up. */
export function runWorkloads(rounds = 3): void {
  const rows: string[][] = [];
  const w3: Record<number, Partial<Record<Mode, number>>> = {};
  const modes: Mode[] = ['reducer', 'store', 'store-burst'];
  for (const w of [w1ChatDeltas(), w2ToolCalls()]) {
    for (const mode of modes) {
      const r = measureWorkload<ChatState>(w, mode, true, rounds);
      rows.push([r.name, MODE_LABEL[mode], `${fmt(r.rate)} actions/s`, mode === 'reducer' ? mb(r.bytes) : '-']);
    }
  }
  for (const servers of [1000, 5000, 10_000]) {
    const w = w3ServerStates(servers);
    w3[servers] = {};
    for (const mode of modes) {
      const r = measureWorkload<SessionState>(w, mode, false, rounds);
      w3[servers]![mode] = r.rate;
      rows.push([r.name, MODE_LABEL[mode], `${fmt(r.rate)} actions/s`, mode === 'reducer' ? mb(r.bytes) : '-']);
    }
  }
  printTable('(d) Issue 15 workloads W1-W3 (CPU time, medians; memory = heap kept by the final state, reducer rows only)', ['workload', 'path', 'throughput', 'memory'], rows);
  const flat = modes.map((m) => `${MODE_LABEL[m]} ${(w3[1000]![m]! / w3[10_000]![m]!).toFixed(2)}×`);
  console.log(`  W3 slow-down from 1,000 to 10,000 servers (budget: within 1.5×): ${flat.join(', ')}`);
}

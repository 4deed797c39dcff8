// `npm run bench`: SessionStore throughput, rebase cost and subscriber wake-ups. Plain Node timing, no test framework.
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AnyAction } from '../../src/protocol/index.js';
import { chatReducer } from '../../src/reducers/index.js';
import type { SessionStore } from '../../src/store/index.js';
import { CHAT, ME, SESSION, benchStore, chatWithToolCalls, sequence, serverIds, sessionWithServers, tc } from './fixtures.js';
import { fmt, measure, printTable, rateRows, type Measurement } from './timing.js';
import { runWorkloads } from './workloads-bench.js';
import { chatReducersLoading } from '../../src/store/chat-reducers-lazy.js';

// Since c329ae4 a store loads the chat reducers on the first watched chat (a dynamic import): until they are here a
// chat snapshot waits, and the synchronous setups below would fold nothing. A page loads them once; so does the bench,
// before anything is timed.
await chatReducersLoading();

const SERVERS = 1000;
const started = performance.now();
const session = sessionWithServers(SERVERS);
const ids = serverIds(SERVERS);

/** Subscribes to every server and to `toolCalls` tool calls; returns the wake-up counters. */
function addSubscribers(store: SessionStore, toolCallIds: string[]) {
  const counts = { server: 0, toolCall: 0, wrongServer: 0, wrongToolCall: 0, lastServer: '', lastToolCall: '' };
  for (const id of ids) {
    store.subscribeMcpServer(id, (s) => {
      counts.server++;
      if (s?.id !== counts.lastServer) counts.wrongServer++;
    });
  }
  for (const id of toolCallIds) {
    store.subscribeToolCall(CHAT, id, (t) => {
      counts.toolCall++;
      if (t?.toolCallId !== counts.lastToolCall) counts.wrongToolCall++;
    });
  }
  return counts;
}

// ---- (a) throughput ----

function streamedDeltas(withSubscribers: boolean): () => () => number {
  const STREAMS = 20;
  const N = 20_000;
  return () => {
    const store = benchStore(session, chatWithToolCalls(STREAMS));
    if (withSubscribers) addSubscribers(store, Array.from({ length: STREAMS }, (_, i) => `s-${i}`));
    const env = sequence();
    const envelopes = Array.from({ length: N }, (_, i) => env(CHAT, tc('chat/toolCallDelta', `s-${i % STREAMS}`, { content: '{"k":1,' })));
    return () => {
      for (const e of envelopes) store.receive(e);
      return N;
    };
  };
}

const DELTAS_PER_CALL = 8;
const CALLS_PER_TURN = 50;

/** Envelopes for `calls` full tool-call lifecycles, `CALLS_PER_TURN` per turn (turn start/end included). */
function lifecycleEnvelopes(calls: number): { envelopes: ReturnType<ReturnType<typeof sequence>>[]; actions: number } {
  const env = sequence();
  const out: ReturnType<typeof env>[] = [];
  let turn = '';
  for (let i = 0; i < calls; i++) {
    if (i % CALLS_PER_TURN === 0) {
      if (turn) out.push(env(CHAT, { type: 'chat/turnComplete', turnId: turn, duration: 10 }));
      turn = `turn-${i}`;
      out.push(env(CHAT, { type: 'chat/turnStarted', turnId: turn, startedAt: '2026-01-01T00:00:00.000Z', message: { text: 'go', origin: { kind: 'user' } } }));
    }
    const id = `c-${i}`;
    const a = (type: string, extra: Record<string, unknown> = {}): AnyAction => ({ type, turnId: turn, toolCallId: id, ...extra });
    out.push(env(CHAT, a('chat/toolCallStart', { toolName: 'read', displayName: 'Read', contributor: { kind: 'mcp', customizationId: ids[i % SERVERS] } })));
    for (let d = 0; d < DELTAS_PER_CALL; d++) out.push(env(CHAT, a('chat/toolCallDelta', { content: '{"path":' })));
    out.push(env(CHAT, a('chat/toolCallReady', { invocationMessage: 'Read file', toolInput: '{"path":1}' })));
    out.push(env(CHAT, a('chat/toolCallConfirmed', { approved: true, confirmed: 'user-action' })));
    out.push(env(CHAT, a('chat/toolCallComplete', { result: { success: true, pastTenseMessage: 'Read file', content: [{ type: 'text', text: 'ok' }] } })));
  }
  return { envelopes: out, actions: out.length };
}

function lifecycles(withSubscribers: boolean): () => () => number {
  const CALLS = 1500;
  return () => {
    const empty = chatWithToolCalls(0);
    const { activeTurn: _, ...idle } = chatReducer(empty, { type: 'chat/turnComplete', turnId: 'turn-0', duration: 1 });
    const store = benchStore(session, { ...idle, turns: [] });
    if (withSubscribers) addSubscribers(store, Array.from({ length: 100 }, (_, i) => `c-${i * 15}`));
    const { envelopes, actions } = lifecycleEnvelopes(CALLS);
    return () => {
      for (const e of envelopes) store.receive(e);
      if (store.getChatState(CHAT)?.turns.length !== Math.ceil(CALLS / CALLS_PER_TURN) - 1) throw new Error('lifecycle bench did not apply');
      return actions;
    };
  };
}

const throughput: Measurement[] = [
  measure('streamed tool-call deltas (no subscribers)', 'actions', streamedDeltas(false)),
  measure('streamed tool-call deltas (1,000 server + 20 tool-call subscribers)', 'actions', streamedDeltas(true)),
  measure('full tool-call lifecycles (no subscribers)', 'actions', lifecycles(false)),
  measure('full tool-call lifecycles (1,000 server + 100 tool-call subscribers)', 'actions', lifecycles(true)),
];
const lifecycleActions = 1 + DELTAS_PER_CALL + 3;
printTable(
  `(a) Store throughput, session with ${SERVERS.toLocaleString('en-US')} MCP servers (lifecycle = start, delta×${DELTAS_PER_CALL}, ready, confirmed, complete; ${CALLS_PER_TURN} per turn)`,
  ['scenario', 'median', 'best', 'per action'],
  rateRows(throughput),
);
const lifecycleRates = throughput.slice(2).map((m) => `${fmt(m.rates.sort((a, b) => a - b)[2]! / (lifecycleActions + 2 / CALLS_PER_TURN))}`);
console.log(`  = about ${lifecycleRates[0]} full lifecycles/s without subscribers, ${lifecycleRates[1]} with subscribers`);

// ---- (b) rebase cost ----

function sessionRebase(pending: number): () => () => number {
  const N = pending > 0 ? 1000 : 5000;
  return () => {
    const store = benchStore(session);
    for (let i = 0; i < pending; i++) store.dispatch({ type: 'session/customizationToggled', id: ids[i]!, enablement: [{ kind: 'session', enabled: false }] });
    const env = sequence();
    const envelopes = Array.from({ length: N }, (_, i) =>
      env(SESSION, { type: 'session/mcpServerStateChanged', id: ids[500 + (i % 400)]!, state: { kind: i % 2 ? 'ready' : 'starting' } }));
    return () => {
      for (const e of envelopes) store.receive(e);
      if (store.getPendingCount() !== pending) throw new Error('pending actions were settled');
      store.dispose();
      return N;
    };
  };
}

function chatRebase(pending: number): () => () => number {
  const N = pending > 0 ? 400 : 5000;
  return () => {
    const store = benchStore(session, chatWithToolCalls(20, 100));
    for (let i = 0; i < pending; i++) store.dispatch(tc('chat/toolCallConfirmed', `p-${i}`, { approved: true, confirmed: 'user-action' }), CHAT);
    const env = sequence();
    const envelopes = Array.from({ length: N }, (_, i) => env(CHAT, tc('chat/toolCallDelta', `s-${i % 20}`, { content: 'x' })));
    return () => {
      for (const e of envelopes) store.receive(e);
      if (store.getPendingCount(CHAT) !== pending) throw new Error('pending actions were settled');
      store.dispose();
      return N;
    };
  };
}

const rebase: Measurement[] = [
  measure('session: foreign server change, 0 pending', 'envelopes', sessionRebase(0)),
  measure('session: foreign server change, 100 pending toggles', 'envelopes', sessionRebase(100)),
  measure('chat: foreign tool-call delta, 0 pending', 'envelopes', chatRebase(0)),
  measure('chat: foreign tool-call delta, 100 pending confirmations', 'envelopes', chatRebase(100)),
];
printTable('(b) Cost of rebasing 100 pending own actions (time per foreign envelope received)', ['scenario', 'median', 'best', 'per envelope'], rateRows(rebase));

// ---- (c) subscriber wake-ups ----

function wakeUps(pendingOwn: boolean) {
  const CHANGES = 1000;
  const store = benchStore(session, chatWithToolCalls(100, 1));
  const counts = addSubscribers(store, Array.from({ length: 100 }, (_, i) => `s-${i}`));
  if (pendingOwn) {
    // Pending actions are rebased on every change; their rebuilt objects must not wake anyone.
    store.dispatch({ type: 'session/customizationToggled', id: ids[0]!, enablement: [{ kind: 'session', enabled: false }] });
    store.dispatch(tc('chat/toolCallConfirmed', 'p-0', { approved: true, confirmed: 'user-action' }), CHAT);
  }
  const env = sequence();
  const reset = () => Object.assign(counts, { server: 0, toolCall: 0, wrongServer: 0, wrongToolCall: 0 });

  reset();
  let start = performance.now();
  for (let i = 0; i < CHANGES; i++) {
    const id = ids[1 + ((i * 7) % (SERVERS - 1))]!;
    counts.lastServer = id;
    store.receive(env(SESSION, { type: 'session/mcpServerStateChanged', id, state: { kind: i % 2 ? 'stopped' : 'starting' } }));
  }
  const serverMs = performance.now() - start;
  const serverChange = { ...counts };

  reset();
  start = performance.now();
  for (let i = 0; i < CHANGES; i++) {
    const id = `s-${(i * 13) % 100}`;
    counts.lastToolCall = id;
    store.receive(env(CHAT, tc('chat/toolCallDelta', id, { content: 'x' })));
  }
  const deltaMs = performance.now() - start;
  const delta = { ...counts };
  store.dispose();
  const label = pendingOwn ? ' (1 own action pending per channel)' : '';
  const per = (n: number) => (n / CHANGES).toFixed(3);
  return [
    [`single-server state change${label}`, String(CHANGES), per(serverChange.server), per(serverChange.toolCall), String(serverChange.wrongServer + serverChange.wrongToolCall), `${fmt((serverMs * 1000) / CHANGES)} µs`],
    [`single tool-call delta${label}`, String(CHANGES), per(delta.server), per(delta.toolCall), String(delta.wrongServer + delta.wrongToolCall), `${fmt((deltaMs * 1000) / CHANGES)} µs`],
  ];
}

printTable(
  '(c) Subscriber wake-ups per change (1,000 server subscribers, 100 tool-call subscribers; expected 1 and 0)',
  ['change', 'changes', 'server wake-ups/change', 'tool-call wake-ups/change', 'wrong wake-ups', 'time/change'],
  [...wakeUps(false), ...wakeUps(true)],
);

await runWorkloads();

console.log(`\nNode ${process.version}, ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}); client id ${ME}; total ${((performance.now() - started) / 1000).toFixed(1)} s`);

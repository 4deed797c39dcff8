// Fuzzes the playground host over its real WebSocket: at least 10 000 random frames (invalid UTF-8,
// truncated and random JSON, random JSON-RPC, random and mutated actions, batches, binary garbage,
// oversized frames). Afterwards the process is alive, its heap is bounded, and a normal client still
// initializes, subscribes, toggles a server and completes a tool call.
// Replay a run with AHP_FUZZ_SEED=<seed> (printed at the start); AHP_FUZZ_FRAMES changes the count.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket from 'ws';
import { connectSession } from '../../src/connection/connect-session.js';
import { CLIENT_DISPATCHABLE_ACTIONS, type ToolCallState } from '../../src/protocol/index.js';
import { parseConfig } from '../../examples/playground/config.js';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { createRandom, pick } from './fuzz-helpers.js';
import { publishedServer } from '../fixtures/mcp-servers.js';

const SEED = Number(process.env.AHP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32));
const FRAMES = Number(process.env.AHP_FUZZ_FRAMES ?? 10_000);
const FRAME_LIMIT = 64 * 1024;
const WAIT_MS = 30_000;

type Kind = 'init' | 'truncated' | 'notJson' | 'randomJson' | 'jsonRpc' | 'action' | 'batch' | 'binary' | 'badUtf8' | 'oversized';
interface Frame {
  kind: Kind;
  data: Buffer;
  binary: boolean;
}
interface Run {
  frames: Frame[];
  /** A last frame that must close the connection with this code. */
  ender?: { frame: Frame; code: 1007 | 1009 };
}

const SESSION = 'ahp-session:/playground';
const CHAT = 'ahp-chat:/playground-main';
const CHANNELS = [SESSION, CHAT, 'ahp-chat:/fuzz-1', 'ahp-chat:/nope', 'ahp-root://', 'mcp://everything', '', 'x:'];
const IDS = ['ghost', '', 'demo-plugin', 'protected-nope', 'x'.repeat(300)];
const METHODS = ['initialize', 'reconnect', 'ping', 'subscribe', 'unsubscribe', 'dispatchAction', 'createChat', 'authenticate', 'listSessions', 'fetchTurns', 'tools/call', 'resources/read', 'nope', ''];

function randomValue(rnd: () => number, depth = 0): unknown {
  const r = rnd();
  if (depth > 3 || r < 0.35) return pick(rnd, [null, true, false, 0, -1, 1.5, 2 ** 53, -0, '', 'x', '\u0000', '😀', 'é'.repeat(20)]);
  if (r < 0.5) return Math.floor(rnd() * 1e9) * (rnd() < 0.5 ? -1 : 1);
  if (r < 0.65) return Array.from({ length: Math.floor(rnd() * 40) }, () => String.fromCharCode(32 + Math.floor(rnd() * 9000))).join('');
  if (r < 0.8) return Array.from({ length: Math.floor(rnd() * 4) }, () => randomValue(rnd, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rnd() * 4); i > 0; i--) o[pick(rnd, ['type', 'id', 'channel', 'text', 'message', 'turnId', 'a', '__proto__', 'constructor'])] = randomValue(rnd, depth + 1);
  return o;
}

/** A plausible client action, then mutated: fields dropped, retyped or grown. */
function randomAction(rnd: () => number): Record<string, unknown> {
  const type = rnd() < 0.9 ? pick(rnd, [...CLIENT_DISPATCHABLE_ACTIONS]) : pick(rnd, ['chat/delta', 'session/ready', 'x/unknown', '']);
  const action: Record<string, unknown> = {
    type,
    id: rnd() < 0.02 ? 'everything' : pick(rnd, IDS),
    enabled: rnd() < 0.5,
    enablement: [{ kind: 'global', enabled: rnd() < 0.5 }],
    turnId: pick(rnd, ['t1', 't2', `t-${Math.floor(rnd() * 1e9)}`]),
    toolCallId: pick(rnd, ['tc1', 'tc2']),
    startedAt: '2026-01-01T00:00:00Z',
    message: { text: pick(rnd, ['hi', 'fuzz', '', '/nope', '😀']), origin: { kind: pick(rnd, ['user', 'agent', 'x']) } },
    title: 'fuzz',
    approved: rnd() < 0.5,
    duration: 1,
  };
  for (const key of Object.keys(action)) {
    const r = rnd();
    if (key === 'type') continue;
    if (r < 0.25) delete action[key];
    else if (r < 0.35) action[key] = randomValue(rnd);
  }
  if (rnd() < 0.05) action.big = 'b'.repeat(Math.floor(rnd() * FRAME_LIMIT * 0.8));
  return action;
}

function randomRpc(rnd: () => number): Record<string, unknown> {
  const msg: Record<string, unknown> = { jsonrpc: rnd() < 0.9 ? '2.0' : randomValue(rnd), method: rnd() < 0.9 ? pick(rnd, METHODS) : randomValue(rnd) };
  const idKind = rnd();
  if (idKind < 0.6) msg.id = Math.floor(rnd() * 1000);
  else if (idKind < 0.7) msg.id = null;
  else if (idKind < 0.8) msg.id = randomValue(rnd);
  const params: Record<string, unknown> = { channel: pick(rnd, CHANNELS) };
  if (msg.method === 'initialize') Object.assign(params, { protocolVersions: pick(rnd, [['1.0.0'], ['0.1.0'], ['x'], [], 'a']), clientId: pick(rnd, ['fuzz', '', 5]) });
  if (msg.method === 'reconnect') Object.assign(params, { clientId: 'fuzz', subscriptions: pick(rnd, [[], [SESSION], [{ channel: SESSION, lastSeenServerSeq: 1 }], 'x']) });
  if (msg.method === 'createChat') Object.assign(params, { channel: SESSION, chat: pick(rnd, ['ahp-chat:/fuzz-1', 'ahp-chat:/fuzz-2', CHAT, 'nope']), initialMessage: pick(rnd, [undefined, { text: 'hi' }, 5]) });
  if (msg.method === 'dispatchAction') Object.assign(params, { clientSeq: pick(rnd, [1, -1, 1e20, 'x']), action: randomAction(rnd) });
  if (rnd() < 0.8) msg.params = rnd() < 0.9 ? params : randomValue(rnd);
  return msg;
}

function text(kind: Kind, value: unknown): Frame {
  return { kind, data: Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)), binary: false };
}

function randomFrame(rnd: () => number, seq: { n: number }): Frame {
  const r = rnd();
  if (r < 0.15) {
    const whole = JSON.stringify(randomRpc(rnd));
    return text('truncated', whole.slice(0, Math.max(1, Math.floor(rnd() * whole.length))));
  }
  if (r < 0.2) return text('notJson', Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => String.fromCharCode(33 + Math.floor(rnd() * 90))).join('') + '}');
  if (r < 0.3) return text('randomJson', randomValue(rnd));
  if (r < 0.55) return text('jsonRpc', randomRpc(rnd));
  if (r < 0.88) {
    const channel = rnd() < 0.85 ? pick(rnd, [SESSION, CHAT, SESSION]) : pick(rnd, CHANNELS);
    return text('action', { jsonrpc: '2.0', method: 'dispatchAction', params: { channel, clientSeq: ++seq.n, action: randomAction(rnd) } });
  }
  if (r < 0.94) return text('batch', Array.from({ length: Math.floor(rnd() * 5) }, () => (rnd() < 0.5 ? randomRpc(rnd) : randomValue(rnd))));
  return { kind: 'binary', data: Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 64) }, () => Math.floor(rnd() * 256))), binary: true };
}

/** Every frame of a fuzz run, from the seed alone (so a seed replays exactly). */
export function generateRuns(seed: number, total: number): Run[] {
  const rnd = createRandom(seed);
  const runs: Run[] = [];
  let count = 0;
  while (count < total) {
    const frames: Frame[] = [];
    const seq = { n: 0 };
    if (rnd() < 0.8) frames.push(text('init', { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: `fuzz-${runs.length}`, initialSubscriptions: [SESSION, CHAT] } }));
    for (let i = 1 + Math.floor(rnd() * 40); i > 0; i--) frames.push(randomFrame(rnd, seq));
    const run: Run = { frames };
    const end = rnd();
    if (end < 0.15) {
      // Eight bytes of invalid UTF-8 in a text frame (the frame that used to end the host process).
      const bytes = Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xff]);
      run.ender = { frame: { kind: 'badUtf8', data: bytes, binary: false }, code: 1007 };
    } else if (end < 0.25) {
      run.ender = { frame: { kind: 'oversized', data: Buffer.alloc(FRAME_LIMIT + 1 + Math.floor(rnd() * 1024), 0x20), binary: rnd() < 0.5 }, code: 1009 };
    }
    count += frames.length + (run.ender ? 1 : 0);
    runs.push(run);
  }
  return runs;
}

function digest(runs: Run[]): string {
  const h = createHash('sha256');
  for (const run of runs) for (const f of [...run.frames, ...(run.ender ? [run.ender.frame] : [])]) h.update(f.kind).update(f.data);
  return h.digest('hex');
}

interface Stats {
  frames: Record<string, number>;
  closes: Record<string, number>;
  answers: Record<string, number>;
  runs: number;
  completedRuns: number;
  /** Closing frames sent on a live connection, by the close code they got. */
  enders: Record<string, number>;
}

/** Sends one run on a fresh connection; resolves when its closing frame closed it, or its last ping was answered. */
async function play(url: string, run: Run, stats: Stats): Promise<void> {
  const ws = new WebSocket(url);
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('error', () => {}); // a reset while we still write is expected after a 1009
  const ended = new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      let msgs: unknown;
      try {
        msgs = JSON.parse(String(data));
      } catch {
        assert.fail(`the host sent something that is not JSON: ${String(data).slice(0, 200)}`);
      }
      for (const m of Array.isArray(msgs) ? msgs : [msgs]) {
        const msg = m as { id?: unknown; error?: { code: number }; method?: string };
        const key = msg.error ? `error ${msg.error.code}` : msg.method ? `notification ${msg.method}` : 'result';
        stats.answers[key] = (stats.answers[key] ?? 0) + 1;
        if (msg.id === 'fuzz-end') resolve();
      }
    });
    void closed.then(() => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  for (const f of run.frames) {
    stats.frames[f.kind] = (stats.frames[f.kind] ?? 0) + 1;
    ws.send(f.data, { binary: f.binary });
  }
  // The ping's answer proves every frame before it was handled (or the host closed, e.g. after -32005).
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'fuzz-end', method: 'ping' }));
  await ended;
  const open = ws.readyState === ws.OPEN;
  if (open) stats.completedRuns++;
  if (run.ender && open) {
    stats.frames[run.ender.frame.kind] = (stats.frames[run.ender.frame.kind] ?? 0) + 1;
    ws.send(run.ender.frame.data, { binary: run.ender.frame.binary });
    const code = await closed;
    assert.equal(code, run.ender.code, `a ${run.ender.frame.kind} frame closes its connection with ${run.ender.code}`);
    stats.enders[code] = (stats.enders[code] ?? 0) + 1;
  } else ws.close();
  const code = await closed;
  stats.closes[code] = (stats.closes[code] ?? 0) + 1;
  stats.runs++;
}

function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function until<T>(what: string, read: () => T | undefined | false): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`host fuzz over a real WebSocket (seed ${SEED})`, () => {
  let playground: Playground;
  const logLines: string[] = [];

  before(async () => {
    console.log(`host fuzz: seed ${SEED}, ${FRAMES} frames (replay with AHP_FUZZ_SEED=${SEED})`);
    const config = parseConfig({
      servers: [publishedServer('server-everything', 'everything', 'Everything')],
    });
    playground = await startPlayground({ port: 0, config, maxFrameBytes: FRAME_LIMIT, log: (line) => void logLines.push(line) });
    await playground.startServers();
    playground.host.createChat(SESSION, 'ahp-chat:/fuzz-1');
  });
  after(async () => {
    await playground?.close();
  });

  it('a seed generates the same frames every time (a printed seed replays the run)', () => {
    assert.equal(digest(generateRuns(SEED, 500)), digest(generateRuns(SEED, 500)));
    assert.notEqual(digest(generateRuns(SEED, 500)), digest(generateRuns(SEED + 1, 500)));
  });

  it(`survives ${FRAMES} random frames; every bad or oversized frame closes only its connection (1007 / 1009)`, async (t) => {
    const runs = generateRuns(SEED, FRAMES);
    const stats: Stats = { frames: {}, closes: {}, answers: {}, enders: {}, runs: 0, completedRuns: 0 };
    const heapBefore = heapAfterGc();
    // A bystander connection that never misbehaves must see the whole fuzz through.
    const bystander = connectSession({ url: playground.wsUrl, session: SESSION, WebSocket: WebSocket as never, reconnect: false });
    t.after(() => bystander.close());
    await bystander.ready;
    let bystanderClosed = false;
    bystander.handle.subscribeConnection((s) => void (bystanderClosed ||= s.kind === 'closed'));
    // Two connections at a time: enough to interleave, little enough for a shared machine.
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        while (next < runs.length) await play(playground.wsUrl, runs[next++]!, stats);
      }),
    );
    const sent = Object.values(stats.frames).reduce((a, b) => a + b, 0);
    console.log(`host fuzz: ${sent} frames on ${stats.runs} connections`, JSON.stringify(stats));
    assert.ok(sent >= FRAMES * 0.95, `sent ${sent} frames`);
    assert.equal(stats.enders[1007], stats.frames.badUtf8, 'every invalid UTF-8 frame closed its connection with 1007');
    assert.equal(stats.enders[1009], stats.frames.oversized, 'every oversized frame closed its connection with 1009');
    assert.ok((stats.frames.badUtf8 ?? 0) > 10 && (stats.frames.oversized ?? 0) > 10);
    assert.ok((stats.answers['error -32700'] ?? 0) >= (stats.frames.truncated ?? 0) * 0.5, 'truncated JSON is answered with -32700');
    assert.ok(stats.completedRuns > 0);
    assert.equal(bystanderClosed, false, 'the bystander connection stayed open');
    await bystander.client.ping();
    bystander.close();
    const heapAfter = heapAfterGc();
    console.log(`host fuzz: heap ${(heapBefore / 2 ** 20).toFixed(1)} MiB before, ${(heapAfter / 2 ** 20).toFixed(1)} MiB after`);
    assert.ok(heapAfter - heapBefore < 128 * 2 ** 20, `heap grew by ${((heapAfter - heapBefore) / 2 ** 20).toFixed(1)} MiB`);
  });

  it('afterwards a normal client initializes, subscribes, toggles a server and completes a tool call', async (t) => {
    const conn = connectSession({ url: playground.wsUrl, session: SESSION, WebSocket: WebSocket as never });
    t.after(() => conn.close());
    const failures: unknown[] = [];
    conn.store.onActionFailed((f) => failures.push(f));
    await conn.ready;
    const server = () => conn.store.getConfirmedState()?.customizations?.find((c) => c.id === 'everything') as { state?: { kind: string }; enablement?: { enabled: boolean }[] } | undefined;
    const enabled = () => server()?.enablement?.[0]?.enabled ?? true;
    // Off and on again: a real stop and start of the stdio server.
    for (const value of enabled() ? [false, true] : [true]) {
      conn.store.dispatch({ type: 'session/customizationToggled', id: 'everything', enablement: [{ kind: 'global', enabled: value }] });
      await until(`everything enabled=${value}`, () => enabled() === value);
      await until(`everything ${value ? 'ready' : 'stopped'}`, () => server()?.state?.kind === (value ? 'ready' : 'stopped'));
    }
    const chat = `ahp-chat:/after-fuzz-${randomUUID()}`;
    await conn.client.request('createChat', { channel: SESSION, chat });
    conn.store.watchChat(chat);
    await until('the new chat', () => conn.store.getChatState(chat));
    const turnId = randomUUID();
    conn.store.dispatch({ type: 'chat/turnStarted', turnId, startedAt: new Date().toISOString(), message: { text: '/call everything get-sum {"a":1,"b":2}', origin: { kind: 'user' } } }, chat);
    const turn = await until('the tool-call turn to end', () => conn.store.getChatState(chat)?.turns.find((t) => t.id === turnId));
    const tc = turn.responseParts.flatMap((p) => (p.kind === 'toolCall' ? [p.toolCall as ToolCallState] : []))[0];
    assert.equal(tc?.status, 'completed', JSON.stringify(turn).slice(0, 1000));
    assert.deepEqual(failures, []);
  });
});

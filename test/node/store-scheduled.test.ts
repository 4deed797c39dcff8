// SessionStore with `scheduleNotify` (what `<ahp-session>` uses: listeners hear of received envelopes once per
// frame): whatever the interleaving of envelopes, frames, reads, dispatches, echoes and listeners coming and going,
// every read equals the plain store that folds each envelope at once, a listener is woken at most once per frame and
// only for a state it has not seen, and after every frame (and every dispatch) each listener has seen the current
// state: no change goes untold. The seed is printed so a failure can be replayed (AHP_FUZZ_SEED).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionEnvelope, AnyAction, ChatState, McpServerCustomization, SessionState } from '../../src/protocol/index.js';
import { findMcpServer, sessionReducer } from '../../src/reducers/index.js';
import { SessionStore } from '../../src/store/index.js';
import { createRandom, initialFuzzChat, initialFuzzSession, randomChatDispatch, randomChatStream, randomGarbage, randomSessionAction, randomSessionDispatch } from './fuzz-helpers.js';
import { sessionWithServers, w3ServerStates } from '../bench/workloads.js';
import { chatReducersLoading } from '../../src/store/chat-reducers-lazy.js';

// The store loads the chat reducers on the first watched chat; these tests read a chat right after its snapshot, so
// they wait for the reducers once, first (store-lazy-chat-*.test.ts test the waiting itself).
before(() => chatReducersLoading());

const SESSION = 'ahp-session:/scheduled';
const CHAT = 'ahp-chat:/scheduled';
const SESSION_SNAPSHOT = { provider: 'p', title: 't', status: 1, lifecycle: 'ready', activeClients: [], chats: [] } as unknown as SessionState;

/** A store whose notifications wait for `frame()`; `scheduled` counts the flushes it asked for. */
function scheduledStore() {
  let seq = 0;
  let flushes: (() => void)[] = [];
  const frames = { scheduled: 0 };
  const store = new SessionStore({
    channel: SESSION,
    clientId: 'me',
    send: () => {},
    nextClientSeq: () => ++seq,
    pendingTimeoutMs: 3_600_000,
    scheduleNotify: (flush) => {
      frames.scheduled++;
      flushes.push(flush);
    },
  });
  const frame = () => {
    const now = flushes;
    flushes = [];
    for (const f of now) f();
  };
  return { store, frame, frames };
}

function plainStore(): SessionStore {
  let seq = 0;
  return new SessionStore({ channel: SESSION, clientId: 'me', send: () => {}, nextClientSeq: () => ++seq, pendingTimeoutMs: 3_600_000 });
}

type Op =
  | { kind: 'env'; env: ActionEnvelope }
  | { kind: 'envs'; envs: ActionEnvelope[] }
  | { kind: 'dispatch'; action: AnyAction }
  | { kind: 'echo' }
  | { kind: 'read' }
  | { kind: 'frame' }
  | { kind: 'listen' }
  | { kind: 'unlisten' };

interface Listener {
  /** The view identity this listener last heard of (at a wake-up, or when it subscribed: subscribing catches up). */
  seen: unknown;
  wakesThisFrame: number;
  off: () => void;
}

function compare(channel: string, initial: SessionState | ChatState, ops: Op[], where: string, serverIds: string[]): { wakeUps: number; frames: number } {
  const isChat = channel !== SESSION;
  const eager = plainStore();
  const { store: lazy, frame } = scheduledStore();
  for (const s of [eager, lazy]) {
    s.loadSnapshot({ resource: SESSION, state: (isChat ? SESSION_SNAPSHOT : initial) as SessionState, fromSeq: 0 });
    if (isChat) {
      s.watchChat(CHAT);
      s.loadSnapshot({ resource: CHAT, state: initial as SessionState, fromSeq: 0 });
    }
  }
  const read = (s: SessionStore) => (isChat ? s.getChatState(CHAT) : s.getState());
  const listen = (s: SessionStore, l: () => void) => (isChat ? s.subscribeChat(CHAT, l) : s.subscribe(l));
  listen(eager, () => {});
  const listeners: Listener[] = [];
  // Server watchers (session runs): each must end every frame holding the server the current state has.
  const servers = new Map<string, { last: McpServerCustomization | undefined; wakes: number }>();
  if (!isChat) {
    for (const id of serverIds) {
      const w = { last: findMcpServer(lazy.getState(), id), wakes: 0 };
      servers.set(id, w);
      lazy.subscribeMcpServer(id, (server) => {
        w.wakes++;
        assert.notEqual(server, w.last, `${where}: server watcher ${id} woken without a change`);
        w.last = server;
      });
    }
  }
  let wakeUps = 0;
  let frames = 0;
  const allTold = (at: string) => {
    const now = read(lazy);
    for (const [k, l] of listeners.entries()) assert.equal(l.seen, now, `${where}: listener ${k} has not heard of the state ${at}`);
    for (const [id, w] of servers) {
      // By value: a rebuilt server object that renders the same wakes nobody (sameServer).
      assert.deepStrictEqual(w.last, findMcpServer(lazy.getState(), id), `${where}: server watcher ${id} is behind ${at}`);
    }
  };
  const pendingSeqs: number[] = [];
  for (const [i, op] of ops.entries()) {
    switch (op.kind) {
      case 'env':
        eager.receive(op.env);
        lazy.receive(op.env);
        break;
      case 'envs':
        eager.receiveAll(op.envs);
        lazy.receiveAll(op.envs);
        break;
      case 'dispatch': {
        let seq: number | undefined;
        for (const s of [eager, lazy]) {
          try {
            seq = s.dispatch(op.action, isChat ? CHAT : undefined);
          } catch {
            seq = undefined;
          }
        }
        if (seq !== undefined) pendingSeqs.push(seq);
        // A dispatch is told at once, with everything received before it.
        allTold(`after the dispatch at op ${i}`);
        break;
      }
      case 'echo': {
        const seq = pendingSeqs.shift();
        if (seq === undefined) break;
        const env: ActionEnvelope = { channel, serverSeq: eager.getCursor(channel) + 1, action: { type: 'x-vendor/echo' } as unknown as AnyAction, origin: { clientId: 'me', clientSeq: seq } };
        eager.receive(env);
        lazy.receive(env);
        break;
      }
      case 'read':
        assert.deepStrictEqual(read(lazy), read(eager), `${where}: read after op ${i}`);
        assert.equal(lazy.getCursor(channel), eager.getCursor(channel));
        assert.equal(lazy.getPendingCount(), eager.getPendingCount());
        break;
      case 'frame':
        frames++;
        for (const l of listeners) l.wakesThisFrame = 0;
        for (const w of servers.values()) w.wakes = 0;
        frame();
        for (const [k, l] of listeners.entries()) assert.ok(l.wakesThisFrame <= 1, `${where}: listener ${k} woken ${l.wakesThisFrame} times in one frame`);
        for (const [id, w] of servers) assert.ok(w.wakes <= 1, `${where}: server watcher ${id} woken ${w.wakes} times in one frame`);
        allTold(`after the frame at op ${i}`);
        break;
      case 'listen': {
        const l: Listener = { seen: undefined, wakesThisFrame: 0, off: () => {} };
        l.off = listen(lazy, () => {
          wakeUps++;
          l.wakesThisFrame++;
          const now = read(lazy);
          assert.notEqual(now, l.seen, `${where}: listener added at op ${i} woken for a state it had seen`);
          assert.deepStrictEqual(now, read(eager), `${where}: state seen by a listener at op ${i}`);
          l.seen = now;
        });
        l.seen = read(lazy);
        listeners.push(l);
        break;
      }
      case 'unlisten':
        listeners.shift()?.off();
        break;
    }
  }
  frame();
  allTold('at the end');
  assert.deepStrictEqual(read(lazy), read(eager), `${where}: final state`);
  return { wakeUps, frames };
}

/** Envelopes (some overlapping, some rejected, some in `receiveAll` bursts) with frames, reads, dispatches, echoes and listeners in between. */
function randomOps(rnd: () => number, channel: string, actions: unknown[], dispatchable: () => AnyAction | undefined): Op[] {
  const ops: Op[] = [{ kind: 'listen' }];
  let seq = 0;
  const env = (action: unknown): ActionEnvelope => {
    const r = rnd();
    if (r < 0.05 && seq > 3) return { channel, serverSeq: seq - Math.floor(rnd() * 3), action: action as AnyAction };
    if (r < 0.08) return { channel, serverSeq: ++seq, action: action as AnyAction, rejectionReason: 'no' };
    return { channel, serverSeq: ++seq, action: action as AnyAction };
  };
  for (let i = 0; i < actions.length; i++) {
    if (rnd() < 0.1) {
      const n = 1 + Math.floor(rnd() * 6);
      ops.push({ kind: 'envs', envs: actions.slice(i, i + n).map(env) });
      i += n - 1;
    } else ops.push({ kind: 'env', env: env(actions[i]) });
    const x = rnd();
    if (x < 0.15) ops.push({ kind: 'frame' });
    else if (x < 0.2) ops.push({ kind: 'read' });
    else if (x < 0.23) {
      const a = dispatchable();
      if (a) ops.push({ kind: 'dispatch', action: a });
    } else if (x < 0.26) ops.push({ kind: 'echo' });
    else if (x < 0.28) ops.push({ kind: 'listen' });
    else if (x < 0.295) ops.push({ kind: 'unlisten' });
  }
  ops.push({ kind: 'read' });
  return ops;
}

describe('SessionStore with scheduleNotify: listeners hear of received envelopes once per frame', () => {
  it('session: reads equal the eager store; each listener and server watcher is woken at most once per frame, only for news, and none is behind after a frame', () => {
    const seed = Number(process.env.AHP_FUZZ_SEED ?? Date.now() % 2 ** 31);
    console.log(`scheduled session seed: ${seed}`);
    const rnd = createRandom(seed);
    let wakeUps = 0;
    let frames = 0;
    for (let run = 0; run < 6; run++) {
      const actions = Array.from({ length: 2000 }, () => (rnd() < 0.85 ? randomSessionAction(rnd) : randomGarbage(rnd)));
      const dispatchable = () => randomSessionDispatch(rnd);
      const r = compare(SESSION, initialFuzzSession(), randomOps(rnd, SESSION, actions, dispatchable), `seed ${seed} run ${run}`, ['s1', 'c-s1', 's2']);
      wakeUps += r.wakeUps;
      frames += r.frames;
    }
    assert.ok(wakeUps > 100 && frames > 100, `the runs woke listeners (${wakeUps}) over frames (${frames})`);
  });

  it('chat: reads equal the eager store; each listener is woken at most once per frame, only for news, and none is behind after a frame', () => {
    const seed = Number(process.env.AHP_FUZZ_SEED ?? (Date.now() + 7) % 2 ** 31);
    console.log(`scheduled chat seed: ${seed}`);
    const rnd = createRandom(seed);
    for (let run = 0; run < 6; run++) {
      const { actions, state } = randomChatStream(rnd, 0.85);
      const dispatchable = () => randomChatDispatch(rnd, state);
      compare(CHAT, initialFuzzChat(), randomOps(rnd, CHAT, actions, dispatchable), `seed ${seed} run ${run}`, []);
    }
  });

  it('a frame of envelopes is folded once and wakes the session listener once and exactly the watchers of the servers that changed', () => {
    const { store, frame, frames } = scheduledStore();
    store.loadSnapshot({ resource: SESSION, state: sessionWithServers(100), fromSeq: 0 });
    let reads = 0;
    store.subscribe(() => void (store.getState() && reads++));
    const woken = new Map<string, number>();
    for (let i = 0; i < 100; i++) store.subscribeMcpServer(`srv-${i}`, () => woken.set(`srv-${i}`, (woken.get(`srv-${i}`) ?? 0) + 1));
    const actions = w3ServerStates(100, 64).actions;
    actions.forEach((action, i) => store.receive({ channel: SESSION, serverSeq: i + 1, action }));
    assert.equal(reads, 0, 'nobody is told before the frame');
    assert.equal(woken.size, 0);
    assert.equal(frames.scheduled, 1, 'one flush asked for the whole frame');
    frame();
    assert.equal(reads, 1);
    const expected = actions.reduce((st, a) => sessionReducer(st, a), sessionWithServers(100));
    assert.deepStrictEqual(store.getState(), expected);
    const before = sessionWithServers(100);
    const changed = Array.from({ length: 100 }, (_, i) => `srv-${i}`).filter((id) => JSON.stringify(findMcpServer(expected, id)) !== JSON.stringify(findMcpServer(before, id)));
    assert.ok(changed.length > 10);
    assert.deepStrictEqual([...woken.keys()].sort(), changed.sort(), 'exactly the watchers of the servers that changed');
    for (const n of woken.values()) assert.equal(n, 1, 'each changed server watcher once');
    // One server change in the next frame wakes exactly its watcher.
    woken.clear();
    store.receive({ channel: SESSION, serverSeq: 65, action: { type: 'session/mcpServerStateChanged', id: 'srv-42', state: { kind: 'error', message: 'x' } } as AnyAction });
    frame();
    assert.deepStrictEqual([...woken], [['srv-42', 1]]);
    assert.equal(reads, 2);
    assert.equal(frames.scheduled, 2);
  });

  it('a listener that feeds its own channel during a flush is told of that in the same flush, and later frames still come', () => {
    const { store, frame } = scheduledStore();
    store.loadSnapshot({ resource: SESSION, state: SESSION_SNAPSHOT, fromSeq: 0 });
    store.watchChat(CHAT);
    store.loadSnapshot({ resource: CHAT, state: initialFuzzChat() as unknown as SessionState, fromSeq: 0 });
    const heard: string[] = [];
    store.subscribeChat(CHAT, () => {
      const dir = store.getChatState(CHAT)?.workingDirectories?.at(-1);
      heard.push(`chat:${dir}`);
      if (dir === 'one') store.receive({ channel: CHAT, serverSeq: 2, action: { type: 'chat/workingDirectorySet', directory: 'two' } as AnyAction });
    });
    store.subscribe(() => heard.push(`session:${store.getState()?.title}`));
    // The chat is due first, the session second: the chat's listener feeds the chat while the session is still due.
    store.receive({ channel: CHAT, serverSeq: 1, action: { type: 'chat/workingDirectorySet', directory: 'one' } as AnyAction });
    store.receive({ channel: SESSION, serverSeq: 1, action: { type: 'session/titleChanged', title: 's1' } as AnyAction });
    frame();
    assert.deepStrictEqual(heard, ['chat:one', 'session:s1', 'chat:two']);
    store.receive({ channel: SESSION, serverSeq: 2, action: { type: 'session/titleChanged', title: 's2' } as AnyAction });
    frame();
    assert.deepStrictEqual(heard, ['chat:one', 'session:s1', 'chat:two', 'session:s2'], 'the next frame came');
  });

  it('a listener that subscribes while a frame is due: the others hear of the change first, it only of later ones', () => {
    const { store, frame } = scheduledStore();
    store.loadSnapshot({ resource: SESSION, state: sessionWithServers(5), fromSeq: 0 });
    const heard: string[] = [];
    store.subscribe(() => heard.push(`early:${store.getState()?.title}`));
    store.receive({ channel: SESSION, serverSeq: 1, action: { type: 'session/titleChanged', title: 'one' } as AnyAction });
    store.subscribe(() => heard.push(`late:${store.getState()?.title}`));
    assert.deepStrictEqual(heard, ['early:one'], 'the early listener heard when the late one subscribed');
    frame();
    assert.deepStrictEqual(heard, ['early:one'], 'nothing new for anyone at the frame');
    store.receive({ channel: SESSION, serverSeq: 2, action: { type: 'session/titleChanged', title: 'two' } as AnyAction });
    frame();
    assert.deepStrictEqual(heard, ['early:one', 'early:two', 'late:two']);
  });
});

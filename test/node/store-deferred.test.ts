// A channel nobody listens to folds its envelopes only when its state is read (SessionStore.receive defers them):
// whatever the interleaving of envelopes, reads, dispatches, echoes and listeners coming and going, every read must
// equal the plain store that folds each envelope at once (kept eager by a listener), and a state once handed out
// must never change afterwards. The seed is printed so a failure can be replayed (AHP_FUZZ_SEED).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionEnvelope, AnyAction, ChatState, McpServerCustomization, SessionState } from '../../src/protocol/index.js';
import { findMcpServer, sessionReducer } from '../../src/reducers/index.js';
import { ChannelReconciler, MAX_DEFERRED, SessionStore } from '../../src/store/index.js';
import { createRandom, initialFuzzChat, initialFuzzSession, randomChatDispatch, randomChatStream, randomGarbage, randomSessionAction, randomSessionDispatch } from './fuzz-helpers.js';
import { sessionWithServers, w3ServerStates } from '../bench/workloads.js';

const SESSION = 'ahp-session:/deferred';
const CHAT = 'ahp-chat:/deferred';
const SESSION_SNAPSHOT = { provider: 'p', title: 't', status: 1, lifecycle: 'ready', activeClients: [], chats: [] } as unknown as SessionState;

function makeStore(): SessionStore {
  let seq = 0;
  return new SessionStore({ channel: SESSION, clientId: 'me', send: () => {}, nextClientSeq: () => ++seq, pendingTimeoutMs: 3_600_000 });
}

/** Handed-out states with a copy taken when they were handed out: `check()` fails when any of them changed since. */
function handedOut() {
  const seen: { state: unknown; copy: unknown; where: string }[] = [];
  return {
    add(state: unknown, where: string) {
      if (state !== undefined) seen.push({ state, copy: structuredClone(state), where });
    },
    check() {
      for (const s of seen) assert.deepStrictEqual(s.state, s.copy, `a state handed out (${s.where}) changed afterwards`);
    },
  };
}

type Op = { kind: 'env'; env: ActionEnvelope } | { kind: 'dispatch'; action: AnyAction } | { kind: 'echo' } | { kind: 'read' } | { kind: 'listen' } | { kind: 'unlisten' };

/**
 * Runs the same operations on an eager store (a listener on the channel from the start) and on a store with
 * listeners coming and going (deferring whenever none is there); compares them at every read and at the end.
 */
function compareStores(channel: string, initial: SessionState | ChatState, ops: Op[], where: string): { reads: number; wakeUps: number } {
  const isChat = channel !== SESSION;
  const eager = makeStore();
  const lazy = makeStore();
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
  const out = handedOut();
  let wakeUps = 0;
  let reads = 0;
  // Each listener of the lazy store has a twin on the eager store, subscribed and removed at the same time: both must be woken alike.
  const offs: (() => void)[] = [];
  const twins: { lazy: number; eager: number }[] = [];
  const sameWakeUps = (at: string) => {
    for (const [k, t] of twins.entries()) assert.equal(t.lazy, t.eager, `${where}: wake-ups of listener ${k} ${at}`);
  };
  const pendingSeqs: number[] = [];
  for (const [i, op] of ops.entries()) {
    switch (op.kind) {
      case 'env':
        eager.receive(op.env);
        lazy.receive(op.env);
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
      case 'read': {
        reads++;
        const got = read(lazy);
        assert.deepStrictEqual(got, read(eager), `${where}: read after op ${i}`);
        assert.deepStrictEqual(isChat ? undefined : lazy.getConfirmedState(), isChat ? undefined : eager.getConfirmedState(), `${where}: confirmed after op ${i}`);
        assert.equal(lazy.getCursor(channel), eager.getCursor(channel));
        assert.equal(lazy.getPendingCount(), eager.getPendingCount());
        out.add(got, `${where} op ${i}`);
        sameWakeUps(`at op ${i}`);
        break;
      }
      case 'listen': {
        const t = { lazy: 0, eager: 0 };
        twins.push(t);
        const offLazy = listen(lazy, () => {
          t.lazy++;
          wakeUps++;
          const now = read(lazy);
          assert.deepStrictEqual(now, read(eager), `${where}: state seen by a listener at op ${i}`);
          out.add(now, `${where} listener at op ${i}`);
        });
        const offEager = listen(eager, () => t.eager++);
        offs.push(() => {
          offLazy();
          offEager();
        });
        break;
      }
      case 'unlisten':
        offs.shift()?.();
        break;
    }
  }
  assert.deepStrictEqual(read(lazy), read(eager), `${where}: final state`);
  sameWakeUps('at the end');
  out.check();
  return { reads, wakeUps };
}

/** Wraps actions into envelopes of `channel` with overlap (old serverSeqs), rejected envelopes and reads, dispatches, echoes and listeners in between. */
function randomOps(rnd: () => number, channel: string, actions: unknown[], dispatchable: () => AnyAction | undefined): Op[] {
  const ops: Op[] = [];
  let seq = 0;
  for (const action of actions) {
    const r = rnd();
    if (r < 0.05 && seq > 3) ops.push({ kind: 'env', env: { channel, serverSeq: seq - Math.floor(rnd() * 3), action: action as AnyAction } });
    else if (r < 0.08) ops.push({ kind: 'env', env: { channel, serverSeq: ++seq, action: action as AnyAction, rejectionReason: 'no' } });
    else ops.push({ kind: 'env', env: { channel, serverSeq: ++seq, action: action as AnyAction } });
    const x = rnd();
    if (x < 0.1) ops.push({ kind: 'read' });
    else if (x < 0.13) {
      const a = dispatchable();
      if (a) ops.push({ kind: 'dispatch', action: a });
    } else if (x < 0.16) ops.push({ kind: 'echo' });
    else if (x < 0.18) ops.push({ kind: 'listen' });
    else if (x < 0.2) ops.push({ kind: 'unlisten' });
  }
  ops.push({ kind: 'read' });
  return ops;
}

describe('SessionStore: deferred folding while nobody listens', () => {
  it('session: every read equals the eager store, listeners see every later change, handed-out states never change', () => {
    const seed = Number(process.env.AHP_FUZZ_SEED ?? Date.now() % 2 ** 31);
    console.log(`deferred session seed: ${seed}`);
    const rnd = createRandom(seed);
    let reads = 0;
    let wakeUps = 0;
    for (let run = 0; run < 6; run++) {
      // Long runs of unread envelopes pass MAX_DEFERRED, so the bounded fold is covered too.
      const actions = Array.from({ length: 2500 }, () => (rnd() < 0.85 ? randomSessionAction(rnd) : randomGarbage(rnd)));
      const dispatchable = () => randomSessionDispatch(rnd);
      const r = compareStores(SESSION, initialFuzzSession(), randomOps(rnd, SESSION, actions, dispatchable), `seed ${seed} run ${run}`);
      reads += r.reads;
      wakeUps += r.wakeUps;
    }
    assert.ok(reads > 100 && wakeUps > 100, `the runs read (${reads}) and woke listeners (${wakeUps})`);
  });

  it('chat: every read equals the eager store, handed-out states never change', () => {
    const seed = Number(process.env.AHP_FUZZ_SEED ?? (Date.now() + 7) % 2 ** 31);
    console.log(`deferred chat seed: ${seed}`);
    const rnd = createRandom(seed);
    for (let run = 0; run < 6; run++) {
      const { actions, state } = randomChatStream(rnd, 0.85);
      const dispatchable = () => randomChatDispatch(rnd, state);
      compareStores(CHAT, initialFuzzChat(), randomOps(rnd, CHAT, actions, dispatchable), `seed ${seed} run ${run}`);
    }
  });

  it('a listener or server watcher added after unread envelopes is not woken for them, and is for the next change', () => {
    const s = makeStore();
    s.loadSnapshot({ resource: SESSION, state: sessionWithServers(50), fromSeq: 0 });
    const actions = w3ServerStates(50, 499).actions;
    actions.forEach((action, i) => s.receive({ channel: SESSION, serverSeq: i + 1, action }));
    let changes = 0;
    const seen: (McpServerCustomization | undefined)[] = [];
    s.subscribe(() => changes++);
    // An envelope that changes nothing: the listener came after the unread ones and must not hear of them now.
    s.receive({ channel: SESSION, serverSeq: 500, action: { type: 'x-vendor/nothing' } as unknown as AnyAction });
    s.subscribeMcpServer('srv-7', (server) => seen.push(server));
    assert.equal(changes, 0);
    assert.equal(seen.length, 0);
    const expected = actions.reduce((st, a) => sessionReducer(st, a), sessionWithServers(50));
    assert.deepStrictEqual(s.getState(), expected);
    s.receive({ channel: SESSION, serverSeq: 501, action: { type: 'session/mcpServerStateChanged', id: 'srv-7', state: { kind: 'error', message: 'x' } } as AnyAction });
    assert.equal(changes, 1);
    assert.equal(seen.length, 1);
    assert.deepStrictEqual(seen[0]?.state, { kind: 'error', message: 'x' });
    assert.equal(seen[0], findMcpServer(s.getState(), 'srv-7'));
  });

  it('ChannelReconciler.receive(env, true) folds what waits as one burst on read or at MAX_DEFERRED, and not before', () => {
    const folds: number[] = [];
    const rec = new ChannelReconciler<SessionState>({
      channel: SESSION,
      clientId: 'me',
      reducer: sessionReducer,
      fold: (state, actions) => {
        folds.push(actions.length);
        return actions.reduce(sessionReducer, state);
      },
      pendingTimeoutMs: 3_600_000,
      onTimeout: () => {},
    });
    rec.loadSnapshot({ resource: SESSION, state: sessionWithServers(10), fromSeq: 0 });
    const actions = w3ServerStates(10, MAX_DEFERRED + 10).actions;
    actions.forEach((action, i) => rec.receive({ channel: SESSION, serverSeq: i + 1, action }, true));
    assert.deepStrictEqual(folds, [MAX_DEFERRED], 'one fold when MAX_DEFERRED waited, nothing for the rest yet');
    assert.equal(rec.getCursor(), MAX_DEFERRED + 10, 'the cursor moves at once');
    assert.deepStrictEqual(rec.getConfirmedState(), actions.reduce(sessionReducer, sessionWithServers(10)));
    assert.deepStrictEqual(folds, [MAX_DEFERRED, 10]);
    assert.equal(rec.refresh().changed, true);
    assert.deepStrictEqual(folds, [MAX_DEFERRED, 10], 'nothing left to fold');
    // Not deferring (someone listens) applies at once, after whatever still waits.
    rec.receive({ channel: SESSION, serverSeq: MAX_DEFERRED + 11, action: { type: 'session/titleChanged', title: 'a' } as AnyAction }, true);
    rec.receive({ channel: SESSION, serverSeq: MAX_DEFERRED + 12, action: { type: 'session/titleChanged', title: 'b' } as AnyAction });
    assert.deepStrictEqual(folds, [MAX_DEFERRED, 10, 2]);
    assert.equal(rec.getConfirmedState()?.title, 'b');
  });

  it('ChannelReconciler.receive(env) without defer reduces the action alone (no burst fold) when nothing waits', () => {
    const folds: number[] = [];
    let reduced = 0;
    const rec = new ChannelReconciler<SessionState>({
      channel: SESSION,
      clientId: 'me',
      reducer: (state, action) => (reduced++, sessionReducer(state, action)),
      fold: (state, actions) => {
        folds.push(actions.length);
        return actions.reduce(sessionReducer, state);
      },
      pendingTimeoutMs: 3_600_000,
      onTimeout: () => {},
    });
    const initial = sessionWithServers(3);
    rec.loadSnapshot({ resource: SESSION, state: initial, fromSeq: 0 });
    assert.equal(rec.refresh().changed, true);
    rec.receive({ channel: SESSION, serverSeq: 1, action: { type: 'session/titleChanged', title: 'a' } as AnyAction });
    rec.receive({ channel: SESSION, serverSeq: 2, action: { type: 'session/mcpServerStateChanged', id: 'srv-1', state: { kind: 'stopped' } } as AnyAction });
    assert.deepStrictEqual(folds, [], 'no fold for actions applied one at a time');
    assert.equal(reduced, 2);
    const applied = rec.getConfirmedState()!;
    assert.equal(applied.title, 'a');
    assert.deepStrictEqual(findMcpServer(applied, 'srv-1')?.state, { kind: 'stopped' });
    assert.equal(rec.refresh().changed, true);
    // An action that changes nothing keeps the state object: nobody is told of a change.
    rec.receive({ channel: SESSION, serverSeq: 3, action: { type: 'session/noSuchAction' } as AnyAction });
    assert.equal(rec.getConfirmedState(), applied);
    assert.equal(rec.refresh().changed, false);
    // Overlap and rejected envelopes move nothing and reduce nothing.
    rec.receive({ channel: SESSION, serverSeq: 2, action: { type: 'session/titleChanged', title: 'old' } as AnyAction });
    rec.receive({ channel: SESSION, serverSeq: 4, action: { type: 'session/titleChanged', title: 'no' } as AnyAction, rejectionReason: 'denied' } as ActionEnvelope);
    assert.equal(reduced, 3);
    assert.equal(rec.getConfirmedState(), applied);
    assert.equal(rec.getCursor(), 4);
    assert.equal(initial.title, 'Bench', 'the snapshot state is never changed');
  });
});

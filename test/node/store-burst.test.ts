import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionEnvelope, AnyAction, ChatState, McpServerCustomization } from '../../src/protocol/index.js';
import { chatReducer, findMcpServer } from '../../src/reducers/index.js';
import { SessionStore, selectToolCall } from '../../src/store/index.js';
import { sessionWithServers, w3ServerStates } from '../bench/workloads.js';

const SESSION = 'ahp-session:/burst';
const CHAT = 'ahp-chat:/burst';

function store() {
  let seq = 0;
  const s = new SessionStore({ channel: SESSION, clientId: 'me', send: () => {}, nextClientSeq: () => ++seq, pendingTimeoutMs: 60_000 });
  s.loadSnapshot({ resource: SESSION, state: sessionWithServers(300), fromSeq: 1 });
  const seen = new Map<string, McpServerCustomization | undefined>();
  let wakeUps = 0;
  for (let i = 0; i < 300; i += 7) {
    const id = `srv-${i}`;
    s.subscribeMcpServer(id, (server) => {
      wakeUps++;
      seen.set(id, server);
    });
  }
  let changes = 0;
  s.subscribe(() => changes++);
  return { s, seen, wakeUps: () => wakeUps, changes: () => changes };
}

describe('SessionStore.receiveAll', () => {
  const actions = w3ServerStates(300, 2000).actions;
  const envs: ActionEnvelope[] = actions.map((action, i) => ({ channel: SESSION, serverSeq: 2 + i, action }));
  // Overlap, a rejected envelope and one for another channel are handled inside a burst as `receive` handles them.
  envs.splice(500, 0, { channel: SESSION, serverSeq: 100, action: actions[0]! });
  envs.push({ channel: SESSION, serverSeq: 99_999, action: { type: 'session/titleChanged', title: 'rejected' } as AnyAction, rejectionReason: 'no' });
  envs.push({ channel: 'ahp-session:/other', serverSeq: 100_000, action: { type: 'session/titleChanged', title: 'other' } as AnyAction });

  it('ends in the same state, cursor and per-server values as receiving one at a time, telling listeners once', () => {
    const one = store();
    for (const env of envs) one.s.receive(env);
    const all = store();
    all.s.receiveAll(envs.slice(0, 700));
    all.s.receiveAll(envs.slice(700));
    assert.deepStrictEqual(all.s.getState(), one.s.getState());
    assert.equal(all.s.getState()?.title, 'Bench');
    assert.equal(all.s.getCursor(), one.s.getCursor());
    assert.equal(all.changes(), 2);
    const initial = sessionWithServers(300);
    for (const [id, server] of one.seen) {
      assert.deepStrictEqual(findMcpServer(all.s.getState(), id), server, id);
      // A server whose state ends where it started is not news; every other one woke its watcher with its final value.
      if (all.seen.has(id)) assert.deepStrictEqual(all.seen.get(id), findMcpServer(all.s.getState(), id), id);
      else assert.deepStrictEqual(server, findMcpServer(initial, id), id);
    }
    assert.ok(all.wakeUps() > 0 && all.wakeUps() <= 2 * all.seen.size, `at most one wake-up per watched server and burst (${all.wakeUps()})`);
  });

  it('ignores garbage bursts and garbage envelopes in them', () => {
    const t = store();
    const before = t.s.getState();
    t.s.receiveAll('nope' as never);
    t.s.receiveAll([null, 3, { channel: 7 }] as never);
    assert.equal(t.s.getState(), before);
    assert.equal(t.changes(), 0);
  });
});

describe('tool-call index across turn ends', () => {
  const start = (turnId: string, toolCallId: string, displayName: string): AnyAction =>
    ({ type: 'chat/toolCallStart', turnId, toolCallId, toolName: 't', displayName }) as AnyAction;
  const turn = (s: ChatState, turnId: string, calls: [string, string][]): ChatState => {
    s = chatReducer(s, { type: 'chat/turnStarted', turnId, startedAt: '2026-01-01T00:00:00.000Z', message: { text: 'go', origin: { kind: 'user' } } } as AnyAction);
    for (const [id, name] of calls) s = chatReducer(s, start(turnId, id, name));
    return chatReducer(s, { type: 'chat/turnComplete', turnId, duration: 1 } as AnyAction);
  };

  it('grows with appended turns and still answers for older states and rewritten histories', () => {
    const s0: ChatState = { resource: CHAT, title: 'c', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] };
    const s1 = turn(s0, 't1', [['a', 'A1'], ['b', 'B1'], ['a', 'A1-dup']]);
    assert.equal(selectToolCall(s1, 'a')?.toolCall.displayName, 'A1');
    const s2 = turn(s1, 't2', [['a', 'A2']]);
    const s3 = turn(s2, 't3', [['c', 'C3']]);
    assert.equal(selectToolCall(s3, 'a')?.toolCall.displayName, 'A2');
    assert.equal(selectToolCall(s3, 'a')?.turnId, 't2');
    assert.equal(selectToolCall(s3, 'a'), selectToolCall(s3, 'a'), 'the same entry object each time');
    // An older state looked up after the index grew sees only its own turns.
    assert.equal(selectToolCall(s1, 'a')?.toolCall.displayName, 'A1');
    assert.equal(selectToolCall(s1, 'c'), undefined);
    // A rewritten history (same first turn, different second) is indexed on its own.
    const rewritten = turn(s1, 't2b', [['c', 'C2b']]);
    assert.equal(selectToolCall(rewritten, 'c')?.toolCall.displayName, 'C2b');
    assert.equal(selectToolCall(rewritten, 'a')?.toolCall.displayName, 'A1');
    assert.equal(selectToolCall(s3, 'c')?.toolCall.displayName, 'C3');
  });
});

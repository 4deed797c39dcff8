// Random-sequence property test: valid, invalid and garbage actions never make a reducer throw,
// and the state stays well formed. The seed is printed so a failure can be replayed (AHP_FUZZ_SEED).
import test from 'node:test';
import assert from 'node:assert/strict';
import { CHAT_ACTION_TYPES, SESSION_ACTION_TYPES, chatReducer, sessionReducer } from '../../src/reducers/index.js';
import type { ChatState, SessionState } from '../../src/protocol/index.js';
import {
  createRandom, pick, randomGarbage, randomSessionAction, initialFuzzSession, initialFuzzChat, randomChatAction, randomChatGarbage,
} from './fuzz-helpers.js';

const STEPS = Number(process.env.AHP_FUZZ_STEPS ?? 100_000);

function assertWellFormedSession(s: SessionState, step: number, seed: number): void {
  const where = `step ${step}, seed ${seed}`;
  assert.equal(typeof s, 'object', where);
  assert.ok(s !== null, where);
  assert.equal(typeof s.status, 'number', `status must stay a number (${where})`);
  assert.ok(Array.isArray(s.chats), `chats must stay an array (${where})`);
  assert.ok(Array.isArray(s.activeClients), `activeClients must stay an array (${where})`);
  if (s.customizations !== undefined) {
    assert.ok(Array.isArray(s.customizations), `customizations must be an array or absent (${where})`);
    for (const c of s.customizations) {
      assert.equal(typeof c?.id, 'string', `customization id (${where})`);
      if (c.type === 'mcpServer') assert.equal(typeof c.state?.kind, 'string', `server state kind (${where})`);
      const children = (c as { children?: unknown }).children;
      if (children !== undefined) assert.ok(Array.isArray(children), `children (${where})`);
    }
  }
  if (s.inputNeeded !== undefined) assert.ok(Array.isArray(s.inputNeeded) && s.inputNeeded.length > 0, `inputNeeded (${where})`);
}

test(`session reducer survives ${STEPS} random actions`, () => {
  const seed = Number(process.env.AHP_FUZZ_SEED ?? Date.now() % 2 ** 31);
  console.log(`session fuzz seed: ${seed} (replay with AHP_FUZZ_SEED=${seed})`);
  const rnd = createRandom(seed);
  let state = initialFuzzSession();
  let changed = 0;
  const effective = new Set<string>();
  for (let step = 0; step < STEPS; step++) {
    const action = rnd() < 0.75 ? randomSessionAction(rnd) : randomGarbage(rnd);
    let next: SessionState;
    try {
      next = sessionReducer(state, action as never);
    } catch (error) {
      assert.fail(`reducer threw at step ${step} (seed ${seed}) on ${JSON.stringify(action)}: ${String(error)}`);
    }
    if (next !== state) {
      changed++;
      effective.add(String((action as { type?: unknown }).type));
    }
    if (step % 97 === 0 || next !== state) assertWellFormedSession(next, step, seed);
    state = next;
    if (rnd() < 0.001) state = initialFuzzSession();
  }
  // A generator that only produced no-ops would prove nothing.
  assert.ok(changed > STEPS / 20, `only ${changed} of ${STEPS} actions changed the state`);
  if (STEPS >= 20_000) {
    for (const type of ['session/chatsReordered', 'session/artifactSet', 'session/artifactRemoved', 'session/customizationToggled', 'session/mcpServerBackgroundRequested']) {
      assert.ok(effective.has(type), `'${type}' never changed the state (seed ${seed})`);
    }
  }
  void pick;
  void SESSION_ACTION_TYPES;
});

function assertWellFormedToolCalls(parts: unknown, where: string, statuses: Set<string>): void {
  assert.ok(Array.isArray(parts), `responseParts must be an array (${where})`);
  for (const p of parts as unknown[]) {
    assert.ok(typeof p === 'object' && p !== null, `response part must be an object (${where})`);
    const part = p as { kind?: unknown; toolCall?: { status?: unknown; toolCallId?: unknown } };
    assert.equal(typeof part.kind, 'string', `response part kind (${where})`);
    if (part.kind !== 'toolCall') continue;
    assert.equal(typeof part.toolCall?.status, 'string', `tool call status (${where})`);
    assert.equal(typeof part.toolCall?.toolCallId, 'string', `tool call id (${where})`);
    statuses.add(part.toolCall!.status as string);
  }
}

function assertWellFormedChat(s: ChatState, where: string, statuses: Set<string>): void {
  assert.ok(typeof s === 'object' && s !== null, where);
  assert.equal(typeof s.status, 'number', `status must stay a number (${where})`);
  assert.ok(Number.isInteger(s.status) && s.status >= 0, `status must stay a non-negative integer (${where})`);
  assert.ok(Array.isArray(s.turns), `turns must stay an array (${where})`);
  for (const t of s.turns) {
    assert.equal(typeof t.id, 'string', `turn id (${where})`);
    assert.ok(['complete', 'cancelled', 'error'].includes(t.state), `turn state (${where})`);
    assertWellFormedToolCalls(t.responseParts, where, statuses);
    for (const p of t.responseParts) {
      if (p.kind === 'toolCall') assert.ok(p.toolCall.status === 'completed' || p.toolCall.status === 'cancelled', `ended turns hold only finished tool calls (${where})`);
    }
  }
  if (s.queuedMessages !== undefined) {
    assert.ok(Array.isArray(s.queuedMessages) && s.queuedMessages.length > 0, `queuedMessages is a non-empty array or absent (${where})`);
    assert.equal(new Set(s.queuedMessages.map((m) => m.id)).size, s.queuedMessages.length, `queued ids are unique (${where})`);
  }
  if (s.steeringMessage !== undefined) assert.equal(typeof s.steeringMessage.id, 'string', `steeringMessage.id (${where})`);
  if (s.backgroundWork !== undefined) assert.ok(Array.isArray(s.backgroundWork), `backgroundWork (${where})`);
  if (s.turnsNextCursor !== undefined) assert.equal(typeof s.turnsNextCursor, 'string', `turnsNextCursor (${where})`);
  assert.equal(new Set(s.turns.map((t) => t.id)).size, s.turns.length, `turn ids are unique (${where})`);
  if (s.activeTurn !== undefined) {
    assert.ok(!s.turns.some((t) => t.id === s.activeTurn!.id), `the active turn is not also a finished one (${where})`);
    assert.equal(typeof s.activeTurn.id, 'string', `activeTurn.id (${where})`);
    assert.equal(typeof s.activeTurn.startedAt, 'string', `activeTurn.startedAt (${where})`);
    assert.ok(typeof s.activeTurn.message === 'object' && s.activeTurn.message !== null, `activeTurn.message (${where})`);
    assertWellFormedToolCalls(s.activeTurn.responseParts, where, statuses);
  } else {
    assert.equal('activeTurn' in s, false, `no activeTurn key without an active turn (${where})`);
  }
}

test(`chat reducer survives ${STEPS} random actions`, () => {
  const seed = Number(process.env.AHP_FUZZ_SEED ?? (Date.now() + 7919) % 2 ** 31);
  console.log(`chat fuzz seed: ${seed} (replay with AHP_FUZZ_SEED=${seed})`);
  const rnd = createRandom(seed);
  const statuses = new Set<string>();
  let state = initialFuzzChat();
  let changed = 0;
  let nullActions = 0;
  const effective = new Set<string>();
  // The walk runs STEPS steps, then (same seeded generator) on until every modelled action type has changed the
  // state at least once, at most 4 × STEPS in all: rare lifecycles (an auth-required call being resolved) are
  // then still required, without making the check depend on the luck of one seed.
  const uncovered = () => STEPS >= 20_000 && [...CHAT_ACTION_TYPES].some((type) => !effective.has(type));
  for (let step = 0; step < STEPS || (step < 4 * STEPS && uncovered()); step++) {
    const action = rnd() < 0.7 ? randomChatAction(rnd, state) : randomChatGarbage(rnd);
    if (action === null) nullActions++;
    let next: ChatState;
    try {
      next = chatReducer(state, action as never);
    } catch (error) {
      assert.fail(`chat reducer threw at step ${step} (seed ${seed}) on ${JSON.stringify(action)}: ${String(error)}`);
    }
    if (next !== state) {
      changed++;
      effective.add(String((action as { type?: unknown }).type));
    }
    if (step % 97 === 0 || next !== state) assertWellFormedChat(next, `step ${step}, seed ${seed}, action ${JSON.stringify(action)}`, statuses);
    state = next;
    // Keep the history short so the checks stay cheap; a fresh chat also replays the early lifecycle.
    if (state.turns.length > 40 || rnd() < 0.001) state = initialFuzzChat();
  }
  assert.ok(changed > STEPS / 20, `only ${changed} of ${STEPS} actions changed the state`);
  assert.ok(STEPS < 10_000 || nullActions > 0, 'the garbage generator produced a null action');
  // Valid lifecycles must actually reach every known status, or the generator proves little.
  for (const status of ['streaming', 'pending-confirmation', 'running', 'auth-required', 'pending-result-confirmation', 'completed', 'cancelled']) {
    assert.ok(statuses.has(status), `no tool call reached ${status} (seed ${seed})`);
  }
  // Every action type the chat reducer models must have changed the state at least once, or it was not really exercised.
  if (STEPS >= 20_000) {
    for (const type of CHAT_ACTION_TYPES) assert.ok(effective.has(type), `'${type}' never changed the state (seed ${seed})`);
  }
});

test('no reducer throws on null, undefined or non-object actions, and each returns the same state', () => {
  const session = initialFuzzSession();
  const chat = chatReducer(initialFuzzChat(), { type: 'chat/turnStarted', turnId: 't', startedAt: 'x', message: { text: 'm', origin: { kind: 'user' } } });
  const actions: unknown[] = [null, undefined, 0, 1, NaN, '', 'chat/delta', 'session/titleChanged', true, false, [], [{ type: 'chat/delta' }],
    Symbol('a'), () => ({ type: 'session/titleChanged' }), 10n, { type: null }, { type: 7 }, { type: {} }, Object.create(null)];
  for (const a of actions) {
    assert.equal(sessionReducer(session, a as never), session, `session: ${String(typeof a)}`);
    assert.equal(chatReducer(chat, a as never), chat, `chat: ${String(typeof a)}`);
  }
  // Garbage state is returned as is too.
  for (const s of [null, undefined, 0, 'x', []]) {
    assert.doesNotThrow(() => sessionReducer(s as never, { type: 'session/titleChanged', title: 'x' }));
    assert.doesNotThrow(() => chatReducer(s as never, { type: 'chat/turnComplete', turnId: 't', duration: 1 }));
  }
});

test('unknown enum values survive reducers and a JSON round trip unchanged', () => {
  const roundTrip = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
  // JSON has no undefined: an absent key and an undefined one are the same on the wire (spec §11.15).
  const withoutUndefined = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(withoutUndefined)
      : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, withoutUndefined(x)]))
        : v;
  const futureState = { kind: 'x-hibernating', since: '2026-03-01', detail: { level: 3 } };
  const futureEnablement = [{ kind: 'x-org', org: 'acme', enabled: false }];
  const futureRequest = { kind: 'x-new-input', id: 'r9', chat: 'ahp-chat:/c', extra: [1, { deep: true }] };
  let session = { ...initialFuzzSession(), status: 1 | 32 | (1 << 20), lifecycle: 'x-migrating' } as SessionState;
  session = sessionReducer(session, { type: 'session/customizationUpdated', customization: { type: 'x-widget', id: 'w', uri: 'w', name: 'W', extra: { keep: [1, 2] } } });
  session = sessionReducer(session, { type: 'session/mcpServerStateChanged', id: 's1', state: futureState });
  session = sessionReducer(session, { type: 'session/customizationToggled', id: 's1', enablement: futureEnablement });
  session = sessionReducer(session, { type: 'session/inputNeededSet', request: futureRequest });
  session = sessionReducer(session, { type: 'session/isReadChanged', isRead: false });
  const s1 = session.customizations?.find((c) => c.id === 's1') as unknown as Record<string, unknown>;
  assert.deepEqual(s1.state, futureState);
  assert.deepEqual(s1.enablement, futureEnablement);
  assert.equal(session.lifecycle, 'x-migrating');
  assert.equal(session.status & (1 << 20), 1 << 20, 'unknown status bit kept');
  assert.deepEqual(session.inputNeeded?.find((r) => r.id === 'r9'), futureRequest);
  assert.deepEqual(session.customizations?.find((c) => c.id === 'w'), { type: 'x-widget', id: 'w', uri: 'w', name: 'W', extra: { keep: [1, 2] } });
  assert.deepEqual(roundTrip(session), withoutUndefined(session));
  assert.deepEqual(sessionReducer(roundTrip(session), { type: 'session/titleChanged', title: 'again' }), sessionReducer(session, { type: 'session/titleChanged', title: 'again' }));

  const T = 't1';
  const futureCall = { toolCallId: 'f', toolName: 'n', displayName: 'N', status: 'x-paused', contributor: { kind: 'x-agent', agent: 'a' }, resumeAt: 5 };
  let chat = chatReducer(initialFuzzChat(), { type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T00:00:00.000Z', message: { text: 'm', origin: { kind: 'x-bot' } } });
  chat = { ...chat, activeTurn: { ...chat.activeTurn!, responseParts: [{ kind: 'toolCall', toolCall: futureCall } as never] } };
  chat = chatReducer(chat, { type: 'chat/responsePart', turnId: T, part: { kind: 'x-canvas', id: 'cv', spec: { w: 1 } } });
  chat = chatReducer(chat, { type: 'chat/toolCallStart', turnId: T, toolCallId: 'c', toolName: 'n', displayName: 'N', contributor: { kind: 'x-agent', agent: 'b' } });
  chat = chatReducer(chat, { type: 'chat/toolCallReady', turnId: T, toolCallId: 'c', invocationMessage: 'x', confirmed: 'setting' });
  chat = chatReducer(chat, { type: 'chat/toolCallComplete', turnId: T, toolCallId: 'c', result: { success: true, pastTenseMessage: 'ok', content: [{ type: 'x-chart', series: [1, 2] }] } });
  const before = chat;
  for (const type of ['chat/toolCallDelta', 'chat/toolCallReady', 'chat/toolCallAuthResolved', 'chat/toolCallComplete']) {
    chat = chatReducer(chat, { type, turnId: T, toolCallId: 'f', content: 'x', invocationMessage: 'x', result: { success: false, pastTenseMessage: 'no' } });
  }
  assert.equal(chat, before, 'actions on a tool call in an unknown status are no-ops');
  const parts = chat.activeTurn!.responseParts as unknown as Record<string, unknown>[];
  assert.deepEqual(parts[0], { kind: 'toolCall', toolCall: futureCall });
  assert.deepEqual(parts[1], { kind: 'x-canvas', id: 'cv', spec: { w: 1 } });
  assert.deepEqual((parts[2]?.toolCall as Record<string, unknown>).contributor, { kind: 'x-agent', agent: 'b' });
  assert.deepEqual((parts[2]?.toolCall as Record<string, unknown>).content, [{ type: 'x-chart', series: [1, 2] }]);
  assert.equal(chat.activeTurn?.message.origin.kind, 'x-bot');
  assert.deepEqual(roundTrip(chat), withoutUndefined(chat));
});

// The intent action creators of `src/intents` (what the elements dispatch, exported from the `ahp-elements/intents` entry for
// headless use): the shapes the protocol expects, and each one taking effect through the reducers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatState, SessionState } from '../../src/protocol/index.js';
import { CLIENT_DISPATCHABLE_ACTIONS } from '../../src/protocol/index.js';
import { chatReducer, sessionReducer } from '../../src/reducers/index.js';
import * as intentsEntry from '../../src/intents.js';
import {
  inputCompleted,
  pendingMessageRemoved,
  toolCallApproved,
  toolCallCancelled,
  toolCallDenied,
  toolCallResultConfirmed,
  turnCancelled,
  turnResume,
  turnStarted,
} from '../../src/intents/chat.js';
import { mcpServerRestartRequested, mcpServerStartRequested, mcpServerStopRequested, mcpServerToggled } from '../../src/intents/session.js';

const T = 't1';
const ids = { turnId: T, toolCallId: 'a' };
const emptyChat = (): ChatState => ({ resource: 'ahp-chat:/c', title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] });

/** A chat whose active turn has tool call `a` waiting for confirmation. */
function waitingChat(): ChatState {
  let s = chatReducer(emptyChat(), turnStarted({ text: 'hi', turnId: T }));
  s = chatReducer(s, { type: 'chat/toolCallStart', ...ids, toolName: 'write', displayName: 'Write' });
  s = chatReducer(s, { type: 'chat/toolCallReady', ...ids, invocationMessage: 'Write it', toolInput: '{}' });
  return s;
}
const toolCall = (s: ChatState) => (s.activeTurn?.responseParts ?? []).map((p) => (p as { toolCall?: { status: string } }).toolCall).find(Boolean);

describe('chat intents', () => {
  it('turnStarted: a user message with a fresh UUID and now as startedAt; optional id, time and message _meta', () => {
    const before = Date.now();
    const a = turnStarted({ text: 'hello' });
    const b = turnStarted({ text: 'hello' });
    assert.equal(a.type, 'chat/turnStarted');
    assert.match(a.turnId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(a.turnId, b.turnId);
    assert.ok(Date.parse(a.startedAt) >= before - 1 && Date.parse(a.startedAt) <= Date.now() + 1);
    assert.deepEqual(a.message, { text: 'hello', origin: { kind: 'user' } });
    const c = turnStarted({ text: 'x', turnId: 'mine', now: new Date('2026-03-01T00:00:00.000Z'), messageMeta: { k: 1 } });
    assert.deepEqual(c, { type: 'chat/turnStarted', turnId: 'mine', startedAt: '2026-03-01T00:00:00.000Z', message: { text: 'x', origin: { kind: 'user' }, _meta: { k: 1 } } });
    const s = chatReducer(emptyChat(), c);
    assert.equal(s.activeTurn?.id, 'mine');
  });

  it('turnCancelled: the time the turn ran, never negative, and it ends the active turn', () => {
    assert.deepEqual(turnCancelled({ id: T, startedAt: '2026-01-01T00:00:00.000Z' }, Date.parse('2026-01-01T00:00:02.500Z')), { type: 'chat/turnCancelled', turnId: T, duration: 2500 });
    assert.equal(turnCancelled({ id: T, startedAt: 'not a date' }).duration, 0);
    assert.equal(turnCancelled({ id: T, startedAt: '2999-01-01T00:00:00.000Z' }).duration, 0);
    const s = chatReducer(waitingChat(), turnCancelled({ id: T, startedAt: new Date().toISOString() }));
    assert.equal(s.activeTurn, undefined);
    assert.equal(s.turns.at(-1)?.state, 'cancelled');
  });

  it('approve and deny carry the chosen option and the edited input only when given, and resolve the call', () => {
    assert.deepEqual(toolCallApproved(ids), { type: 'chat/toolCallConfirmed', ...ids, approved: true, confirmed: 'user-action' });
    assert.deepEqual(toolCallApproved(ids, { selectedOptionId: 'ok', editedToolInput: '{"a":1}' }), {
      type: 'chat/toolCallConfirmed', ...ids, approved: true, confirmed: 'user-action', selectedOptionId: 'ok', editedToolInput: '{"a":1}',
    });
    assert.deepEqual(toolCallDenied(ids), { type: 'chat/toolCallConfirmed', ...ids, approved: false, reason: 'denied' });
    assert.deepEqual(toolCallDenied(ids, { selectedOptionId: 'no' }), { type: 'chat/toolCallConfirmed', ...ids, approved: false, reason: 'denied', selectedOptionId: 'no' });
    assert.equal(toolCall(chatReducer(waitingChat(), toolCallApproved(ids)))?.status, 'running');
    assert.equal(toolCall(chatReducer(waitingChat(), toolCallDenied(ids)))?.status, 'cancelled');
  });

  it('result confirmation, cancel of a blocked call, resume, pending removal and an answered question', () => {
    assert.deepEqual(toolCallResultConfirmed(ids, false), { type: 'chat/toolCallResultConfirmed', ...ids, approved: false });
    const cancel = toolCallCancelled(ids);
    assert.equal(cancel.type, 'chat/toolCallComplete');
    assert.equal(cancel.result.success, false);
    assert.equal(cancel.result.error?.code, 'cancelled');
    assert.deepEqual(turnResume(T), { type: 'chat/turnResume', turnId: T });
    assert.deepEqual(pendingMessageRemoved('queued', 'q1'), { type: 'chat/pendingMessageRemoved', kind: 'queued', id: 'q1' });
    assert.deepEqual(inputCompleted('r1', 'decline', {}), { type: 'chat/inputCompleted', requestId: 'r1', response: 'decline', answers: {} });
  });
});

describe('session intents', () => {
  const server = { type: 'mcpServer', id: 'srv', name: 'S', enablement: [{ kind: 'global', enabled: true }] } as never;
  const session = (): SessionState =>
    ({ provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [server] }) as unknown as SessionState;

  it('toggle sends the enablement list that makes the server disabled, and the reducer applies it', () => {
    const action = mcpServerToggled(server, false);
    assert.deepEqual(action, { type: 'session/customizationToggled', id: 'srv', enablement: [{ kind: 'global', enabled: false }] });
    const after = sessionReducer(session(), action);
    assert.deepEqual((after.customizations?.[0] as { enablement?: unknown }).enablement, [{ kind: 'global', enabled: false }]);
  });

  it('start, stop, and restart as stop then start', () => {
    assert.deepEqual(mcpServerStartRequested('srv'), { type: 'session/mcpServerStartRequested', id: 'srv' });
    assert.deepEqual(mcpServerStopRequested('srv'), { type: 'session/mcpServerStopRequested', id: 'srv' });
    assert.deepEqual(mcpServerRestartRequested('srv'), [mcpServerStopRequested('srv'), mcpServerStartRequested('srv')]);
  });
});

it('every creator builds an action a client may dispatch, and the intents entry exports each creator', () => {
  const actions = [
    turnStarted({ text: 'x' }), turnCancelled({ id: T }), turnResume(T), pendingMessageRemoved('steering', 's'), inputCompleted('r', 'accept', {}),
    toolCallApproved(ids), toolCallDenied(ids), toolCallResultConfirmed(ids, true), toolCallCancelled(ids),
    mcpServerToggled({ type: 'mcpServer', id: 's' } as never, true), mcpServerStartRequested('s'), ...mcpServerRestartRequested('s'),
  ];
  for (const a of actions) assert.ok(CLIENT_DISPATCHABLE_ACTIONS.has(a.type), `${a.type} is client-dispatchable`);
  for (const name of ['turnStarted', 'turnCancelled', 'turnResume', 'pendingMessageRemoved', 'inputCompleted', 'toolCallApproved', 'toolCallDenied',
    'toolCallResultConfirmed', 'toolCallCancelled', 'mcpServerToggled', 'mcpServerStartRequested', 'mcpServerStopRequested', 'mcpServerRestartRequested']) {
    assert.equal(typeof (intentsEntry as Record<string, unknown>)[name], 'function', `ahp-elements/intents exports ${name}`);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostCore, DEFAULT_ACTION_LIMITS, actionLimitViolation } from '../../src/host.js';
import type { SessionState } from '../../src/protocol/index.js';
import { utf8Length } from '../../src/protocol/action-limits.js';

const SESSION = 'ahp-session:/limits';
const CHAT = 'ahp-chat:/limits';

function state(): SessionState {
  return {
    provider: 't',
    title: 't',
    status: 1,
    lifecycle: 'ready',
    activeClients: [],
    chats: [],
    customizations: [
      { type: 'mcpServer', id: 'top', uri: 'mcp-config:/top', name: 'Top', state: { kind: 'stopped' } },
      { type: 'plugin', id: 'plug', uri: 'plugin:/p', name: 'Plugin', children: [{ type: 'mcpServer', id: 'child', uri: 'mcp-config:/c', name: 'Child', state: { kind: 'stopped' } }] },
    ],
  } as SessionState;
}

function wire(options: ConstructorParameters<typeof HostCore>[0] = {}) {
  const host = new HostCore({ log: () => {}, ...options });
  host.createSession(SESSION, state());
  host.createChat(SESSION, CHAT);
  const sent: Record<string, unknown>[] = [];
  const conn = host.connect({ send: (m) => void sent.push(m as Record<string, unknown>), close: () => {} });
  conn.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersions: ['1.0.0'], clientId: 'me', initialSubscriptions: [SESSION, CHAT] } });
  sent.length = 0;
  let seq = 0;
  const dispatch = (channel: string, action: object) => {
    conn.receive({ jsonrpc: '2.0', method: 'dispatchAction', params: { channel, clientSeq: ++seq, action } });
    return sent.at(-1)?.params as { action: Record<string, unknown>; rejectionReason?: string; origin?: { clientSeq: number } } | undefined;
  };
  return { host, conn, sent, dispatch };
}

const turn = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'chat/turnStarted',
  turnId: `t-${Math.random()}`,
  startedAt: '2026-01-01T00:00:00Z',
  message: { text, origin: { kind: 'user' }, ...extra },
});

test('utf8Length counts UTF-8 bytes, surrogate pairs as 4', () => {
  for (const s of ['', 'abc', 'é', '€', '😀', 'a😀é€', '\ud800', 'x\udc00y']) assert.equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s));
});

test('an oversized message text is rejected: the echo names -32602 and the limit, carries only the type, and nothing is stored', () => {
  const { host, dispatch } = wire();
  const text = 'x'.repeat(DEFAULT_ACTION_LIMITS.maxMessageTextBytes + 1);
  const echo = dispatch(CHAT, turn(text));
  assert.ok(echo?.rejectionReason?.includes('-32602'), echo?.rejectionReason);
  assert.match(echo!.rejectionReason!, /message text is 262145 bytes; the limit is 262144 bytes/);
  assert.deepEqual(echo!.action, { type: 'chat/turnStarted' });
  assert.equal(host.getChatState(CHAT)?.activeTurn, undefined);
  const logged = host.actionsSince(CHAT, 0)!;
  assert.ok(JSON.stringify(logged).length < 1000, 'the oversized payload is not in the replay log');
  // Just under the limit (multi-byte text counted in bytes) is accepted.
  const ok = dispatch(CHAT, turn('é'.repeat(DEFAULT_ACTION_LIMITS.maxMessageTextBytes / 2)));
  assert.equal(ok?.rejectionReason, undefined);
  assert.ok(host.getChatState(CHAT)?.activeTurn);
});

test('attachments and the whole action have their own limits; limits are configurable', () => {
  const { dispatch } = wire({ limits: { maxMessageTextBytes: 100, maxAttachmentBytes: 200, maxActionBytes: 1000 } });
  assert.match(dispatch(CHAT, turn('y'.repeat(101)))!.rejectionReason!, /message text is 101 bytes; the limit is 100 bytes/);
  assert.match(dispatch(CHAT, turn('hi', { attachments: [{ data: 'z'.repeat(300) }] }))!.rejectionReason!, /attachments is 3\d\d bytes; the limit is 200 bytes/);
  assert.match(dispatch(CHAT, turn('hi', { _meta: { big: 'q'.repeat(1200) } }))!.rejectionReason!, /action is 1\.\d KiB; the limit is 1000 bytes/);
  assert.match(dispatch(SESSION, { type: 'session/titleChanged', title: 't'.repeat(2000) })!.rejectionReason!, /action is/);
  assert.equal(dispatch(SESSION, { type: 'session/titleChanged', title: 'short' })!.rejectionReason, undefined);
});

test('createChat with an oversized initial message is answered with -32602 and its data', () => {
  const { host, conn, sent } = wire({ limits: { maxMessageTextBytes: 10 } });
  conn.receive({ jsonrpc: '2.0', id: 7, method: 'createChat', params: { channel: SESSION, chat: 'ahp-chat:/big', initialMessage: { text: 'z'.repeat(11) } } });
  const answer = sent.find((m) => m.id === 7) as { error: { code: number; message: string; data: { limit: string; max: number; size: number } } };
  assert.equal(answer.error.code, -32602);
  assert.match(answer.error.message, /createChat refused: The message text is 11 bytes; the limit is 10 bytes/);
  assert.deepEqual({ limit: answer.error.data.limit, max: answer.error.data.max, size: answer.error.data.size }, { limit: 'maxMessageTextBytes', max: 10, size: 11 });
  assert.equal(host.getChatState('ahp-chat:/big'), undefined);
});

test('every action naming a customization is refused the same way for an unknown id (toggle included)', () => {
  const { host, dispatch } = wire();
  for (const type of ['session/mcpServerStartRequested', 'session/mcpServerStopRequested', 'session/mcpServerBackgroundRequested']) {
    assert.equal(dispatch(SESSION, { type, id: 'ghost' })!.rejectionReason, 'No MCP server with id "ghost" in this session', type);
    assert.equal(dispatch(SESSION, { type, id: 42 })!.rejectionReason, 'No MCP server with id 42 in this session', type);
    assert.equal(dispatch(SESSION, { type, id: 'plug' })!.rejectionReason, 'No MCP server with id "plug" in this session', `${type} on a plugin`);
    assert.equal(dispatch(SESSION, { type, id: 'child' })!.rejectionReason, undefined, `${type} on a child server`);
  }
  const before = host.getSessionState(SESSION);
  assert.equal(dispatch(SESSION, { type: 'session/customizationToggled', id: 'ghost', enabled: false })!.rejectionReason, 'No customization with id "ghost" in this session');
  assert.equal(host.getSessionState(SESSION), before, 'a refused toggle changes nothing');
  for (const id of ['top', 'plug', 'child']) assert.equal(dispatch(SESSION, { type: 'session/customizationToggled', id, enabled: false })!.rejectionReason, undefined, id);
});

test('actionLimitViolation is total: garbage, cycles and BigInt never throw', () => {
  const cyclic: Record<string, unknown> = { type: 'chat/turnStarted' };
  cyclic.self = cyclic;
  for (const v of [null, undefined, 1, 'x', [], {}, { message: 5 }, { message: { text: 5, attachments: 1n } }, cyclic]) {
    assert.doesNotThrow(() => actionLimitViolation(v));
  }
  assert.equal(actionLimitViolation(cyclic)?.limit, 'maxActionBytes');
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatState, SessionState } from '../../src/protocol/index.js';
import {
  listAuthBlockedToolCalls, listInputNeeded, listMcpServers, listToolCalls, listToolCallsOfServer, selectMcpServer, selectToolCall,
} from '../../src/store/index.js';
import { changedToolCallIds } from '../../src/store/tool-call-selectors.js';

const srv = (id: string, extra: Record<string, unknown> = {}) => ({ type: 'mcpServer', id, uri: 'x:/', name: id, state: { kind: 'ready' }, ...extra });
const state = {
  provider: 'p', title: 'T', status: 1, lifecycle: 'ready', activeClients: [], chats: [],
  customizations: [
    srv('top'),
    { type: 'plugin', id: 'plug', uri: 'x:/', name: 'P', enablement: [{ kind: 'global', enabled: false }], children: [srv('p1'), { type: 'skill', id: 's', uri: 'x:/', name: 's' }] },
    srv('off', { enablement: [{ kind: 'session', enabled: false }] }),
    { type: 'directory', id: 'dir', uri: 'x:/', name: 'D', enabled: true, contents: 'mcpServer', writable: false, children: [srv('d1', { enabled: false }), srv('d2')] },
  ],
} as unknown as SessionState;

describe('listMcpServers', () => {
  it('lists top-level servers and container children in order with effective enablement', () => {
    const entries = listMcpServers(state);
    assert.deepEqual(entries.map((e) => [e.server.id, e.container?.id, e.enabled]), [
      ['top', undefined, true], ['p1', 'plug', false], ['off', undefined, false], ['d1', 'dir', false], ['d2', 'dir', true],
    ]);
    assert.equal('container' in entries[0]!, false);
  });
  it('is memoized per customizations list and empty without one', () => {
    assert.equal(listMcpServers(state), listMcpServers(state));
    assert.deepEqual(listMcpServers(undefined), []);
    assert.deepEqual(listMcpServers({ ...state, customizations: undefined }), []);
  });
});

describe('selectMcpServer', () => {
  it('returns the entry by id, or undefined', () => {
    assert.equal(selectMcpServer(state, 'd2')?.container?.id, 'dir');
    assert.equal(selectMcpServer(state, 'p1')?.enabled, false);
    assert.equal(selectMcpServer(state, 'top')?.enabled, true);
    assert.equal(selectMcpServer(state, 's'), undefined);
    assert.equal(selectMcpServer(state, 'plug'), undefined);
    assert.equal(selectMcpServer(undefined, 'top'), undefined);
  });
});

type A = Record<string, unknown>;
const mcp = (customizationId: string) => ({ kind: 'mcp', customizationId });
const auth = { reason: 'required', resource: { resource: 'https://mcp.example/' } };
const call = (toolCallId: string, status: string, extra: A = {}) => ({ toolCallId, toolName: 'n', displayName: 'N', invocationMessage: 'x', status, ...extra });
const part = (tc: A) => ({ kind: 'toolCall', toolCall: tc });
const msg = { text: 'hi', origin: { kind: 'user' } };

function chatWith(resource: string): ChatState {
  return {
    resource, title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00Z',
    turns: [
      { id: 't0', message: msg, usage: undefined, state: 'complete', responseParts: [part(call('old', 'completed', { contributor: mcp('srv') })), { kind: 'markdown', id: 'm', content: 'x' }] },
      { id: 't1', message: msg, usage: undefined, state: 'cancelled', responseParts: [part(call('dup', 'cancelled')), part(call('gone', 'cancelled', { contributor: mcp('other') }))] },
    ],
    activeTurn: {
      id: 't2', startedAt: '2026-01-01T00:00:00Z', message: msg, usage: undefined,
      responseParts: [
        part(call('dup', 'running', { contributor: mcp('srv'), confirmed: 'setting' })),
        part(call('blocked', 'auth-required', { contributor: mcp('srv'), confirmed: 'setting', auth })),
        part(call('future', 'x-future-status')),
        { kind: 'x-new-part' },
        part({ garbage: true }),
      ],
    },
  } as unknown as ChatState;
}

describe('listToolCalls / selectToolCall', () => {
  it('lists past turns oldest first, then the active turn, with turn id and activity', () => {
    const entries = listToolCalls(chatWith('ahp-chat:/1'));
    assert.deepEqual(entries.map((e) => [e.toolCall.toolCallId, e.turnId, e.active, e.chat]), [
      ['old', 't0', false, 'ahp-chat:/1'], ['dup', 't1', false, 'ahp-chat:/1'], ['gone', 't1', false, 'ahp-chat:/1'],
      ['dup', 't2', true, 'ahp-chat:/1'], ['blocked', 't2', true, 'ahp-chat:/1'], ['future', 't2', true, 'ahp-chat:/1'],
    ]);
    assert.equal(entries.find((e) => e.toolCall.toolCallId === 'future')?.toolCall.status, 'x-future-status');
  });
  it('is memoized per chat state and reuses past turns when only the active turn changed', () => {
    const c = chatWith('ahp-chat:/1');
    assert.equal(listToolCalls(c), listToolCalls(c));
    const next = { ...c, activeTurn: { ...c.activeTurn!, responseParts: [] } };
    assert.equal(listToolCalls(next).length, 3);
    assert.equal(listToolCalls(next)[0], listToolCalls(c)[0]);
    assert.deepEqual(listToolCalls(undefined), []);
    assert.deepEqual(listToolCalls({ resource: 'x', turns: 'garbage' } as never), []);
  });
  it('selects by id: the active turn first, then the newest past turn', () => {
    const c = chatWith('ahp-chat:/1');
    assert.deepEqual([selectToolCall(c, 'dup')?.turnId, selectToolCall(c, 'dup')?.toolCall.status], ['t2', 'running']);
    assert.equal(selectToolCall(c, 'old')?.turnId, 't0');
    assert.equal(selectToolCall(c, 'old')?.active, false);
    assert.equal(selectToolCall(c, 'nope'), undefined);
    assert.equal(selectToolCall(undefined, 'old'), undefined);
    const { activeTurn: _a, ...ended } = c;
    assert.equal(selectToolCall(ended as ChatState, 'dup')?.turnId, 't1');
  });
});

describe('listToolCallsOfServer', () => {
  it('collects the tool calls an MCP server contributed across chats', () => {
    const c1 = chatWith('ahp-chat:/1');
    const c2 = chatWith('ahp-chat:/2');
    const ofSrv = listToolCallsOfServer([c1, undefined, c2], 'srv');
    assert.deepEqual(ofSrv.map((e) => `${e.chat}#${e.toolCall.toolCallId}`), [
      'ahp-chat:/1#old', 'ahp-chat:/1#dup', 'ahp-chat:/1#blocked', 'ahp-chat:/2#old', 'ahp-chat:/2#dup', 'ahp-chat:/2#blocked',
    ]);
    assert.deepEqual(listToolCallsOfServer(new Set([c1]), 'other').map((e) => e.toolCall.toolCallId), ['gone']);
    assert.equal(listToolCallsOfServer([c1], 'srv'), listToolCallsOfServer(new Map([['k', c1]]).values(), 'srv'), 'one chat: memoized list');
    assert.deepEqual(listToolCallsOfServer([c1], 'nobody'), []);
    assert.deepEqual(listToolCallsOfServer(undefined, 'srv'), []);
  });
});

describe('listInputNeeded / listAuthBlockedToolCalls', () => {
  const blockedElsewhere = call('remote', 'auth-required', { contributor: mcp('srv'), confirmed: 'setting', auth });
  const sessionWith = (inputNeeded: unknown[]) => ({ ...state, inputNeeded } as unknown as SessionState);
  const requests = [
    { kind: 'toolConfirmation', id: 'r1', chat: 'ahp-chat:/1', turnId: 't2', toolCall: call('x', 'pending-confirmation') },
    { kind: 'toolAuthentication', id: 'r2', chat: 'ahp-chat:/1', turnId: 't2', toolCall: call('blocked', 'auth-required', { auth }) },
    { kind: 'toolAuthentication', id: 'r3', chat: 'ahp-chat:/9', turnId: 't7', toolCall: blockedElsewhere },
    { kind: 'toolAuthentication', id: 'r4', chat: 'ahp-chat:/1', turnId: 't2', toolCall: call('dup', 'auth-required', { auth }) },
    { kind: 'x-future-kind', id: 'r5', chat: 'ahp-chat:/1' },
    null,
    { kind: 'toolAuthentication', id: 'r6', chat: 'ahp-chat:/1' },
  ];
  it('lists input-needed entries, by kind, memoized, skipping garbage', () => {
    const s = sessionWith(requests);
    assert.deepEqual(listInputNeeded(s).map((r) => r.id), ['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    assert.deepEqual(listInputNeeded(s, 'toolAuthentication').map((r) => r.id), ['r2', 'r3', 'r4', 'r6']);
    assert.deepEqual(listInputNeeded(s, 'x-future-kind').map((r) => r.id), ['r5']);
    assert.equal(listInputNeeded(s, 'toolConfirmation'), listInputNeeded(s, 'toolConfirmation'));
    assert.deepEqual(listInputNeeded(state), []);
    assert.deepEqual(listInputNeeded(undefined, 'chatInput'), []);
  });
  it('auth-required tool calls from chats, plus session entries for chats not given; a chat state decides its own calls', () => {
    const c1 = chatWith('ahp-chat:/1');
    const blocked = listAuthBlockedToolCalls([c1], sessionWith(requests));
    assert.deepEqual(blocked.map((b) => [b.chat, b.toolCall.toolCallId, b.turnId, b.source, b.requestId]), [
      ['ahp-chat:/1', 'blocked', 't2', 'chat', 'r2'],
      ['ahp-chat:/9', 'remote', 't7', 'inputNeeded', 'r3'],
    ]);
    assert.equal(blocked[1]?.toolCall, blockedElsewhere);
    assert.deepEqual(listAuthBlockedToolCalls([], sessionWith(requests)).map((b) => b.requestId), ['r2', 'r3', 'r4']);
    assert.deepEqual(listAuthBlockedToolCalls([c1]).map((b) => [b.toolCall.toolCallId, 'requestId' in b]), [['blocked', false]]);
    assert.deepEqual(listAuthBlockedToolCalls(undefined, undefined), []);
  });
});

describe('changedToolCallIds', () => {
  const c = chatWith('ahp-chat:/1');
  const parts = c.activeTurn!.responseParts;
  const withParts = (p: unknown[]) => ({ ...c, activeTurn: { ...c.activeTurn!, responseParts: p } }) as ChatState;
  it('names only the tool calls whose part changed in the active turn', () => {
    const next = withParts(parts.map((p, i) => (i === 1 ? { ...p } : p)));
    assert.deepEqual([...changedToolCallIds(c, next)!], ['blocked']);
    assert.deepEqual([...changedToolCallIds(c, withParts([...parts, part(call('new', 'streaming'))]))!], ['new']);
    assert.deepEqual([...changedToolCallIds(c, { ...c, title: 'x' })!], []);
  });
  it('is undefined (look everything up) when turns, the turn or the state itself changed', () => {
    assert.equal(changedToolCallIds(c, { ...c, turns: [...c.turns] }), undefined);
    assert.equal(changedToolCallIds(c, { ...c, activeTurn: { ...c.activeTurn!, id: 'other' } }), undefined);
    const { activeTurn: _a, ...ended } = c;
    assert.equal(changedToolCallIds(c, ended as ChatState), undefined);
    assert.equal(changedToolCallIds(undefined, c), undefined);
    assert.equal(changedToolCallIds(c, undefined), undefined);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStatus, type ChatSummary, type SessionState } from '../../src/protocol/index.js';
import { sessionReducer } from '../../src/reducers/index.js';

const chat = (n: string, extra: Partial<ChatSummary> = {}): ChatSummary => ({ resource: `ahp-chat:/${n}`, title: n, status: 1, modifiedAt: '2026-01-01T00:00:00Z', ...extra });
const UNKNOWN_BIT = 1 << 10;

function base(): SessionState {
  return {
    provider: 'p', title: 'T', status: SessionStatus.Idle | UNKNOWN_BIT, lifecycle: 'creating',
    activeClients: [{ clientId: 'a', tools: [] }, { clientId: 'b', tools: [] }],
    chats: [chat('1'), chat('2'), chat('3'), chat('4')],
    defaultChat: 'ahp-chat:/2',
    workingDirectories: ['file:///a', 'file:///b', 'file:///c'],
    config: { schema: {}, values: { x: 1, y: 2 } },
  };
}
const act = (type: string, fields: Record<string, unknown> = {}) => ({ type, ...fields });
const run = (s: SessionState, type: string, fields: Record<string, unknown> = {}) => sessionReducer(s, act(type, fields));
const order = (s: SessionState) => s.chats.map((c) => c.resource.slice(-1)).join('');

describe('unknown and garbage actions', () => {
  it('return the same state', () => {
    const s = base();
    assert.equal(run(s, 'session/x-futureThing', { id: 'a' }), s);
    assert.equal(run(s, 'chat/delta'), s);
    assert.equal(run(s, 'toString'), s);
    assert.equal(run(s, 'constructor'), s);
    assert.equal(sessionReducer(s, null as never), s);
    assert.equal(sessionReducer(s, { type: 5 } as never), s);
    assert.equal(sessionReducer(s, 'session/ready' as never), s);
    assert.equal(sessionReducer(null as never, act('session/ready')), null);
  });
});

describe('lifecycle', () => {
  it('session/ready sets lifecycle without touching status', () => {
    const s = { ...base(), status: SessionStatus.InProgress };
    const next = run(s, 'session/ready');
    assert.equal(next.lifecycle, 'ready');
    assert.equal(next.status, SessionStatus.InProgress);
    assert.equal(run(next, 'session/ready'), next);
  });
  it('session/creationFailed sets lifecycle and error; garbage is a no-op', () => {
    const s = base();
    const error = { errorType: 'X', message: 'boom' };
    const next = run(s, 'session/creationFailed', { error });
    assert.equal(next.lifecycle, 'failed');
    assert.equal(next.creationError, error);
    assert.equal(run(s, 'session/creationFailed', { error: 'boom' }), s);
    assert.equal(run(s, 'session/creationFailed'), s);
  });
});

describe('chat catalog', () => {
  it('chatAdded appends a new chat and replaces an existing one', () => {
    const s = base();
    const added = run(s, 'session/chatAdded', { summary: chat('5') });
    assert.equal(order(added), '12345');
    assert.equal(added.chats[0], s.chats[0]);
    const replaced = run(s, 'session/chatAdded', { summary: chat('2', { title: 'two' }) });
    assert.equal(order(replaced), '1234');
    assert.equal(replaced.chats[1]?.title, 'two');
    assert.equal(run(s, 'session/chatAdded', { summary: { title: 'x' } }), s);
    assert.equal(run(s, 'session/chatAdded', { summary: null }), s);
  });
  it('chatRemoved removes and clears defaultChat when it pointed there', () => {
    const s = base();
    const r1 = run(s, 'session/chatRemoved', { chat: 'ahp-chat:/1' });
    assert.equal(order(r1), '234');
    assert.equal(r1.defaultChat, 'ahp-chat:/2');
    const r2 = run(s, 'session/chatRemoved', { chat: 'ahp-chat:/2' });
    assert.equal(order(r2), '134');
    assert.equal('defaultChat' in r2, false);
    assert.equal(run(s, 'session/chatRemoved', { chat: 'ahp-chat:/9' }), s);
    assert.equal(run(s, 'session/chatRemoved', {}), s);
  });
  it('chatUpdated merges changes except resource', () => {
    const s = base();
    const next = run(s, 'session/chatUpdated', { chat: 'ahp-chat:/3', changes: { title: 'three', resource: 'ahp-chat:/evil', status: 8 } });
    assert.deepEqual(next.chats[2], { ...chat('3'), title: 'three', status: 8 });
    assert.equal(next.chats[0], s.chats[0]);
    assert.equal(run(s, 'session/chatUpdated', { chat: 'ahp-chat:/9', changes: { title: 'x' } }), s);
    assert.equal(run(s, 'session/chatUpdated', { chat: 'ahp-chat:/3', changes: 'x' }), s);
  });
  it('chatsReordered applies the complete resulting order (destination is informational)', () => {
    const s = base();
    const ids = (...n: string[]) => n.map((x) => `ahp-chat:/${x}`);
    const next = run(s, 'session/chatsReordered', { chats: ids('3', '1', '4', '2'), destination: { kind: 'start' } });
    assert.equal(order(next), '3142');
    // Entries move by reference; nothing is copied.
    assert.equal(next.chats[0], s.chats[2]);
    assert.equal(order(run(s, 'session/chatsReordered', { chats: ids('4', '3', '2', '1') })), '4321');
    // Applying the same order twice, and out of order after another reorder, lands on the order named last.
    const twice = run(run(s, 'session/chatsReordered', { chats: ids('2', '1', '3', '4') }), 'session/chatsReordered', { chats: ids('4', '1', '2', '3') });
    assert.equal(order(twice), '4123');
  });
  it('chatsReordered is a no-op for an incomplete list, an unknown URI, a duplicate, garbage, or an order that moves nothing', () => {
    const s = base();
    const ids = (...n: string[]) => n.map((x) => `ahp-chat:/${x}`);
    assert.equal(run(s, 'session/chatsReordered', { chats: ids('3', '1'), destination: { kind: 'start' } }), s);
    assert.equal(run(s, 'session/chatsReordered', { chats: ids('1', '2', '3', '9') }), s);
    assert.equal(run(s, 'session/chatsReordered', { chats: ids('1', '2', '3', '4', '5') }), s);
    assert.equal(run(s, 'session/chatsReordered', { chats: ids('1', '1', '3', '4') }), s);
    assert.equal(run(s, 'session/chatsReordered', { chats: ids('1', '2', '3', '4') }), s);
    assert.equal(run(s, 'session/chatsReordered', { chats: 'ahp-chat:/1' }), s);
    assert.equal(run(s, 'session/chatsReordered', { chats: [1, 2, 3, 4] }), s);
    assert.equal(run(s, 'session/chatsReordered', {}), s);
    // A chat added after the client computed its order makes that order incomplete: no-op.
    const grown = run(s, 'session/chatAdded', { summary: { resource: 'ahp-chat:/5', title: '5', status: 1, modifiedAt: 'x' } });
    assert.equal(run(grown, 'session/chatsReordered', { chats: ids('4', '3', '2', '1') }), grown);
  });
  it('defaultChatChanged sets and clears', () => {
    const s = base();
    assert.equal(run(s, 'session/defaultChatChanged', { defaultChat: 'ahp-chat:/3' }).defaultChat, 'ahp-chat:/3');
    assert.equal('defaultChat' in run(s, 'session/defaultChatChanged', {}), false);
    assert.equal(run(s, 'session/defaultChatChanged', { defaultChat: 'ahp-chat:/2' }), s);
    assert.equal(run(s, 'session/defaultChatChanged', { defaultChat: 3 }), s);
  });
});

describe('metadata', () => {
  it('titleChanged', () => {
    const s = base();
    assert.equal(run(s, 'session/titleChanged', { title: 'New' }).title, 'New');
    assert.equal(run(s, 'session/titleChanged', { title: 'T' }), s);
    assert.equal(run(s, 'session/titleChanged', { title: null }), s);
  });
  it('isReadChanged and isArchivedChanged flip their bits and keep the rest', () => {
    const s = base();
    const read = run(s, 'session/isReadChanged', { isRead: true });
    assert.equal(read.status, SessionStatus.Idle | UNKNOWN_BIT | SessionStatus.IsRead);
    assert.equal(run(read, 'session/isReadChanged', { isRead: false }).status, s.status);
    const archived = run(read, 'session/isArchivedChanged', { isArchived: true });
    assert.equal(archived.status, SessionStatus.Idle | UNKNOWN_BIT | SessionStatus.IsRead | SessionStatus.IsArchived);
    assert.equal(run(s, 'session/isReadChanged', { isRead: false }), s);
    assert.equal(run(s, 'session/isReadChanged', { isRead: 'yes' }), s);
    assert.equal(run(s, 'session/isArchivedChanged', {}), s);
  });
  it('activityChanged sets and clears', () => {
    const s = base();
    const busy = run(s, 'session/activityChanged', { activity: 'Thinking' });
    assert.equal(busy.activity, 'Thinking');
    assert.equal('activity' in run(busy, 'session/activityChanged', {}), false);
    assert.equal(run(s, 'session/activityChanged', {}), s);
    assert.equal(run(s, 'session/activityChanged', { activity: 1 }), s);
  });
  it('changesetsChanged replaces or deletes', () => {
    const s = base();
    const withSets = run(s, 'session/changesetsChanged', { changesets: [{ id: 1 }] });
    assert.deepEqual(withSets.changesets, [{ id: 1 }]);
    assert.equal('changesets' in run(withSets, 'session/changesetsChanged', { changesets: null }), false);
    assert.equal(run(s, 'session/changesetsChanged', { changesets: 'x' }), s);
  });
  it('configChanged merges or replaces values; no-op without a config', () => {
    const s = base();
    assert.deepEqual(run(s, 'session/configChanged', { config: { y: 3, z: 4 } }).config, { schema: {}, values: { x: 1, y: 3, z: 4 } });
    assert.deepEqual(run(s, 'session/configChanged', { config: { z: 4 }, replace: true }).config?.values, { z: 4 });
    const noConfig = { ...s, config: undefined };
    assert.equal(run(noConfig, 'session/configChanged', { config: { z: 4 } }), noConfig);
    assert.equal(run(s, 'session/configChanged', { config: 'x' }), s);
  });
  it('metaChanged replaces or deletes _meta', () => {
    const s = base();
    const m = run(s, 'session/metaChanged', { _meta: { a: 1 } });
    assert.deepEqual(m._meta, { a: 1 });
    assert.equal('_meta' in run(m, 'session/metaChanged', {}), false);
    assert.equal(run(s, 'session/metaChanged', { _meta: [1] }), s);
  });
  it('serverToolsChanged replaces', () => {
    const s = base();
    const tools = [{ name: 'read' }];
    assert.equal(run(s, 'session/serverToolsChanged', { tools }).serverTools, tools);
    assert.equal(run(s, 'session/serverToolsChanged', { tools: 'read' }), s);
  });
});

describe('active clients', () => {
  it('activeClientSet upserts by clientId', () => {
    const s = base();
    const c = { clientId: 'c', tools: [] };
    assert.deepEqual(run(s, 'session/activeClientSet', { activeClient: c }).activeClients.map((x) => x.clientId), ['a', 'b', 'c']);
    const b2 = { clientId: 'b', displayName: 'B', tools: [{ name: 't' }] };
    const next = run(s, 'session/activeClientSet', { activeClient: b2 });
    assert.equal(next.activeClients[1], b2);
    assert.equal(next.activeClients[0], s.activeClients[0]);
    assert.equal(run(s, 'session/activeClientSet', { activeClient: { tools: [] } }), s);
  });
  it('activeClientRemoved removes; unknown is a no-op', () => {
    const s = base();
    assert.deepEqual(run(s, 'session/activeClientRemoved', { clientId: 'a' }).activeClients.map((x) => x.clientId), ['b']);
    assert.equal(run(s, 'session/activeClientRemoved', { clientId: 'z' }), s);
    assert.equal(run(s, 'session/activeClientRemoved', {}), s);
  });
});

describe('working directories', () => {
  it('workingDirectorySet adds if absent (creating the list)', () => {
    const s = base();
    assert.deepEqual(run(s, 'session/workingDirectorySet', { directory: 'file:///d' }).workingDirectories, ['file:///a', 'file:///b', 'file:///c', 'file:///d']);
    assert.equal(run(s, 'session/workingDirectorySet', { directory: 'file:///a' }), s);
    assert.deepEqual(run({ ...s, workingDirectories: undefined }, 'session/workingDirectorySet', { directory: 'file:///x' }).workingDirectories, ['file:///x']);
    assert.equal(run(s, 'session/workingDirectorySet', { directory: 1 }), s);
  });
  it('workingDirectoryRemoved removes if present', () => {
    const s = base();
    assert.deepEqual(run(s, 'session/workingDirectoryRemoved', { directory: 'file:///b' }).workingDirectories, ['file:///a', 'file:///c']);
    assert.equal(run(s, 'session/workingDirectoryRemoved', { directory: 'file:///z' }), s);
  });
  it('workingDirectoryReplaced swaps and dedupes', () => {
    const s = base();
    const rep = (directory: string, replacement: string) => run(s, 'session/workingDirectoryReplaced', { directory, replacement }).workingDirectories;
    assert.deepEqual(rep('file:///b', 'file:///z'), ['file:///a', 'file:///z', 'file:///c']);
    assert.deepEqual(rep('file:///c', 'file:///a'), ['file:///a', 'file:///b']);
    assert.deepEqual(rep('file:///a', 'file:///c'), ['file:///c', 'file:///b']);
    assert.equal(run(s, 'session/workingDirectoryReplaced', { directory: 'file:///q', replacement: 'file:///z' }), s);
    assert.equal(run(s, 'session/workingDirectoryReplaced', { directory: 'file:///a' }), s);
  });
});

describe('input needed', () => {
  const confirm = { kind: 'toolConfirmation', id: 'r1', chat: 'ahp-chat:/1', turnId: 't', toolCall: {} };
  const clientExec = { kind: 'toolClientExecution', id: 'r2', chat: 'ahp-chat:/1', turnId: 't', clientId: 'a', toolCall: {} };
  it('a blocking entry sets InputNeeded and keeps flags and unknown bits', () => {
    const s = { ...base(), status: SessionStatus.InProgress | SessionStatus.IsRead | UNKNOWN_BIT };
    const next = run(s, 'session/inputNeededSet', { request: confirm });
    assert.deepEqual(next.inputNeeded, [confirm]);
    assert.equal(next.status, SessionStatus.InputNeeded | SessionStatus.IsRead | UNKNOWN_BIT);
  });
  it('a client-execution entry alone does not raise InputNeeded', () => {
    const s = { ...base(), status: SessionStatus.InProgress };
    const next = run(s, 'session/inputNeededSet', { request: clientExec });
    assert.equal(next.status, SessionStatus.InProgress);
  });
  it('upserts by id', () => {
    const s = run(base(), 'session/inputNeededSet', { request: confirm });
    const next = run(s, 'session/inputNeededSet', { request: { ...confirm, turnId: 'u' } });
    assert.equal(next.inputNeeded?.length, 1);
    assert.equal((next.inputNeeded?.[0] as { turnId: string }).turnId, 'u');
  });
  it('removal falls back to InProgress and deletes the empty list', () => {
    const s = { ...base(), status: SessionStatus.InProgress | UNKNOWN_BIT };
    const blocked = run(run(s, 'session/inputNeededSet', { request: confirm }), 'session/inputNeededSet', { request: clientExec });
    assert.equal(blocked.status & SESSION_ACTIVITY, SessionStatus.InputNeeded);
    const one = run(blocked, 'session/inputNeededRemoved', { id: 'r1' });
    assert.equal(one.status, SessionStatus.InProgress | UNKNOWN_BIT);
    assert.equal(one.inputNeeded?.length, 1);
    const none = run(one, 'session/inputNeededRemoved', { id: 'r2' });
    assert.equal('inputNeeded' in none, false);
    assert.equal(none.status, SessionStatus.InProgress | UNKNOWN_BIT);
  });
  it('removal clears only bit 4 of the activity', () => {
    const s = base();
    const next = run(run(s, 'session/inputNeededSet', { request: confirm }), 'session/inputNeededRemoved', { id: 'r1' });
    assert.equal(next.status & SESSION_ACTIVITY, SessionStatus.InProgress);
    const idle = run(run({ ...s, status: 16 }, 'session/inputNeededSet', { request: clientExec }), 'session/inputNeededRemoved', { id: 'r2' });
    assert.equal(idle.status, 0);
  });
  it('no-ops for unknown ids, missing list and garbage', () => {
    const s = base();
    assert.equal(run(s, 'session/inputNeededRemoved', { id: 'r1' }), s);
    const withOne = run(s, 'session/inputNeededSet', { request: confirm });
    assert.equal(run(withOne, 'session/inputNeededRemoved', { id: 'zz' }), withOne);
    assert.equal(run(s, 'session/inputNeededSet', { request: { kind: 'chatInput' } }), s);
    assert.equal(run(s, 'session/inputNeededSet', { request: null }), s);
  });
});

const SESSION_ACTIVITY = 31;

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectionStateHub } from '../../src/client/connection-state.js';
import { createInMemoryPair } from '../../src/client/in-memory-transport.js';
import { JsonRpcPeer } from '../../src/client/json-rpc-peer.js';
import { createMcpChannel } from '../../src/client/mcp-channel.js';
import { CapabilityUnavailableError, buildSessionHandle, type SessionHandleParts } from '../../src/client/session-handle.js';
import { findMcpServer } from '../../src/reducers/customizations.js';

const SESSION = 'ahp-session:/h';

function parts(overrides: Partial<SessionHandleParts> = {}) {
  let server: Record<string, unknown> = { type: 'mcpServer', id: 's', name: 'S', state: { kind: 'ready' }, channel: 'mcp://s/1', mcpApp: { capabilities: { serverResources: {} } } };
  const state = () => ({ customizations: [server] }) as never;
  const sent: [string, unknown][] = [];
  const client = {
    request: async (method: string, params: unknown) => (sent.push([method, params]), { ok: true }),
    notify: () => {},
    onNotification: () => () => {},
  };
  const connection = connectionStateHub();
  const handle = buildSessionHandle({
    session: SESSION,
    mode: 'page',
    connection,
    authenticate: async (p) => void sent.push(['authenticate', p]),
    createChat: async (p) => void sent.push(['createChat', p]),
    mcpChannel: (id) => createMcpChannel({ client: client as never, getServer: () => findMcpServer(state(), id) }),
    reconnectNow: () => void sent.push(['reconnectNow', undefined]),
    ...overrides,
  });
  return { handle, sent, connection, setServer: (s: Record<string, unknown>) => void (server = s), server: () => server };
}

test('mcpChannel(id): routes over the connection with the server’s current channel, one channel per server', async () => {
  const { handle, sent, setServer, server } = parts();
  const channel = handle.mcpChannel('s');
  assert.equal(handle.mcpChannel('s'), channel, 'one channel per server');
  await channel.request('resources/read', { uri: 'ui://x' });
  assert.deepEqual(sent, [['resources/read', { uri: 'ui://x', channel: 'mcp://s/1' }]]);
  await assert.rejects(channel.request('tools/call', { name: 'x' }), /not among the capabilities/);
  setServer({ ...server(), channel: 'mcp://s/2' });
  await channel.request('resources/list', {});
  assert.equal((sent.at(-1)![1] as { channel: string }).channel, 'mcp://s/2', 're-reads the channel');
  const missing = handle.mcpChannel('missing');
  assert.equal(missing.available(), false);
  assert.match(missing.unavailableReason!() ?? '', /is not in the session/);
  setServer({ ...server(), channel: undefined, state: { kind: 'starting' } });
  assert.match(channel.unavailableReason!() ?? '', /has no mcp:\/\/ channel \(state: starting\)/);
});

test('a capability the connection lacks is reported with its reason and fails plainly', async () => {
  const { handle } = parts({ mcpChannel: undefined, unavailable: { authenticate: 'tokens go elsewhere', createChat: 'read-only session' } });
  assert.match(handle.unavailable('mcpChannel') ?? '', /without createMcpChannel/);
  assert.equal(handle.unavailable('authenticate'), 'tokens go elsewhere');
  assert.equal(handle.unavailable('reconnect'), undefined);
  await assert.rejects(handle.authenticate({ resource: 'r', token: 't' }), (e: unknown) => e instanceof CapabilityUnavailableError && e.capability === 'authenticate' && e.message === 'tokens go elsewhere');
  await assert.rejects(handle.createChat(), /read-only session/);
  assert.throws(() => handle.mcpChannel('s'), (e: unknown) => e instanceof CapabilityUnavailableError && e.capability === 'mcpChannel');
});

test('createChat sends the session, a generated ahp-chat: URI and a user-origin initial message; authenticate and reconnectNow pass through', async () => {
  const { handle, sent } = parts();
  const uri = await handle.createChat({ initialMessage: { text: 'hi' }, workingDirectories: ['file:///w'] });
  assert.match(uri, /^ahp-chat:\/.+/);
  assert.deepEqual(sent.at(-1), ['createChat', { channel: SESSION, chat: uri, initialMessage: { text: 'hi', origin: { kind: 'user' } }, workingDirectories: ['file:///w'] }]);
  assert.equal(await handle.createChat({ chat: 'ahp-chat:/mine' }), 'ahp-chat:/mine');
  await handle.authenticate({ resource: 'r', token: 't', scopes: ['a'] });
  assert.deepEqual(sent.at(-1), ['authenticate', { resource: 'r', token: 't', scopes: ['a'] }]);
  handle.reconnectNow();
  assert.deepEqual(sent.at(-1), ['reconnectNow', undefined]);
});

test('connection state: current value and every change to subscribers; a throwing listener does not stop the others', () => {
  const errors: unknown[] = [];
  const hub = connectionStateHub({ kind: 'connecting' }, (e) => errors.push(e));
  const { handle } = parts({ connection: hub });
  assert.deepEqual(handle.getConnectionState(), { kind: 'connecting' });
  const seen: string[] = [];
  handle.subscribeConnection(() => {
    throw new Error('bad listener');
  });
  const off = handle.subscribeConnection((s) => void seen.push(s.kind));
  hub.set({ kind: 'open' });
  hub.set({ kind: 'reconnecting', attempt: 1, nextAttemptAt: Date.now() + 100 });
  off();
  hub.set({ kind: 'closed', reason: 'bye' });
  assert.deepEqual(seen, ['open', 'reconnecting']);
  assert.deepEqual(handle.getConnectionState(), { kind: 'closed', reason: 'bye' });
  assert.equal(errors.length, 3);
});

test('mcp:// request with a signal: aborting rejects at once with the reason, the late answer is dropped, unaborted ones answer', async () => {
  const [a, b] = createInMemoryPair();
  const logs: unknown[] = [];
  const client = new JsonRpcPeer(a, { log: (...args) => void logs.push(args) });
  const host = new JsonRpcPeer(b);
  let answer!: (v: unknown) => void;
  const seen: unknown[] = [];
  host.onRequest('tools/call', (params) => (seen.push(params), new Promise((r) => (answer = r))));
  host.onRequest('resources/read', () => ({ contents: [] }));
  const server = { type: 'mcpServer', id: 's', name: 'S', state: { kind: 'ready' }, channel: 'mcp://s/1', mcpApp: { capabilities: { serverTools: {}, serverResources: {} } } };
  const channel = createMcpChannel({ client: client as never, getServer: () => server as never });
  const abort = new AbortController();
  const pending = channel.request('tools/call', { name: 'slow' }, { signal: abort.signal });
  while (!answer) await new Promise((r) => setTimeout(r, 1));
  assert.deepEqual(seen, [{ name: 'slow', channel: 'mcp://s/1' }]);
  abort.abort(new Error('user closed the App'));
  await assert.rejects(pending, /user closed the App/);
  answer({ late: true });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(logs, [], 'the late answer is taken by the peer, not reported');
  const already = new AbortController();
  already.abort();
  await assert.rejects(channel.request('resources/read', {}, { signal: already.signal }), (e: unknown) => (e as Error).name === 'AbortError');
  assert.deepEqual(await channel.request('resources/read', {}, { signal: new AbortController().signal }), { contents: [] });
  client.close();
  host.close();
});

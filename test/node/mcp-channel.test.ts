import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AhpClient,
  McpChannelUnavailableError,
  RpcError,
  allowedMcpMethods,
  createInMemoryPair,
  createMcpChannel,
  type McpChannelClient,
} from '../../src/client/index.js';
import { HostCore, attachTransport, mcpChannelMethods } from '../../src/host.js';
import type { AhpMcpUiHostCapabilities, McpServerCustomization, SessionState } from '../../src/protocol/index.js';
import { mcpServer } from './fixtures/host.js';

const SESSION = 'ahp-session:/mcp';
const quiet = () => {};

function server(over: Partial<McpServerCustomization> = {}): McpServerCustomization {
  return mcpServer('apps', { name: 'Apps', channel: 'mcp://apps/1', mcpApp: { capabilities: { serverTools: {}, serverResources: {} } }, ...over });
}

/** Records what the channel sends through the shared client. */
function fakeClient() {
  const sent: { kind: 'request' | 'notify'; method: string; params: unknown }[] = [];
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const client: McpChannelClient = {
    request: async <R>(method: string, params?: unknown) => {
      sent.push({ kind: 'request', method, params });
      return { ok: method } as R;
    },
    notify: (method, params) => void sent.push({ kind: 'notify', method, params }),
    onNotification: (method, l) => {
      let set = listeners.get(method);
      if (!set) listeners.set(method, (set = new Set()));
      set.add(l);
      return () => set.delete(l);
    },
  };
  const emit = (method: string, params: unknown) => listeners.get(method)?.forEach((l) => l(params));
  return { client, sent, emit };
}

test('requests and notifications carry the server channel in params; results come back', async () => {
  const { client, sent } = fakeClient();
  const current = server({ mcpApp: { capabilities: { serverTools: {}, logging: {} } } });
  const channel = createMcpChannel({ client, getServer: () => current });
  assert.equal(channel.available(), true);
  assert.deepEqual(await channel.request('tools/call', { name: 'echo', arguments: { x: 1 } }), { ok: 'tools/call' });
  channel.notify('notifications/message', { level: 'info', data: 'hi' });
  assert.deepEqual(sent, [
    { kind: 'request', method: 'tools/call', params: { name: 'echo', arguments: { x: 1 }, channel: 'mcp://apps/1' } },
    { kind: 'notify', method: 'notifications/message', params: { level: 'info', data: 'hi', channel: 'mcp://apps/1' } },
  ]);
  // A params.channel from the caller cannot redirect the call.
  await channel.request('tools/list', { channel: 'mcp://elsewhere' });
  assert.equal((sent.at(-1)!.params as { channel: string }).channel, 'mcp://apps/1');
});

test('methods the advertised capabilities do not serve are rejected locally with -32601 and never sent', async () => {
  const { client, sent } = fakeClient();
  const channel = createMcpChannel({ client, getServer: () => server({ mcpApp: { capabilities: { serverResources: {} } } }) });
  for (const method of ['tools/call', 'tools/list', 'sampling/createMessage', 'logging/setLevel', 'prompts/list', 'initialize']) {
    await assert.rejects(channel.request(method, {}), (err: unknown) => err instanceof RpcError && err.code === -32601 && err.message.includes(method), method);
  }
  assert.throws(() => channel.notify('notifications/message', {}), (err: unknown) => err instanceof RpcError && err.code === -32601);
  await channel.request('resources/templates/list', {});
  assert.deepEqual(sent.map((s) => s.method), ['resources/templates/list']);
  // No mcpApp at all: nothing is allowed.
  const bare = createMcpChannel({ client, getServer: () => server({ mcpApp: undefined }) });
  await assert.rejects(bare.request('tools/list'), (err: unknown) => err instanceof RpcError && err.code === -32601);
});

test('unavailable with a clear error while the server has no channel (or is gone); re-read on every call', async () => {
  const { client, sent } = fakeClient();
  let current: McpServerCustomization | undefined = server({ channel: undefined, state: { kind: 'starting' } });
  const channel = createMcpChannel({ client, getServer: () => current });
  assert.equal(channel.available(), false);
  await assert.rejects(channel.request('tools/list'), (err: unknown) => {
    assert.ok(err instanceof McpChannelUnavailableError);
    assert.match(err.message, /'Apps' \(apps\) has no mcp:\/\/ channel \(state: starting\)/);
    return true;
  });
  assert.throws(() => channel.notify('tools/list'), McpChannelUnavailableError);

  current = server({ channel: 'mcp://apps/2' });
  assert.equal(channel.available(), true);
  await channel.request('tools/list');
  current = server({ channel: 'mcp://apps/3' });
  await channel.request('tools/list');
  assert.deepEqual(sent.map((s) => (s.params as { channel: string }).channel), ['mcp://apps/2', 'mcp://apps/3'], 'the channel is re-read each time');

  current = undefined;
  assert.equal(channel.available(), false);
  await assert.rejects(channel.request('tools/list'), /not in the session/);
  current = server({ channel: '' });
  assert.equal(channel.available(), false);
});

test('onNotification delivers only the current channel, without the routing field', () => {
  const { client, emit } = fakeClient();
  let current = server();
  const channel = createMcpChannel({ client, getServer: () => current });
  const got: unknown[] = [];
  const off = channel.onNotification('notifications/tools/list_changed', (p) => got.push(p));
  emit('notifications/tools/list_changed', { channel: 'mcp://apps/1', x: 1 });
  emit('notifications/tools/list_changed', { channel: 'mcp://other', x: 2 });
  current = server({ channel: 'mcp://apps/9' });
  emit('notifications/tools/list_changed', { channel: 'mcp://apps/1', x: 3 });
  emit('notifications/tools/list_changed', { channel: 'mcp://apps/9', x: 4 });
  emit('notifications/tools/list_changed', null);
  off();
  emit('notifications/tools/list_changed', { channel: 'mcp://apps/9', x: 5 });
  assert.deepEqual(got, [{ x: 1 }, { x: 4 }]);
});

test('client and host agree on which methods each capability serves', () => {
  const sets: AhpMcpUiHostCapabilities[] = [{}, { serverTools: {} }, { serverResources: {} }, { logging: {} }, { sampling: { tools: {} } }, { serverTools: {}, serverResources: {}, logging: {}, sampling: {} }];
  for (const caps of sets) assert.deepEqual([...allowedMcpMethods(caps)].sort(), [...mcpChannelMethods(caps)].sort(), JSON.stringify(caps));
});

test('end to end over the shared AHP connection: HostCore.handleChannel serves it, one id counter with AHP requests', async () => {
  const host = new HostCore({ log: quiet });
  const state: SessionState = { provider: 'p', title: 't', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [server()] };
  host.createSession(SESSION, state);
  const calls: [string, unknown][] = [];
  host.handleChannel('mcp://', (method, params, ctx) => {
    calls.push([method, params]);
    if (method === 'tools/call') throw Object.assign(new Error('tool failed'), { code: -32000 });
    return { via: ctx.server?.id };
  });
  const [clientSide, serverSide] = createInMemoryPair();
  const ids: number[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (msg) => {
    if ('id' in msg && 'method' in msg) ids.push(msg.id as number);
    send(msg);
  };
  attachTransport(host, serverSide);
  const client = new AhpClient({ transport: clientSide, clientId: 'page', log: quiet });
  await client.initialize();
  const snapshot = (await client.subscribe(SESSION)).snapshot!.state as SessionState;
  const channel = createMcpChannel({ client, getServer: () => snapshot.customizations![0] as McpServerCustomization });
  assert.deepEqual(await channel.request('resources/read', { uri: 'ui://widget' }), { via: 'apps' });
  await assert.rejects(channel.request('tools/call', { name: 'x' }), (err: unknown) => err instanceof RpcError && err.code === -32000);
  await client.ping();
  assert.deepEqual(ids, [1, 2, 3, 4, 5], 'AHP and MCP requests share one id counter');
  assert.deepEqual(calls, [
    ['resources/read', { uri: 'ui://widget', channel: 'mcp://apps/1' }],
    ['tools/call', { name: 'x', channel: 'mcp://apps/1' }],
  ]);

  const note = new Promise<unknown>((r) => channel.onNotification('notifications/resources/list_changed', r));
  assert.equal(host.notifyChannel('mcp://apps/1', 'notifications/resources/list_changed'), 1);
  assert.deepEqual(await note, {});
  client.close();
});

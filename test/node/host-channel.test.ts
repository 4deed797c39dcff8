import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostCore, mcpChannelMethods, type ChannelRequestContext } from '../../src/host.js';
import type { PluginCustomization, SessionState } from '../../src/protocol/index.js';
import { mcpServer, sessionState } from './fixtures/host.js';

const SESSION = 'ahp-session:/chan';

function fixture(): SessionState {
  const tools = mcpServer('tools', { name: 'Tools', channel: 'mcp://tools', mcpApp: { capabilities: { serverTools: {}, logging: {} } } });
  const child = mcpServer('res', { name: 'Resources', channel: 'mcp://res', mcpApp: { capabilities: { serverResources: { listChanged: true } } } });
  const plugin: PluginCustomization = { type: 'plugin', id: 'p', uri: 'plugin:/p', name: 'P', children: [child] };
  return sessionState({ title: 't', customizations: [tools, plugin] });
}

type Msg = { id?: number; result?: unknown; error?: { code: number; message: string }; method?: string; params?: Record<string, unknown> };

function setup(mcpApps = true) {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, fixture());
  const sent: Msg[] = [];
  const conn = host.connect({ send: (m) => void sent.push(m as Msg), close: () => {} });
  let id = 0;
  const request = async (method: string, params: unknown): Promise<Msg> => {
    const my = ++id;
    conn.receive({ jsonrpc: '2.0', id: my, method, params });
    for (let i = 0; i < 10 && !sent.some((m) => m.id === my); i++) await new Promise((r) => setTimeout(r, 0));
    return sent.find((m) => m.id === my)!;
  };
  conn.receive({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'c', ...(mcpApps && { capabilities: { mcpApps: {} } }) },
  });
  return { host, conn, sent, request };
}

test('handleChannel serves advertised mcp:// methods with the server customization in the context', async () => {
  const { host, request } = setup();
  const seen: [string, Record<string, unknown>, ChannelRequestContext][] = [];
  host.handleChannel('mcp://', async (method, params, ctx) => {
    seen.push([method, params, ctx]);
    return { tools: [{ name: 'echo' }] };
  });
  const answer = await request('tools/list', { channel: 'mcp://tools', cursor: 'x' });
  assert.deepEqual(answer.result, { tools: [{ name: 'echo' }] });
  const read = await request('resources/read', { channel: 'mcp://res', uri: 'ui://a' });
  assert.ok(read.result, 'a child server inside a plugin is found too');
  assert.deepEqual(seen.map(([m, p, c]) => [m, p.channel, c.clientId, c.channel, c.server?.id, c.notification]), [
    ['tools/list', 'mcp://tools', 'c', 'mcp://tools', 'tools', false],
    ['resources/read', 'mcp://res', 'c', 'mcp://res', 'res', false],
  ]);
});

test('methods outside the advertised capabilities are -32601 and never reach the handler', async () => {
  const { host, request } = setup();
  let calls = 0;
  host.handleChannel('mcp://', () => void calls++);
  for (const [channel, method] of [
    ['mcp://tools', 'resources/read'],
    ['mcp://tools', 'sampling/createMessage'],
    ['mcp://res', 'tools/call'],
    ['mcp://res', 'completion/complete'],
    ['mcp://tools', 'prompts/list'],
  ] as const) {
    const answer = await request(method, { channel });
    assert.equal(answer.error?.code, -32601, `${method} on ${channel}`);
  }
  assert.equal(calls, 0);
});

test('unknown mcp:// channels are -32008; clients without mcpApps get -32009; other channels pass through with no server', async () => {
  const { host, request } = setup();
  host.handleChannel('mcp://', () => 'served');
  host.handleChannel((channel) => channel.startsWith('x-demo:'), (_m, _p, ctx) => ({ server: ctx.server ?? null }));
  assert.equal((await request('tools/list', { channel: 'mcp://old' })).error?.code, -32008);
  assert.deepEqual((await request('anything', { channel: 'x-demo:/1' })).result, { server: null });
  assert.equal((await request('anything', { channel: 'ahp-root://' })).error?.code, -32601, 'no route, no handler');

  const plain = setup(false);
  plain.host.handleChannel('mcp://', () => 'served');
  assert.equal((await plain.request('tools/list', { channel: 'mcp://tools' })).error?.code, -32009);
});

test('channel notifications are routed and gated; refusals are only logged; the handler can be removed', async () => {
  const { host, conn } = setup();
  const got: string[] = [];
  const off = host.handleChannel('mcp://', (method, _params, ctx) => void got.push(`${method}@${ctx.channel}:${ctx.notification}`));
  conn.receive({ jsonrpc: '2.0', method: 'notifications/message', params: { channel: 'mcp://tools', level: 'info', data: 'hi' } });
  conn.receive({ jsonrpc: '2.0', method: 'notifications/message', params: { channel: 'mcp://res', level: 'info', data: 'no logging capability' } });
  assert.deepEqual(got, ['notifications/message@mcp://tools:true']);
  off();
  conn.receive({ jsonrpc: '2.0', method: 'notifications/message', params: { channel: 'mcp://tools', level: 'info', data: 'unrouted' } });
  assert.equal(got.length, 1);
});

test('notifyChannel reaches initialized mcpApps connections with the channel in params', () => {
  const apps = setup();
  const plain = setup(false);
  const host = apps.host;
  const other: Msg[] = [];
  const third = host.connect({ send: (m) => void other.push(m as Msg), close: () => {} });
  third.receive({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { channel: 'ahp-root://', protocolVersions: ['1.0.0'], clientId: 'plain', initialSubscriptions: [] } });
  const before = apps.sent.length;
  assert.equal(host.notifyChannel('mcp://res', 'notifications/resources/list_changed'), 1);
  assert.deepEqual(apps.sent.slice(before), [{ jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { channel: 'mcp://res' } }]);
  assert.equal(other.filter((m) => m.method).length, 0, 'a client without mcpApps gets nothing');
  assert.equal(plain.sent.filter((m) => m.method).length, 0);
});

test('mcpChannelMethods maps each capability to its methods and ignores junk', () => {
  assert.deepEqual([...mcpChannelMethods({ serverTools: {}, sampling: {} })].sort(), ['sampling/createMessage', 'tools/call', 'tools/list']);
  assert.deepEqual([...mcpChannelMethods({ serverResources: {}, logging: {} })].sort(), [
    'logging/setLevel',
    'notifications/message',
    'resources/list',
    'resources/read',
    'resources/templates/list',
  ]);
  assert.equal(mcpChannelMethods(undefined).size, 0);
  assert.equal(mcpChannelMethods({ serverTools: true } as never).size, 0);
  assert.equal(mcpChannelMethods({ unknownCap: {} } as never).size, 0);
});

// MCP Apps in the playground: the host advertises the UI extension to real MCP servers, publishes mcpApp +
// channel per ready server, and relays the mcp:// channel to them (capability-gated), over HostCore and the
// client's createMcpChannel.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AhpClient, RpcError, createInMemoryPair } from '../../src/client/index.js';
import { createMcpChannel, type McpChannel } from '../../src/mcp-channel.js';
import { HostCore, attachTransport } from '../../src/host.js';
import { ErrorCode, type McpServerCustomization, type SessionState } from '../../src/protocol/index.js';
import { locateMcpServer, sessionReducer } from '../../src/reducers/index.js';
import { parseConfig, type PlaygroundConfig } from '../../examples/playground/config.js';
import { McpServerRuntime } from '../../examples/playground/mcp-runtime.js';
import { driveServers, type ServerLifecycle } from '../../examples/playground/server-lifecycle.js';
import { playgroundSessionState } from '../../examples/playground/session-state.js';
import { serveMcpChannels } from '../../examples/playground/apps/mcp-channel-relay.js';
import { mcpAppCapabilities } from '../../examples/playground/apps/mcp-app-capabilities.js';
import { publishedServer } from '../fixtures/mcp-servers.js';

const SESSION = 'ahp-session:/apps-test';
const WAIT_MS = 20_000;
const quiet = { warn() {}, error() {} } as never;

// A minimal stdio MCP server: reports what the client declared, has logging, and announces a tool-list change
// when its `touch` tool is called. Written by hand (no SDK) so the test sees the raw client capabilities.
const FAKE_SERVER = String.raw`
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') {
    process.stderr.write('CAPS ' + JSON.stringify(m.params.capabilities) + '\n');
    return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, serverInfo: { name: 'fake', version: '1' },
      capabilities: { tools: { listChanged: true }, logging: {} } } });
  }
  if (m.method === 'tools/list') return send({ id: m.id, result: { tools: [{ name: 'touch', inputSchema: { type: 'object' } }] } });
  if (m.method === 'tools/call') {
    send({ method: 'notifications/tools/list_changed' });
    return send({ id: m.id, result: { content: [{ type: 'text', text: 'touched ' + JSON.stringify(m.params.arguments ?? {}) }] } });
  }
  if (m.method === 'logging/setLevel') { process.stderr.write('LEVEL ' + m.params.level + '\n'); return send({ id: m.id, result: {} }); }
  if (m.method === 'notifications/message') return process.stderr.write('LOG ' + JSON.stringify(m.params) + '\n');
  if (m.id !== undefined && m.method) send({ id: m.id, error: { code: -32601, message: 'nope' } });
});
`;

const CONFIG = {
  containers: [{ id: 'apps', type: 'plugin', name: 'Apps' }],
  servers: [
    publishedServer('server-basic-vanillajs', 'basic-vanillajs', 'Basic', { container: 'apps' }),
    publishedServer('server-debug', 'debug', 'Debug'),
    { id: 'fake', name: 'Fake', transport: 'stdio', command: 'node', args: ['-e', FAKE_SERVER] },
  ],
};

async function until<T>(what: string, read: () => T | undefined | false, now: () => unknown = () => ''): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; now: ${JSON.stringify(now())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const isRpcError = (code: number) => (err: unknown) => {
  assert.ok(err instanceof RpcError, `expected an RpcError, got ${String(err)}`);
  assert.equal(err.code, code, err.message);
  return true;
};

describe('playground MCP Apps: capabilities, channels and the mcp:// relay (real servers)', () => {
  let config: PlaygroundConfig;
  let host: HostCore;
  let runtimes: Map<string, McpServerRuntime>;
  let lifecycle: ServerLifecycle;
  let stopRelay: () => void;
  let client: AhpClient;
  let state: SessionState;
  const stderr: string[] = [];
  const server = (id: string) => locateMcpServer(state, id)?.server;
  const channelOf = (id: string): McpChannel => createMcpChannel({ client, getServer: () => server(id) });
  const summary = () => ['basic-vanillajs', 'debug', 'fake'].map((id) => [id, server(id)?.state.kind, server(id)?.channel]);

  before(async () => {
    config = parseConfig(CONFIG);
    host = new HostCore({ log: quiet });
    host.createSession(SESSION, playgroundSessionState(config, 'http://127.0.0.1:1/'));
    runtimes = new Map(config.servers.map((s) => [s.id, new McpServerRuntime(s, { onStderrLine: (line) => stderr.push(`${s.id}: ${line}`) })]));
    lifecycle = driveServers(host, SESSION, runtimes);
    stopRelay = serveMcpChannels(host, runtimes);
    const [clientSide, hostSide] = createInMemoryPair();
    attachTransport(host, hostSide);
    client = new AhpClient({ transport: clientSide, clientId: 'apps-test', log: quiet });
    client.onAction((env) => {
      if (env.channel === SESSION) state = sessionReducer(state, env.action);
    });
    await client.initialize();
    state = (await client.subscribe(SESSION)).snapshot!.state as SessionState;
    await lifecycle.startEnabled();
    await until('every server ready with a channel', () => summary().every(([, kind, ch]) => kind === 'ready' && ch), summary);
  });
  after(async () => {
    client?.close();
    stopRelay?.();
    lifecycle?.dispose();
    await Promise.all([...(runtimes?.values() ?? [])].map((rt) => rt.stop()));
  });

  it('the MCP client advertises MCP Apps support (io.modelcontextprotocol/ui with the mcp-app mime type)', () => {
    const line = stderr.find((l) => l.startsWith('fake: CAPS '));
    assert.ok(line, `the fake server saw initialize; stderr: ${stderr.join('\n')}`);
    const caps = JSON.parse(line.slice('fake: CAPS '.length));
    assert.deepEqual(caps.extensions, { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
  });

  it('derives mcpApp.capabilities from the MCP capabilities; sampling never (no model here)', () => {
    assert.deepEqual(mcpAppCapabilities({ tools: {}, resources: { listChanged: true }, logging: {}, prompts: {} }), {
      serverTools: {},
      serverResources: { listChanged: true },
      logging: {},
    });
    assert.equal(mcpAppCapabilities({ prompts: {} }), undefined, 'nothing an App can use → no mcpApp');
    assert.equal(mcpAppCapabilities(undefined), undefined);
  });

  it('a ready server carries mcpApp and a per-start mcp:// channel (a nested one via its re-sent container)', () => {
    const basic = server('basic-vanillajs')!;
    assert.deepEqual(basic.mcpApp, { capabilities: { serverTools: { listChanged: true }, serverResources: { listChanged: true } } });
    assert.match(basic.channel!, /^mcp:\/\/basic-vanillajs\/\d+$/);
    assert.equal(locateMcpServer(state, 'basic-vanillajs')?.container?.id, 'apps', 'still inside its container');
    assert.deepEqual(server('debug')!.mcpApp, { capabilities: { serverTools: { listChanged: true }, serverResources: { listChanged: true } } });
    assert.deepEqual(server('fake')!.mcpApp, { capabilities: { serverTools: { listChanged: true }, logging: {} } });
    const channels = new Set(['basic-vanillajs', 'debug', 'fake'].map((id) => server(id)!.channel));
    assert.equal(channels.size, 3, 'every server has its own channel');
    assert.deepEqual(host.getSessionState(SESSION), state, 'the client mirrors the host');
  });

  it('relays tools/list, tools/call, resources/list, resources/templates/list and resources/read to basic-vanillajs', async () => {
    const ch = channelOf('basic-vanillajs');
    const { tools } = await ch.request<{ tools: { name: string; _meta?: { ui?: { resourceUri?: string } } }[] }>('tools/list');
    const getTime = tools.find((t) => t.name === 'get-time');
    assert.equal(getTime?._meta?.ui?.resourceUri, 'ui://get-time/mcp-app.html', 'tool _meta comes through verbatim');
    const result = await ch.request<{ content: { type: string; text?: string }[] }>('tools/call', { name: 'get-time', arguments: {} });
    assert.equal(result.content[0]?.type, 'text');
    assert.ok(!Number.isNaN(Date.parse(result.content[0]!.text!)), `a time: ${result.content[0]!.text}`);
    const { resources } = await ch.request<{ resources: { uri: string }[] }>('resources/list');
    assert.deepEqual(resources.map((r) => r.uri), ['ui://get-time/mcp-app.html']);
    assert.deepEqual(await ch.request('resources/templates/list'), { resourceTemplates: [] });
    const read = await ch.request<{ contents: { uri: string; mimeType: string; text: string }[] }>('resources/read', { uri: 'ui://get-time/mcp-app.html' });
    assert.equal(read.contents.length, 1);
    assert.equal(read.contents[0]!.mimeType, 'text/html;profile=mcp-app');
    assert.match(read.contents[0]!.text, /<html/i);
  });

  it('relays to server-debug: its app-only tool, its View resource, and the server\'s own errors', async () => {
    const ch = channelOf('debug');
    const { tools } = await ch.request<{ tools: { name: string; _meta?: { ui?: { visibility?: string[] } } }[] }>('tools/list');
    assert.deepEqual(tools.find((t) => t.name === 'debug-refresh')?._meta?.ui?.visibility, ['app']);
    const refreshed = await ch.request<{ content: unknown[]; isError?: boolean }>('tools/call', { name: 'debug-refresh', arguments: {} });
    assert.ok(Array.isArray(refreshed.content) && !refreshed.isError);
    const failed = await ch.request<{ isError?: boolean }>('tools/call', { name: 'debug-tool', arguments: { simulateError: true } });
    assert.equal(failed.isError, true, 'a tool error is a result, relayed as is');
    const read = await ch.request<{ contents: { mimeType: string }[] }>('resources/read', { uri: 'ui://debug-tool/mcp-app.html' });
    assert.equal(read.contents[0]!.mimeType, 'text/html;profile=mcp-app');
    await assert.rejects(ch.request('resources/read', { uri: 'ui://nope' }), (err: unknown) => err instanceof RpcError, 'the server\'s error comes back');
  });

  it('the host answers -32601 for methods outside the advertised capabilities (bypassing the client\'s own gating)', async () => {
    const basic = server('basic-vanillajs')!.channel!;
    for (const method of ['logging/setLevel', 'prompts/list', 'sampling/createMessage', 'completion/complete', 'resources/subscribe']) {
      await assert.rejects(client.request(method, { channel: basic, level: 'info' }), isRpcError(ErrorCode.MethodNotFound), method);
    }
    const fake = server('fake')!.channel!;
    await assert.rejects(client.request('resources/list', { channel: fake }), isRpcError(ErrorCode.MethodNotFound), 'no serverResources on fake');
    await assert.rejects(channelOf('fake').request('resources/read', { uri: 'ui://x' }), isRpcError(ErrorCode.MethodNotFound), 'the client gates too');
  });

  it('logging: logging/setLevel and notifications/message reach a server that has logging', async () => {
    const ch = channelOf('fake');
    assert.deepEqual(await ch.request('logging/setLevel', { level: 'debug' }), {});
    ch.notify('notifications/message', { level: 'info', data: 'hello from an App' });
    await until('the log line at the server', () => stderr.some((l) => l.includes('LOG') && l.includes('hello from an App')), () => stderr.slice(-5));
    assert.ok(stderr.some((l) => l === 'fake: LEVEL debug'));
  });

  it('forwards the server\'s tools/list_changed on its channel when listChanged is advertised', async () => {
    const ch = channelOf('fake');
    const changed = new Promise<Record<string, unknown>>((resolve) => ch.onNotification('notifications/tools/list_changed', resolve));
    const result = await ch.request<{ content: { text: string }[] }>('tools/call', { name: 'touch', arguments: { n: 1 } });
    assert.equal(result.content[0]!.text, 'touched {"n":1}');
    assert.deepEqual(await changed, {});
  });

  it('channel lifecycle: cleared with mcpApp when the server stops, a new one on restart, the old one refused', async () => {
    const before = server('debug')!.channel!;
    client.dispatch({ channel: SESSION, clientSeq: 1, action: { type: 'session/mcpServerStopRequested', id: 'debug' } });
    await until('debug stopped', () => server('debug')?.state.kind === 'stopped', summary);
    await lifecycle.idle();
    assert.equal(server('debug')!.channel, undefined);
    assert.equal(server('debug')!.mcpApp, undefined, 'mcpApp is cleared while not ready');
    assert.equal(channelOf('debug').available(), false);
    await assert.rejects(client.request('tools/list', { channel: before }), isRpcError(ErrorCode.NotFound));

    client.dispatch({ channel: SESSION, clientSeq: 2, action: { type: 'session/mcpServerStartRequested', id: 'debug' } });
    const after = await until('debug ready with a channel', () => server('debug')?.state.kind === 'ready' && server('debug')?.channel, summary);
    assert.notEqual(after, before, 'a new channel per start');
    assert.ok(server('debug')!.mcpApp?.capabilities.serverTools);
    await assert.rejects(client.request('tools/list', { channel: before }), isRpcError(ErrorCode.NotFound), 'the old channel is gone');
    const { tools } = await channelOf('debug').request<{ tools: unknown[] }>('tools/list');
    assert.ok(tools.length >= 3);
  });

  it('a server whose process dies loses its channel; requests on it are refused, not hung', async () => {
    const ch = server('basic-vanillajs')!.channel!;
    process.kill(runtimes.get('basic-vanillajs')!.pid!, 'SIGKILL');
    await until('basic-vanillajs in error', () => server('basic-vanillajs')?.state.kind === 'error', summary);
    assert.equal(server('basic-vanillajs')!.channel, undefined);
    assert.equal(server('basic-vanillajs')!.mcpApp, undefined);
    assert.equal(locateMcpServer(state, 'basic-vanillajs')?.container?.id, 'apps');
    await assert.rejects(client.request('tools/list', { channel: ch }), isRpcError(ErrorCode.NotFound));
  });

  it('a client that did not declare mcpApps sees neither mcpApp nor channel and cannot use the channel', async () => {
    const [clientSide, hostSide] = createInMemoryPair();
    attachTransport(host, hostSide);
    const replies = new Map<number, { result?: unknown; error?: { code: number } }>();
    clientSide.onmessage = (msg) => {
      const m = msg as { id?: number; result?: unknown; error?: { code: number } };
      if (typeof m.id === 'number') replies.set(m.id, m);
    };
    const call = async (id: number, method: string, params: Record<string, unknown>) => {
      clientSide.send({ jsonrpc: '2.0', id, method, params } as never);
      return until(`reply ${id}`, () => replies.get(id));
    };
    const init = await call(1, 'initialize', { channel: 'ahp-root://', protocolVersions: ['0.5.2', '1.0.0', '1.1.0'], clientId: 'plain', capabilities: {} });
    assert.ok(init.result, JSON.stringify(init));
    const sub = (await call(2, 'subscribe', { channel: SESSION })) as { result: { snapshot: { state: SessionState } } };
    const seen = locateMcpServer(sub.result.snapshot.state, 'debug')?.server as McpServerCustomization;
    assert.equal(seen.state.kind, 'ready');
    assert.equal(seen.channel, undefined);
    assert.equal(seen.mcpApp, undefined);
    const denied = await call(3, 'tools/list', { channel: server('debug')!.channel });
    assert.equal(denied.error?.code, ErrorCode.PermissionDenied);
    clientSide.close();
  });
});

// Real parts: a View request relayed over mcp:// (WebSocket to the playground host, stdio to a real MCP server
// process) outlives the client's default request timeout: it ends on the server's answer, on the View's cancel, or
// at the bridge's relay limit. The client's timeout is scaled down (300 ms) to stand for the 30 s default.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { connectSession, type SessionConnection } from '../../src/connection/connect-session.js';
import { createMcpChannel } from '../../src/mcp-channel.js';
import { AppBridgeHost } from '../../src/apps/bridge.js';
import { viewTransport } from '../fixtures/apps/view-transport.js';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { parseConfig } from '../../examples/playground/config.js';

// A stdio MCP server with one slow tool (answers after `ms`), written by hand so nothing else is in play.
const SLOW_SERVER = String.raw`
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') return send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, serverInfo: { name: 'slow', version: '1' }, capabilities: { tools: {} } } });
  if (m.method === 'tools/list') return send({ id: m.id, result: { tools: [{ name: 'long-poll', inputSchema: { type: 'object' } }] } });
  if (m.method === 'tools/call') return setTimeout(() => send({ id: m.id, result: { content: [{ type: 'text', text: 'answered after ' + m.params.arguments.ms }] } }), m.params.arguments.ms);
  if (m.id !== undefined && m.method) send({ id: m.id, error: { code: -32601, message: 'nope' } });
});
`;

const until = async <T>(what: string, read: () => T | undefined | false) => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = read();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('View requests over mcp:// are not cut at the client\'s request timeout', () => {
  let playground: Playground;
  let conn: SessionConnection;

  /** A bridge with the test playing the View. */
  function view(relayTimeoutMs?: number) {
    const { transport, sent, deliver } = viewTransport();
    const server = conn.store.getState()!.customizations!.find((c) => c.id === 'slow') as { mcpApp?: { capabilities: never } };
    const bridge = new AppBridgeHost({ transport, channel: conn.handle.mcpChannel!('slow'), capabilities: server.mcpApp!.capabilities, ...(relayTimeoutMs && { relayTimeoutMs }) }).start();
    return { bridge, sent, send: (m: Record<string, unknown>) => deliver({ jsonrpc: '2.0', ...m }) };
  }

  before(async () => {
    playground = await startPlayground({ port: 0, config: parseConfig({ servers: [{ id: 'slow', name: 'Slow', transport: 'stdio', command: 'node', args: ['-e', SLOW_SERVER] }] }) });
    await playground.startServers();
    conn = connectSession({ url: playground.wsUrl, session: playground.sessionUri, WebSocket: WebSocket as never, requestTimeoutMs: 300, createMcpChannel });
    await conn.ready;
    await until('the server\'s channel', () => (conn.store.getState()?.customizations?.find((c) => c.id === 'slow') as { channel?: string } | undefined)?.channel);
  });
  after(async () => {
    conn?.close();
    await playground?.close();
  });

  it('a long-poll far longer than the client timeout is answered', async () => {
    const v = view();
    v.send({ id: 1, method: 'tools/call', params: { name: 'long-poll', arguments: { ms: 1500 } } });
    const answer = await until('the answer', () => v.sent.find((m) => m.id === 1));
    assert.equal(answer.result?.content?.[0]?.text, 'answered after 1500', JSON.stringify(answer));
    v.bridge.close();
  });

  it('the View\'s cancel ends the wait without an answer; the relay limit ends it with an error', async () => {
    const v = view(800);
    v.send({ id: 2, method: 'tools/call', params: { name: 'long-poll', arguments: { ms: 1500 } } });
    v.send({ id: 3, method: 'tools/call', params: { name: 'long-poll', arguments: { ms: 5000 } } });
    await new Promise((r) => setTimeout(r, 100));
    v.send({ method: 'notifications/cancelled', params: { requestId: 2 } });
    const timedOut = await until('the limit', () => v.sent.find((m) => m.id === 3));
    assert.match(timedOut.error?.message ?? '', /no answer within 800 ms/, JSON.stringify(timedOut));
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(v.sent.filter((m) => m.id === 2).length, 0, 'a cancelled request is not answered');
    v.bridge.close();
  });
});

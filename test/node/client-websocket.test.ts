import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocketServer, WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { AhpClient, WebSocketTransport } from '../../src/client/index.js';
import { HostCore, attachWebSocket } from '../../src/host.js';
import type { ActionEnvelope, SessionState } from '../../src/protocol/index.js';

const SESSION = 'ahp-session:/ws';
const state: SessionState = { provider: 't', title: 'Before', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [] };

async function listen(onConnection: (socket: WebSocket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', onConnection);
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
}

test('AhpClient over a real WebSocket to HostCore: initialize, subscribe, dispatch echo', async () => {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, state);
  const server = await listen((socket) => attachWebSocket(host, socket));
  try {
    const transport = await WebSocketTransport.connect(server.url, { WebSocket });
    const client = new AhpClient({ transport, clientId: 'ws-client', log: () => {} });
    const echoed = new Promise<ActionEnvelope>((r) => client.onAction(r));
    assert.equal((await client.initialize()).protocolVersion, '1.1.0');
    const { snapshot } = await client.subscribe(SESSION);
    assert.equal((snapshot!.state as SessionState).title, 'Before');
    client.dispatch({ channel: SESSION, clientSeq: client.nextClientSeq(), action: { type: 'session/titleChanged', title: 'After' } });
    const env = await echoed;
    assert.deepEqual(env.origin, { clientId: 'ws-client', clientSeq: 1 });
    assert.equal(host.getSessionState(SESSION)!.title, 'After');
    const closed = new Promise<string | undefined>((r) => client.onClose(r));
    client.close();
    assert.equal(await closed, 'closed by client');
  } finally {
    await server.close();
  }
});

test('WebSocketTransport decodes binary frames, skips unparsable ones and reports the close reason', async () => {
  const server = await listen((socket) => {
    socket.send('{"jsonrpc":"2.0","method":"first"}');
    socket.send('this is not json');
    socket.send(Buffer.from('{"jsonrpc":"2.0","method":"binary"}'), { binary: true });
    socket.close(4000, 'going away now');
  });
  try {
    const logged: string[] = [];
    const transport = await WebSocketTransport.connect(server.url, { WebSocket, log: (m) => logged.push(m) });
    const got: unknown[] = [];
    transport.onmessage = (m) => got.push(m);
    const reason = await new Promise<string | undefined>((r) => (transport.onclose = r));
    assert.deepEqual(got, [
      { jsonrpc: '2.0', method: 'first' },
      { jsonrpc: '2.0', method: 'binary' },
    ]);
    assert.equal(logged.length, 1);
    assert.equal(reason, 'going away now');
  } finally {
    await server.close();
  }
});

test('WebSocketTransport.connect rejects when nothing listens, without leaking the query string', async () => {
  const server = await listen(() => {});
  const url = server.url;
  await server.close();
  await assert.rejects(WebSocketTransport.connect(`${url}/?token=secret`, { WebSocket }), (err: unknown) => {
    assert.ok(err instanceof Error);
    assert.match(err.message, /failed/);
    assert.doesNotMatch(err.message, /secret/);
    return true;
  });
});

test('WebSocketTransport.connect without any WebSocket implementation explains what to pass', async () => {
  assert.equal(typeof (globalThis as { WebSocket?: unknown }).WebSocket, 'undefined', 'Node 20 has no global WebSocket');
  await assert.rejects(WebSocketTransport.connect('ws://127.0.0.1:1'), /pass \{ WebSocket \}/);
});

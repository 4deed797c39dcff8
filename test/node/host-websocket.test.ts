// One bad frame used to end the host process (no 'error' listener, ws's 100 MiB default frame limit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { connectSession } from '../../src/connection/connect-session.js';
import { DEFAULT_MAX_FRAME_BYTES, HostCore, attachWebSocket, attachWebSocketServer, webSocketServerOptions } from '../../src/host.js';
import type { SessionState } from '../../src/protocol/index.js';

const SESSION = 'ahp-session:/ws';
const state: SessionState = { provider: 't', title: 't', status: 1, lifecycle: 'ready', activeClients: [], chats: [], customizations: [] };

async function serve(serverOptions: ConstructorParameters<typeof WebSocketServer>[0] = {}, attach?: (host: HostCore, wss: WebSocketServer) => void) {
  const logs: string[] = [];
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, state);
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', ...webSocketServerOptions(), ...serverOptions });
  await once(wss, 'listening');
  if (attach) attach(host, wss);
  else attachWebSocketServer(host, wss, { log: (line) => void logs.push(line) });
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  return { host, wss, url, logs, close: () => new Promise<void>((resolve) => wss.close(() => resolve())) };
}

async function rawSocket(url: string) {
  const ws = new WebSocket(url);
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await once(ws, 'open');
  return { ws, closed };
}

test('eight bytes of invalid UTF-8 close only that connection with 1007; the host and other clients go on', async () => {
  const server = await serve();
  const bystander = connectSession({ url: server.url, session: SESSION, WebSocket: WebSocket as never, reconnect: false });
  await bystander.ready;
  const { ws, closed } = await rawSocket(server.url);
  ws.send(Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xff]), { binary: false });
  assert.deepEqual(await closed, { code: 1007, reason: 'invalid frame payload: a text frame must be valid UTF-8' }, 'the close carries a reason text');
  assert.match(server.logs.join('\n'), /closed a WebSocket after an error: .*invalid UTF-8/i);
  await bystander.client.ping();
  bystander.store.dispatch({ type: 'session/titleChanged', title: 'still here' });
  await new Promise<void>((resolve) => bystander.store.subscribe(() => bystander.store.getConfirmedState()?.title === 'still here' && resolve()));
  bystander.close();
  await server.close();
});

test('a frame over the default limit (16 MiB) closes only that connection with 1009', async () => {
  const server = await serve();
  const bystander = connectSession({ url: server.url, session: SESSION, WebSocket: WebSocket as never, reconnect: false });
  await bystander.ready;
  const { ws, closed } = await rawSocket(server.url);
  ws.send(Buffer.alloc(DEFAULT_MAX_FRAME_BYTES + 1, 0x20));
  assert.deepEqual(await closed, { code: 1009, reason: "frame over the host's size limit" }, 'the close carries a reason text');
  await bystander.client.ping();
  // Just under the limit is read (and answered as the JSON-RPC parse error it is).
  const second = await rawSocket(server.url);
  const answer = once(second.ws, 'message');
  second.ws.send(Buffer.alloc(DEFAULT_MAX_FRAME_BYTES - 16, 0x41), { binary: false });
  assert.deepEqual(JSON.parse(String((await answer)[0])).error.code, -32700);
  second.ws.close();
  bystander.close();
  await server.close();
});

test('attachWebSocket enforces its own frame limit on a server made without one, with 1009 and a reason', async () => {
  const server = await serve({ maxPayload: 100 * 1024 * 1024 }, (host, wss) => wss.on('connection', (socket) => attachWebSocket(host, socket, { maxFrameBytes: 1024, log: () => {} })));
  const { ws, closed } = await rawSocket(server.url);
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } }));
  assert.deepEqual(await closed, { code: 1009, reason: 'frame over 1024 bytes' });
  await server.close();
});

test('a WebSocket server error is logged, not thrown', async () => {
  const server = await serve();
  assert.doesNotThrow(() => server.wss.emit('error', new Error('EADDRINUSE-ish')));
  assert.match(server.logs.join('\n'), /WebSocket server error: EADDRINUSE-ish/);
  await server.close();
});

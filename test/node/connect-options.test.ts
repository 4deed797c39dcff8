import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WebSocketConstructorLike } from '../../src/client/websocket-transport.js';
import { createInMemoryPair } from '../../src/client/in-memory-transport.js';
import { connectSession } from '../../src/connection/connect-session.js';
import { discoverSessions } from '../../src/discovery/root-catalog.js';

/** A WebSocket that records the subprotocols it was opened with and refuses at once. */
function recordingWebSocket() {
  const protocols: unknown[] = [];
  class Refusing {
    constructor(_url: string, ...rest: unknown[]) {
      protocols.push(rest[0]);
      throw new Error('refused');
    }
  }
  return { protocols, WebSocket: Refusing as unknown as WebSocketConstructorLike };
}

const URL = 'ws://127.0.0.1:9/ahp';

// connectSession and discoverSessions open the socket with the subprotocols given; an empty string is none at all
// (a WebSocket refuses '' as a subprotocol), as it has always been.
for (const [given, opened] of [
  [undefined, undefined],
  ['', undefined],
  ['ahp.v1', 'ahp.v1'],
  [['ahp.v1', 'bearer.x'], ['ahp.v1', 'bearer.x']],
] as const) {
  test(`connectSession opens the WebSocket with protocols ${JSON.stringify(given)} as ${JSON.stringify(opened)}`, async () => {
    const ws = recordingWebSocket();
    const conn = connectSession({ url: URL, session: 'ahp-session:/p', WebSocket: ws.WebSocket, reconnect: false, ...(given !== undefined && { protocols: given as string | string[] }) });
    await assert.rejects(conn.ready, /refused/);
    assert.deepEqual(ws.protocols, [opened]);
  });

  test(`discoverSessions opens the WebSocket with protocols ${JSON.stringify(given)} as ${JSON.stringify(opened)}`, async () => {
    const ws = recordingWebSocket();
    await assert.rejects(discoverSessions({ url: URL, WebSocket: ws.WebSocket, ...(given !== undefined && { protocols: given as string | string[] }) }), /refused/);
    assert.deepEqual(ws.protocols, [opened]);
  });
}

// The options connectSession hands to its client reach the host as given, and an absent one stays absent.
test('connectSession gives its client the clientId, clientInfo and request timeout it was given', async () => {
  const [clientSide, hostSide] = createInMemoryPair();
  const seen: unknown[] = [];
  hostSide.onmessage = (message) => seen.push(message);
  const conn = connectSession({ transport: clientSide, session: 'ahp-session:/p', clientId: 'client-7', clientInfo: { name: 'probe' }, requestTimeoutMs: 40 });
  // Nobody answers `initialize`: it fails after the 40 ms given, not the default 30 s.
  await assert.rejects(conn.ready, /'initialize' got no answer within 40 ms/);
  const params = (seen[0] as { method: string; params: Record<string, unknown> }).params;
  assert.equal((seen[0] as { method: string }).method, 'initialize');
  assert.equal(params.clientId, 'client-7');
  assert.deepEqual(params.clientInfo, { name: 'probe' });
});

test('connectSession without a clientId or clientInfo sends a random clientId and no clientInfo', async () => {
  const [clientSide, hostSide] = createInMemoryPair();
  const seen: unknown[] = [];
  hostSide.onmessage = (message) => seen.push(message);
  const conn = connectSession({ transport: clientSide, session: 'ahp-session:/p', requestTimeoutMs: 40 });
  await assert.rejects(conn.ready, /got no answer within 40 ms/);
  const params = (seen[0] as { params: Record<string, unknown> }).params;
  assert.equal(typeof params.clientId, 'string');
  assert.ok((params.clientId as string).length > 0);
  assert.ok(!('clientInfo' in params));
});

// The session handle in worker mode, in Node: pages talk to one session worker API over MessageChannels with
// comlink (as over SharedWorker ports); the worker's connection talks to a real HostCore over a real WebSocket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionClosedError, RpcError } from '../../src/client/errors.js';
import { HostCore, HostRpcError } from '../../src/host.js';
import type { SessionState } from '../../src/protocol/index.js';
import { createSessionWorkerApi } from '../../src/worker/session-worker.js';
import { mcpServer, serveOverWebSocket, sessionState, until as untilWithin, workerPages } from './fixtures/host.js';

const SESSION = 'ahp-session:/worker-handle';
const RESOURCE = 'http://127.0.0.1:9/mcp';
const appServer = mcpServer('apps', { name: 'Apps', channel: 'mcp://apps/1', mcpApp: { capabilities: { serverTools: { listChanged: true }, serverResources: {} } } });
const initial = (): SessionState => sessionState({ provider: 'p', customizations: [appServer] });

const until = (cond: () => boolean, what: string) => untilWithin(cond, what, 1000);

async function setup() {
  const host = new HostCore({ log: () => {} });
  host.createSession(SESSION, initial());
  const ws = await serveOverWebSocket(host);
  const { api, pages, close } = workerPages(ws.url, SESSION, 2);
  const cleanup = async () => {
    await close();
    await ws.close();
    host.close();
  };
  await Promise.all(pages.map((p) => p.ready));
  return { host, api, pages: pages as [(typeof pages)[0], (typeof pages)[0]], sockets: ws.sockets, cleanup };
}

test('worker mode: the handle hands tokens to the host over the worker’s socket; host errors keep their JSON-RPC code', { timeout: 15_000 }, async () => {
  const { host, pages, sockets, cleanup } = await setup();
  const [p1, p2] = pages;
  const tokens: { clientId: string; resource: string; token: string; scopes?: string[] }[] = [];
  host.handleRequest('authenticate', (params, { clientId }) => {
    const p = params as { resource: string; token: string; scopes?: string[] };
    if (p.resource !== RESOURCE) throw new HostRpcError(-32602, `unknown resource ${p.resource}`);
    tokens.push({ clientId, resource: p.resource, token: p.token, ...(p.scopes && { scopes: p.scopes }) });
    return {};
  });
  try {
    assert.equal(p1.handle.mode, 'shared');
    assert.equal(p1.handle.unavailable('authenticate'), undefined);
    await until(() => p1.handle.getConnectionState().kind === 'open', 'open');
    await p1.handle.authenticate({ resource: RESOURCE, token: 'at-1', scopes: ['read'] });
    await p2.handle.authenticate({ resource: RESOURCE, token: 'at-2' });
    assert.equal(sockets(), 1, 'both pages use the worker’s one socket');
    assert.deepEqual(tokens.map((t) => [t.token, t.scopes]), [['at-1', ['read']], ['at-2', undefined]]);
    assert.equal(tokens[0]!.clientId, tokens[1]!.clientId, 'one connection, one clientId');
    await assert.rejects(p1.handle.authenticate({ resource: 'http://elsewhere/', token: 'x' }), (e: unknown) => e instanceof RpcError && e.code === -32602 && /unknown resource/.test(e.message));
  } finally {
    await cleanup();
  }
});

test('worker mode: mcp:// requests, cancellation, notifications and createChat go through the worker', { timeout: 15_000 }, async () => {
  const { host, pages, cleanup } = await setup();
  const [p1, p2] = pages;
  const served: { method: string; params: unknown }[] = [];
  let releaseSlow!: (v: unknown) => void;
  host.handleChannel('mcp://', (method, params) => {
    served.push({ method, params });
    if (method === 'resources/read') return { contents: [{ uri: 'ui://x', text: '<p>hi</p>' }] };
    if ((params as { name?: string }).name === 'slow') return new Promise((r) => (releaseSlow = r));
    if ((params as { name?: string }).name === 'broken') throw new HostRpcError(-32603, 'the tool broke');
    return { content: [{ type: 'text', text: 'ok' }] };
  });
  try {
    const channel = p1.handle.mcpChannel('apps');
    assert.equal(p1.handle.mcpChannel('apps'), channel, 'one channel per server');
    await until(() => channel.available(), 'the server’s channel in the mirrored state');
    assert.deepEqual(await channel.request('resources/read', { uri: 'ui://x' }), { contents: [{ uri: 'ui://x', text: '<p>hi</p>' }] });
    assert.deepEqual(served[0], { method: 'resources/read', params: { uri: 'ui://x', channel: 'mcp://apps/1' } });
    await assert.rejects(channel.request('tools/call', { name: 'broken' }), (e: unknown) => e instanceof RpcError && e.code === -32603 && e.message === 'the tool broke');
    await assert.rejects(channel.request('sampling/createMessage', {}), (e: unknown) => e instanceof RpcError && e.code === -32601, 'not advertised: refused on the page');

    // Cancellation: the View gave up; the caller hears at once, the host's late answer goes nowhere.
    const abort = new AbortController();
    const slow = channel.request('tools/call', { name: 'slow' }, { signal: abort.signal });
    await until(() => served.some((s) => (s.params as { name?: string }).name === 'slow'), 'the slow call at the host');
    abort.abort(new Error('View closed'));
    await assert.rejects(slow, /View closed/);
    releaseSlow({ content: [] });
    assert.deepEqual(await channel.request('tools/call', { name: 'fast' }), { content: [{ type: 'text', text: 'ok' }] }, 'the channel still works');

    // Notifications reach the pages that listen, without the routing field.
    const heard: [string, unknown][] = [];
    const off1 = p1.handle.mcpChannel('apps').onNotification('notifications/tools/list_changed', (p) => heard.push(['p1', p]));
    p2.handle.mcpChannel('apps').onNotification('notifications/resources/list_changed', (p) => heard.push(['p2', p]));
    await new Promise((r) => setTimeout(r, 20));
    host.notifyChannel('mcp://apps/1', 'notifications/tools/list_changed', { n: 1 });
    await until(() => heard.length === 1, 'the notification on page 1');
    assert.deepEqual(heard, [['p1', { n: 1 }]]);
    off1();
    await new Promise((r) => setTimeout(r, 20));
    host.notifyChannel('mcp://apps/1', 'notifications/tools/list_changed', { n: 2 });
    host.notifyChannel('mcp://apps/1', 'notifications/resources/list_changed', { n: 3 });
    await until(() => heard.length === 2, 'the notification on page 2');
    assert.deepEqual(heard[1], ['p2', { n: 3 }], 'page 1 stopped listening; page 2 hears its own method');

    // createChat from page 2 creates the chat in the session both pages see.
    const chat = await p2.handle.createChat({ initialMessage: { text: 'hello' } });
    assert.match(chat, /^ahp-chat:\//);
    assert.ok(host.getChatState(chat), 'the host has the chat');
    await until(() => !!p1.store.getState()?.chats.some((c) => (c as { resource?: string }).resource === chat), 'the chat in page 1’s session');

    // A request still in flight when its page closes fails instead of hanging.
    const hanging = channel.request('tools/call', { name: 'slow' });
    await until(() => served.filter((s) => (s.params as { name?: string }).name === 'slow').length === 2, 'the second slow call');
    p1.close();
    await assert.rejects(hanging, ConnectionClosedError);
    await assert.rejects(p1.handle.authenticate({ resource: RESOURCE, token: 't' }), ConnectionClosedError);
    assert.deepEqual(p1.handle.getConnectionState(), { kind: 'closed', reason: 'closed by client' });
    releaseSlow({ content: [] });
  } finally {
    await cleanup();
  }
});

test('worker API: bad input from a page gets a clear error, nothing crashes', { timeout: 15_000 }, async () => {
  const api = createSessionWorkerApi({ connect: () => assert.fail('no connection is opened') });
  await assert.rejects(api.authenticate(99, { resource: 'r', token: 't' }), (e: unknown) => /not attached/.test((e as { message: string }).message));
  await assert.rejects(api.mcpRequest(99, 'tools/list', { channel: 'mcp://x' }), (e: unknown) => /not attached/.test((e as { message: string }).message));
  assert.throws(() => api.mcpNotify(99, 'x', { channel: 'mcp://x' }), /not attached/);
  api.listenMcp(99, 'x');
  api.unlistenMcp(99, 'x');
});

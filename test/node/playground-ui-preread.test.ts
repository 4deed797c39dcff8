// The playground host's pre-read of View resources (examples/playground/apps/ui-resource-preread.ts): the unit
// against a scripted server, then the mcp:// relay over a real stdio server (test/fixtures/apps/preread-server.mjs).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AhpClient, RpcError, createInMemoryPair } from '../../src/client/index.js';
import { createMcpChannel, type McpChannel } from '../../src/mcp-channel.js';
import { HostCore, attachTransport } from '../../src/host.js';
import type { SessionState } from '../../src/protocol/index.js';
import { locateMcpServer, sessionReducer } from '../../src/reducers/index.js';
import { parseConfig } from '../../examples/playground/config.js';
import { McpServerRuntime } from '../../examples/playground/mcp-runtime.js';
import { driveServers, type ServerLifecycle } from '../../examples/playground/server-lifecycle.js';
import { playgroundSessionState } from '../../examples/playground/session-state.js';
import { serveMcpChannels } from '../../examples/playground/apps/mcp-channel-relay.js';
import { UiResourcePreread, type PrereadServer } from '../../examples/playground/apps/ui-resource-preread.js';

type Result = Record<string, unknown>;
interface Deferred {
  uri: string;
  resolve(result: Result): void;
  reject(error: Error): void;
}

/**
 * A server whose reads answer when the test says so; `reads` lists every read asked of it, `lists` counts its
 * listings. Its listing is `listed` when given (else one entry named after the listing's count).
 */
function scriptedServer(uris: string[], tag = 'a', listed?: Result[]) {
  const reads: Deferred[] = [];
  const tools: Tool[] = [
    ...uris.map((uri, i) => ({ name: `t${i}`, inputSchema: { type: 'object' as const }, _meta: { ui: { resourceUri: uri } } })),
    { name: 'plain', inputSchema: { type: 'object' } },
    { name: 'not-ui', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'https://example.com/x.html' } } },
  ];
  const server = {
    reads,
    lists: 0,
    serverCapabilities: { resources: { listChanged: true } } as { resources?: { listChanged?: boolean } } | undefined,
    listTools: async () => tools,
    request: (method: string, params?: Record<string, unknown>): Promise<Result> => {
      if (method === 'resources/list') {
        assert.equal(params, undefined);
        ++server.lists;
        return Promise.resolve({ resources: listed ? structuredClone(listed) : [{ uri: `${tag}:${server.lists}` }] });
      }
      assert.equal(method, 'resources/read');
      return new Promise((resolve, reject) => reads.push({ uri: params!.uri as string, resolve, reject }));
    },
    /** Answers the read at `at`; `ui` goes on its content item's `_meta`. */
    answer(at: number, version = 1, chars = 10, ui?: Result) {
      const read = reads[at]!;
      read.resolve({ contents: [{ uri: read.uri, mimeType: 'text/html;profile=mcp-app', text: `${tag}:${read.uri}:v${version}:`.padEnd(chars, '.'), ...(ui && { _meta: { ui } }) }] });
    },
    fail(at: number) {
      reads[at]!.reject(new Error('read failed'));
    },
  };
  return server satisfies PrereadServer;
}

const textOf = async (answer: Promise<Result> | undefined) => {
  assert.ok(answer, 'answered by the pre-read');
  return ((await answer).contents as { text: string }[])[0]!.text;
};
/** Lets every settled promise's reactions run. */
const settle = () => new Promise((r) => setImmediate(r));

describe('UiResourcePreread (scripted server)', () => {
  const V = 'ui://s/view.html';
  const W = 'ui://s/other.html';

  it('reads every View the tools declare once when the server is ready; a later read is answered without asking the server', async () => {
    const server = scriptedServer([V, W]);
    const preread = new UiResourcePreread();
    const ready = preread.serverReady('mcp://s/1', server);
    await settle();
    assert.deepEqual(server.reads.map((r) => r.uri), [V, W], 'only the ui:// Views, each once');
    server.answer(0);
    server.answer(1);
    await ready;
    assert.equal(await textOf(preread.answer('mcp://s/1', 'resources/read', { uri: V })), `a:${V}:v1:`);
    assert.equal(await textOf(preread.answer('mcp://s/1', 'resources/read', { uri: V })), `a:${V}:v1:`);
    assert.equal(server.reads.length, 2, 'no read after the pre-read');
    await settle();
    assert.ok(Object.isFrozen((await preread.answer('mcp://s/1', 'resources/read', { uri: V }))!.contents), 'a kept answer is prepared (and so frozen)');
  });

  it('a read still in flight is joined (one request); an App joining a pre-read that fails reads for itself, and the failure is not kept', async () => {
    const server = scriptedServer([V]);
    const preread = new UiResourcePreread();
    void preread.serverReady('mcp://s/1', server);
    await settle();
    const joined = preread.answer('mcp://s/1', 'resources/read', { uri: V });
    const joinedToo = preread.answer('mcp://s/1', 'resources/read', { uri: V });
    assert.equal(server.reads.length, 1, 'joined the pre-read');
    server.fail(0);
    await settle();
    assert.equal(server.reads.length, 3, 'each App that joined asks for itself');
    server.answer(1, 2);
    server.answer(2, 2);
    assert.equal(await textOf(joined), `a:${V}:v2:`);
    assert.equal(await textOf(joinedToo), `a:${V}:v2:`);
    const next = preread.answer('mcp://s/1', 'resources/read', { uri: V });
    assert.equal(server.reads.length, 4, 'the failure was not kept: the next read asks the server');
    server.answer(3, 3);
    assert.equal(await textOf(next), `a:${V}:v3:`);
    assert.equal(await textOf(preread.answer('mcp://s/1', 'resources/read', { uri: V })), `a:${V}:v3:`, 'and that answer is kept');
    assert.equal(server.reads.length, 4);
  });

  it('answers only `{ uri }` reads of a declared View on the channel it was read for', async () => {
    const a = scriptedServer([V], 'a');
    const b = scriptedServer([V], 'b');
    const preread = new UiResourcePreread();
    const readyA = preread.serverReady('mcp://a/1', a);
    const readyB = preread.serverReady('mcp://b/1', b);
    await settle();
    a.answer(0);
    b.answer(0);
    await Promise.all([readyA, readyB]);
    assert.equal(await textOf(preread.answer('mcp://b/1', 'resources/read', { uri: V })), `b:${V}:v1:`, "the other server's answer, never a's");
    assert.equal(await textOf(preread.answer('mcp://a/1', 'resources/read', { uri: V })), `a:${V}:v1:`);
    assert.equal(preread.answer('mcp://c/1', 'resources/read', { uri: V }), undefined, 'a channel never read');
    assert.equal(preread.answer('mcp://a/2', 'resources/read', { uri: V }), undefined, 'a later start of the same server');
    assert.equal(preread.answer('mcp://a/1', 'resources/read', { uri: 'ui://s/undeclared.html' }), undefined, 'a resource no tool declares');
    assert.equal(preread.answer('mcp://a/1', 'resources/read', { uri: 'https://example.com/x.html' }), undefined);
    assert.equal(preread.answer('mcp://a/1', 'resources/read', { uri: V, _meta: { progressToken: 1 } }), undefined, 'a read that asks more than the uri');
    assert.equal(a.reads.length + b.reads.length, 2);
  });

  it('drops an answer on resources/updated for its URI, all on list_changed, and the start on serverGone; an answer in flight when dropped is not kept', async () => {
    const server = scriptedServer([V, W]);
    const preread = new UiResourcePreread();
    const ready = preread.serverReady('mcp://s/1', server);
    await settle();
    server.answer(0);
    server.answer(1);
    await ready;
    preread.resourceUpdated('mcp://s/1', V);
    const fresh = preread.answer('mcp://s/1', 'resources/read', { uri: V });
    assert.deepEqual(server.reads.map((r) => r.uri), [V, W, V], 'only the updated one is read again');
    assert.equal(await textOf(preread.answer('mcp://s/1', 'resources/read', { uri: W })), `a:${W}:v1:`);
    // Updated again while that read is in flight: its answer may be stale, so it is not kept.
    preread.resourceUpdated('mcp://s/1', V);
    server.answer(2, 2);
    assert.equal(await textOf(fresh), `a:${V}:v2:`);
    const afterSecondUpdate = preread.answer('mcp://s/1', 'resources/read', { uri: V });
    assert.equal(server.reads.length, 4);
    server.answer(3, 3);
    assert.equal(await textOf(afterSecondUpdate), `a:${V}:v3:`);

    preread.resourcesChanged('mcp://s/1');
    void preread.answer('mcp://s/1', 'resources/read', { uri: V });
    void preread.answer('mcp://s/1', 'resources/read', { uri: W });
    assert.deepEqual(server.reads.slice(4).map((r) => r.uri), [V, W], 'list_changed drops every answer');
    server.answer(4, 4);
    server.answer(5, 4);
    await settle();
    assert.ok(preread.keptChars > 0);
    preread.serverGone('mcp://s/1');
    assert.equal(preread.answer('mcp://s/1', 'resources/read', { uri: V }), undefined, 'nothing of a gone start is served');
    assert.equal(preread.keptChars, 0, 'and nothing of it is held');
  });

  it('keeps no answer over the per-resource cap (its readers still get it) and drops the oldest to stay under the total', async () => {
    const X = 'ui://s/third.html';
    const server = scriptedServer([V, W, X]);
    const preread = new UiResourcePreread({ maxAnswerChars: 2000, maxTotalChars: 5000 });
    // Every kept answer counts twice (its value and its prepared JSON text).
    const listing = 2 * JSON.stringify({ resources: [{ uri: 'a:1' }] }).length;
    const ready = preread.serverReady('mcp://s/1', server);
    await settle();
    const joined = preread.answer('mcp://s/1', 'resources/read', { uri: V });
    server.answer(1, 1, 1000);
    server.answer(2, 1, 1000);
    await settle();
    server.answer(0, 1, 1001);
    assert.equal((await textOf(joined)).length, 1001, 'the reader of an answer over the cap gets it');
    await settle();
    assert.ok(!Object.isFrozen(await joined), 'not kept, not prepared');
    await ready;
    assert.equal(preread.keptChars, listing + 4000, 'the listing and two answers of 1000 kept, the 1001 one not');
    void preread.answer('mcp://s/1', 'resources/read', { uri: V });
    assert.equal(server.reads.length, 4, 'the one over the cap is read again');
    server.answer(3, 2, 900);
    await settle();
    assert.equal(preread.keptChars, 3800, 'the oldest (the listing, then W) made room: 2 × (1000 + 900)');
    void preread.answer('mcp://s/1', 'resources/read', { uri: W });
    assert.deepEqual(server.reads.slice(4).map((r) => r.uri), [W], 'W was dropped');
    void preread.answer('mcp://s/1', 'resources/read', { uri: X });
    void preread.answer('mcp://s/1', 'resources/read', { uri: V });
    assert.equal(server.reads.length, 5, 'X and V still kept');
  });
});

describe('UiResourcePreread: the listing', () => {
  it('asks the listing once when the server is ready and shares it; only the first page; dropped on list_changed, not on updated', async () => {
    const server = scriptedServer(['ui://s/view.html']);
    const preread = new UiResourcePreread();
    void preread.serverReady('mcp://s/1', server);
    await settle();
    assert.equal(server.lists, 1);
    const listing = async () => (((await preread.answer('mcp://s/1', 'resources/list', {})) as { resources: { uri: string }[] }).resources[0]!.uri);
    assert.equal(await listing(), 'a:1');
    assert.equal(await listing(), 'a:1');
    assert.equal(server.lists, 1, 'no listing after the first');
    assert.equal(preread.answer('mcp://s/1', 'resources/list', { cursor: 'next' }), undefined, 'a later page goes to the server');
    assert.equal(preread.answer('mcp://s/1', 'resources/templates/list', {}), undefined);
    assert.equal(preread.answer('mcp://s/1', 'tools/list', {}), undefined);
    preread.resourceUpdated('mcp://s/1', 'ui://s/view.html');
    assert.equal(await listing(), 'a:1');
    preread.resourcesChanged('mcp://s/1');
    assert.equal(await listing(), 'a:2', 'asked again after list_changed');
    assert.equal(server.lists, 2);
  });

  it('once the reads are kept, serves the listing with each read View\'s entry carrying its content item\'s `_meta.ui` over its own, key by key; other entries as listed', async () => {
    const V = 'ui://s/view.html';
    const W = 'ui://s/other.html';
    const listed = [
      { uri: V, name: 'v', _meta: { other: 1, ui: { prefersBorder: true, csp: { connectDomains: ['https://listed.example'] } } } },
      { uri: W, name: 'w' },
      { uri: 'ui://s/not-read.html', name: 'n', _meta: { ui: { domain: 'n.example' } } },
      { uri: V, name: 'a second entry of the same URI (an App takes the first)' },
    ];
    const server = scriptedServer([V, W], 'a', listed);
    const preread = new UiResourcePreread();
    const ready = preread.serverReady('mcp://s/1', server);
    const listing = async () => ((await preread.answer('mcp://s/1', 'resources/list', {})) as { resources: Result[] }).resources;
    await settle();
    assert.deepEqual(await listing(), listed, 'before the reads answer: as the server listed it');
    const csp = { connectDomains: ['https://content.example'] };
    server.answer(0, 1, 10, { csp, permissions: { camera: {} } });
    server.answer(1, 1, 10, {});
    await ready;
    const served = await listing();
    assert.deepEqual(served[0], { uri: V, name: 'v', _meta: { other: 1, ui: { prefersBorder: true, csp, permissions: { camera: {} } } } }, 'the content item wins key by key; the entry\'s other keys stay');
    assert.deepEqual(served.slice(1), listed.slice(1), 'a View whose item says nothing, a View not read, and a later entry of the same URI: as listed');
    assert.equal(server.lists, 1, 'the server was listed once');
    await settle();
    assert.ok(Object.isFrozen(served), 'kept and prepared like any kept answer');
  });

  it('a View updated takes the listing that carries what its read said with it (asked again, then carries the new read); a read that is not exactly one item of its URI adds nothing', async () => {
    const V = 'ui://s/view.html';
    const W = 'ui://s/other.html';
    const X = 'ui://s/third.html';
    const server = scriptedServer([V, W, X], 'a', [{ uri: V }, { uri: W }, { uri: X }]);
    const preread = new UiResourcePreread();
    const ready = preread.serverReady('mcp://s/1', server);
    const listing = async () => ((await preread.answer('mcp://s/1', 'resources/list', {})) as { resources: Result[] }).resources;
    await settle();
    server.answer(0, 1, 10, { domain: 'v1.example' });
    // W's item names another URI, X's read has two items: neither is a View's item as an App reads it.
    server.reads[1]!.resolve({ contents: [{ uri: 'ui://s/else.html', text: 'x', _meta: { ui: { domain: 'w.example' } } }] });
    const item = { uri: X, text: 'x', _meta: { ui: { domain: 'x.example' } } };
    server.reads[2]!.resolve({ contents: [item, item] });
    await ready;
    assert.deepEqual(await listing(), [{ uri: V, _meta: { ui: { domain: 'v1.example' } } }, { uri: W }, { uri: X }]);
    preread.resourceUpdated('mcp://s/1', W);
    assert.deepEqual(await listing(), [{ uri: V, _meta: { ui: { domain: 'v1.example' } } }, { uri: W }, { uri: X }], 'W\'s update leaves it');
    assert.equal(server.lists, 1);
    preread.resourceUpdated('mcp://s/1', V);
    assert.deepEqual(await listing(), [{ uri: V }, { uri: W }, { uri: X }], 'asked again: what the old read said is not served');
    assert.equal(server.lists, 2);
    void preread.answer('mcp://s/1', 'resources/read', { uri: V });
    server.answer(3, 2, 10, { domain: 'v2.example' });
    await settle();
    assert.deepEqual(await listing(), [{ uri: V, _meta: { ui: { domain: 'v2.example' } } }, { uri: W }, { uri: X }], 'the new read\'s');
    assert.equal(server.lists, 2);
  });

  it('keeps no listing of a server that does not announce its changes (its Views still)', async () => {
    const server = scriptedServer(['ui://s/view.html']);
    server.serverCapabilities = { resources: {} };
    const preread = new UiResourcePreread();
    const ready = preread.serverReady('mcp://s/1', server);
    await settle();
    server.answer(0);
    await ready;
    assert.equal(server.lists, 0, 'not asked');
    assert.equal(preread.answer('mcp://s/1', 'resources/list', {}), undefined, 'relayed');
    assert.equal(await textOf(preread.answer('mcp://s/1', 'resources/read', { uri: 'ui://s/view.html' })), 'a:ui://s/view.html:v1:');
    assert.equal(server.reads.length, 1);
  });

  it('asks nothing of a server without resources', async () => {
    const server = scriptedServer(['ui://s/view.html']);
    server.serverCapabilities = {};
    const preread = new UiResourcePreread();
    await preread.serverReady('mcp://s/1', server);
    assert.equal(server.lists + server.reads.length, 0);
    assert.equal(preread.answer('mcp://s/1', 'resources/list', {}), undefined);
  });
});

describe('the mcp:// relay answers View reads from the pre-read (real stdio server)', () => {
  const SESSION = 'ahp-session:/preread-test';
  const WAIT_MS = 20_000;
  const quiet = { warn() {}, error() {} } as never;
  let host: HostCore;
  let runtime: McpServerRuntime;
  let lifecycle: ServerLifecycle;
  let stopRelay: () => void;
  let client: AhpClient;
  let state: SessionState;
  const stderr: string[] = [];
  /** The resources/read requests the host sent the server (counted as they are sent). */
  let sentReads: string[] = [];
  const reads = (uri: string) => sentReads.filter((u) => u === uri).length;
  let sentListings = 0;
  const channel = (): McpChannel => createMcpChannel({ client, getServer: () => locateMcpServer(state, 'preread')?.server });
  const readText = async (ch: McpChannel, uri: string) => (await ch.request<{ contents: { text: string }[] }>('resources/read', { uri })).contents[0]!.text;

  async function until<T>(what: string, read: () => T | undefined | false): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const value = read();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; server stderr: ${stderr.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const readyChannel = () => until('the server ready with a channel', () => {
    const server = locateMcpServer(state, 'preread')?.server;
    return server?.state.kind === 'ready' && server.channel === runtime.channel && server.channel;
  });

  before(async () => {
    const config = parseConfig({ servers: [{ id: 'preread', name: 'Preread', transport: 'stdio', command: 'node', args: ['test/fixtures/apps/preread-server.mjs'] }] });
    host = new HostCore({ log: quiet });
    host.createSession(SESSION, playgroundSessionState(config, 'http://127.0.0.1:1/'));
    runtime = new McpServerRuntime(config.servers[0]!, { onStderrLine: (line) => stderr.push(line) });
    runtime.onMessage((direction, message) => {
      if (direction === 'sent' && 'method' in message && message.method === 'resources/read') sentReads.push((message.params as { uri: string }).uri);
      if (direction === 'sent' && 'method' in message && message.method === 'resources/list') sentListings++;
    });
    const runtimes = new Map([['preread', runtime]]);
    lifecycle = driveServers(host, SESSION, runtimes);
    stopRelay = serveMcpChannels(host, runtimes);
    const [clientSide, hostSide] = createInMemoryPair();
    attachTransport(host, hostSide);
    client = new AhpClient({ transport: clientSide, clientId: 'preread-test', log: quiet });
    client.onAction((env) => {
      if (env.channel === SESSION) state = sessionReducer(state, env.action);
    });
    await client.initialize();
    state = (await client.subscribe(SESSION)).snapshot!.state as SessionState;
    await lifecycle.startEnabled();
    await readyChannel();
  });
  after(async () => {
    client?.close();
    stopRelay?.();
    lifecycle?.dispose();
    await runtime?.stop();
  });

  it('reads each declared View when the server is ready; the channel\'s reads of them do not reach the server', async () => {
    await until('the pre-read of every View', () => reads('ui://preread/view.html') === 1 && reads('ui://preread/flat.html') === 1 && reads('ui://preread/flaky.html') === 1);
    const ch = channel();
    assert.equal(await readText(ch, 'ui://preread/view.html'), '<!doctype html><title>ui://preread/view.html v1</title>');
    assert.equal(await readText(ch, 'ui://preread/flat.html'), '<!doctype html><title>ui://preread/flat.html v1</title>', 'the flat key counts too');
    assert.equal(reads('ui://preread/view.html'), 1);
    assert.equal(reads('ui://preread/flat.html'), 1);
    // flaky.html's pre-read failed: the App's read is its own and succeeds.
    assert.equal(await readText(ch, 'ui://preread/flaky.html'), '<!doctype html><title>ui://preread/flaky.html v1</title>');
    assert.equal(reads('ui://preread/flaky.html'), 2);
    // The listing too: asked once, when the server became ready.
    const listed = await ch.request<{ resources: { description: string; _meta?: { ui?: unknown } }[] }>('resources/list', {});
    assert.equal(listed.resources[0]!.description, 'v1');
    assert.deepEqual(listed.resources[0]!._meta?.ui, { csp: { connectDomains: ['https://v1.example'] } }, 'with the CSP view.html\'s content item states');
    assert.equal(sentListings, 1);
    // A resource no tool declares goes to the server (and its error comes back).
    await assert.rejects(ch.request('resources/read', { uri: 'ui://other/x.html' }), (err: unknown) => err instanceof RpcError && /no resource/.test(err.message));
  });

  it('after notifications/resources/updated the View is read fresh; after list_changed every View is', async () => {
    const ch = channel();
    await ch.request('tools/call', { name: 'bump', arguments: {} });
    assert.equal(await readText(ch, 'ui://preread/view.html'), '<!doctype html><title>ui://preread/view.html v2</title>', 'read fresh');
    assert.equal(reads('ui://preread/view.html'), 2);
    assert.equal(await readText(ch, 'ui://preread/flat.html'), '<!doctype html><title>ui://preread/flat.html v1</title>', 'not named by the update: kept');
    await ch.request('tools/call', { name: 'relist', arguments: {} });
    assert.equal(await readText(ch, 'ui://preread/flat.html'), '<!doctype html><title>ui://preread/flat.html v2</title>');
    assert.equal(await readText(ch, 'ui://preread/view.html'), '<!doctype html><title>ui://preread/view.html v2</title>');
    assert.equal(reads('ui://preread/view.html'), 3);
    const listed = (await ch.request<{ resources: { description: string; _meta?: { ui?: unknown } }[] }>('resources/list', {})).resources[0]!;
    assert.equal(listed.description, 'v2', 'the listing is asked again too');
    assert.deepEqual(listed._meta?.ui, { csp: { connectDomains: ['https://v2.example'] } }, 'with what the new read of view.html states');
    assert.equal(sentListings, 2);
  });

  it('a restarted server is read again on its new channel; the old channel serves nothing', async () => {
    const oldUri = runtime.channel!;
    await runtime.stop();
    sentReads = [];
    await runtime.start();
    const now = await readyChannel();
    assert.notEqual(now, oldUri);
    await until('the new start\'s pre-read', () => reads('ui://preread/view.html') === 1);
    assert.equal(await readText(channel(), 'ui://preread/view.html'), '<!doctype html><title>ui://preread/view.html v1</title>', 'the new process\'s View');
    assert.equal(reads('ui://preread/view.html'), 1);
    // Asked on the ended channel (as a page still holding it would): refused, nothing of the old start served.
    await assert.rejects(client.request('resources/read', { channel: oldUri, uri: 'ui://preread/view.html' }), (err: unknown) => err instanceof RpcError && /No MCP server/.test(err.message));
    assert.equal(reads('ui://preread/view.html'), 1);
  });
});

// The playground in-process (real MCP servers), driven over its WebSocket with the real client and store.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { connectSession, type SessionConnection } from '../../src/connection/connect-session.js';
import type { ActionFailure } from '../../src/store/types.js';
import { listMcpServers } from '../../src/store/selectors.js';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { processExists } from '../../examples/playground/mcp-runtime.js';

const WAIT_MS = 15_000;

async function until<T>(what: string, read: () => T | undefined | false, describeNow: () => string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${WAIT_MS} ms waiting for ${what}; now: ${describeNow()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('playground host over WebSocket (real MCP servers)', () => {
  let playground: Playground;
  let conn: SessionConnection;
  const failures: ActionFailure[] = [];

  const kinds = () => Object.fromEntries(listMcpServers(conn.store.getState()).map((e) => [e.server.id, e.server.state.kind]));
  const describeNow = () => JSON.stringify(kinds());
  const kindOf = (id: string) => kinds()[id];
  const waitFor = (id: string, kind: string) => until(`${id} to be ${kind}`, () => kindOf(id) === kind, describeNow);
  const pidOf = (id: string) => playground.servers.get(id)!.pid;

  before(async () => {
    playground = await startPlayground({ port: 0 });
    conn = connectSession({ url: playground.wsUrl, session: playground.sessionUri, WebSocket: WebSocket as never });
    conn.store.onActionFailed((f) => failures.push(f));
    await conn.ready;
  });
  after(async () => {
    conn?.close();
    await playground?.close();
  });

  it('serves the demo page, the elements bundle, assets, icons and the connection info', async () => {
    const get = (path: string) => fetch(new URL(path, playground.url));
    const page = await get('/');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /text\/html/);
    assert.match(await page.text(), /<script type="module" src="\/ahp-elements\.js">/);
    const bundle = await get('/ahp-elements.js');
    assert.match(bundle.headers.get('content-type')!, /javascript/);
    const js = await bundle.text();
    assert.ok(js.includes('ahp-mcp-server-list') && js.includes('customElements'), 'the bundle defines the elements');
    assert.ok(!/\brequire\(/.test(js.slice(0, 2000)), 'an ESM browser bundle');
    const info = await (await get('/playground.json')).json();
    assert.deepEqual({ wsUrl: info.wsUrl, sessionUri: info.sessionUri }, { wsUrl: playground.wsUrl, sessionUri: playground.sessionUri });
    // What the page says about the running config comes from it (examples/playground/page-info.ts).
    assert.equal(info.configFile, 'examples/playground/servers.json');
    assert.equal(info.defaultConfig, true);
    assert.deepEqual(info.servers.map((s: { id: string }) => s.id), [...playground.servers.keys()]);
    const svg = await get('/assets/plugin.svg');
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
    assert.match(svg.headers.get('content-security-policy')!, /default-src 'none'/);
    assert.equal((await get('/assets/..%2f..%2fpackage.json')).status, 404);
    assert.equal((await get('/nope')).status, 404);
  });

  it('publishes the configured servers: one top level, one inside the plugin, with served icons', async () => {
    const entries = listMcpServers(conn.store.getState());
    const everything = entries.find((e) => e.server.id === 'everything');
    const vanilla = entries.find((e) => e.server.id === 'basic-vanillajs');
    assert.ok(everything && !everything.container, 'everything at the top level');
    assert.equal(vanilla?.container?.id, 'demo-plugin');
    assert.equal(vanilla?.container?.type, 'plugin');
    for (const e of [everything, vanilla]) {
      assert.deepEqual(e!.server.enablement, [{ kind: 'global', enabled: true }]);
      const icon = await fetch(e!.server.icons![0]!.src);
      assert.equal(icon.status, 200, `icon of ${e!.server.id} is served`);
    }
  });

  it('both servers become ready with a live process', async () => {
    await waitFor('everything', 'ready');
    await waitFor('basic-vanillajs', 'ready');
    assert.ok(processExists(pidOf('everything')!));
    assert.ok(processExists(pidOf('basic-vanillajs')!));
  });

  it('stop shows stopped at once and the process exits; start brings it back', async () => {
    await waitFor('everything', 'ready');
    const pid = pidOf('everything')!;
    conn.store.dispatch({ type: 'session/mcpServerStopRequested', id: 'everything' });
    assert.equal(kindOf('everything'), 'stopped', 'optimistic stopped');
    await until('the process to exit', () => !processExists(pid), () => `pid ${pid} still alive`);
    await waitFor('everything', 'stopped');
    conn.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'everything' });
    assert.equal(kindOf('everything'), 'starting', 'optimistic starting');
    await waitFor('everything', 'ready');
    assert.notEqual(pidOf('everything'), pid);
  });

  it('a start request while ready leaves the server ready (no stuck starting)', async () => {
    await waitFor('everything', 'ready');
    const pid = pidOf('everything');
    conn.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'everything' });
    await waitFor('everything', 'ready');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(kindOf('everything'), 'ready');
    assert.equal(pidOf('everything'), pid, 'same process');
  });

  it('disabling the plugin stops its server; enabling starts it again', async () => {
    await waitFor('basic-vanillajs', 'ready');
    const pid = pidOf('basic-vanillajs')!;
    conn.store.dispatch({ type: 'session/customizationToggled', id: 'demo-plugin', enablement: [{ kind: 'global', enabled: false }] });
    await until('the plugin server process to exit', () => !processExists(pid), () => `pid ${pid} alive, ${describeNow()}`);
    await waitFor('basic-vanillajs', 'stopped');
    assert.equal(kindOf('everything'), 'ready', 'the top-level server is untouched');
    conn.store.dispatch({ type: 'session/customizationToggled', id: 'demo-plugin', enablement: [{ kind: 'global', enabled: true }] });
    await waitFor('basic-vanillajs', 'ready');
  });

  it('rejects starting a disabled server and unknown ids, with reasons', async () => {
    conn.store.dispatch({ type: 'session/customizationToggled', id: 'everything', enablement: [{ kind: 'global', enabled: false }] });
    await waitFor('everything', 'stopped');
    failures.length = 0;
    conn.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'everything' });
    conn.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'no-such-server' });
    await until('two rejections', () => failures.length >= 2, () => JSON.stringify(failures));
    assert.equal(failures[0]?.kind, 'rejected');
    assert.match(failures[0]!.reason, /"everything" is disabled/);
    assert.match(failures[1]!.reason, /No MCP server with id "no-such-server"/);
    assert.equal(kindOf('everything'), 'stopped', 'the rejected optimistic start is rolled back');
    assert.equal(pidOf('everything'), null, 'no process was started');
    conn.store.dispatch({ type: 'session/customizationToggled', id: 'everything', enablement: [{ kind: 'global', enabled: true }] });
    await waitFor('everything', 'ready');
  });

  it('a process killed from outside becomes error with a message', async () => {
    await waitFor('everything', 'ready');
    const pid = pidOf('everything')!;
    process.kill(pid);
    await waitFor('everything', 'error');
    const server = listMcpServers(conn.store.getState()).find((e) => e.server.id === 'everything')!.server;
    assert.equal(server.state.kind, 'error');
    if (server.state.kind === 'error') assert.match(server.state.error.message, new RegExp(`pid ${pid}.*exited unexpectedly.*SIGTERM`));
  });

  it('refuses WebSocket upgrades from other origins', async () => {
    const code = await new Promise<number | string>((resolve) => {
      const ws = new WebSocket(playground.wsUrl, { headers: { origin: 'http://evil.example' } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 'no status'));
      ws.on('open', () => {
        ws.close();
        resolve('opened');
      });
      ws.on('error', () => {});
    });
    assert.equal(code, 401);
  });

  it('close() stops every server process', async () => {
    const pids = [...playground.servers.values()].map((rt) => rt.pid).filter((p): p is number => p !== null);
    assert.ok(pids.length > 0);
    conn.close();
    await playground.close();
    for (const pid of pids) assert.equal(processExists(pid), false, `pid ${pid} is gone`);
  });
});

// The playground's MCP runtime against the real server-everything over stdio.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { parseConfig } from '../../examples/playground/config.js';
import { McpServerRuntime, processExists } from '../../examples/playground/mcp-runtime.js';
import type { McpServerState } from '../../src/protocol/index.js';
import { publishedServer } from '../fixtures/mcp-servers.js';

const everything = parseConfig({
  servers: [
    publishedServer('server-everything', 'everything', 'Everything'),
  ],
}).servers[0]!;

function stdioServer(id: string, command: string, args: string[] = []) {
  return parseConfig({ servers: [{ id, name: id, transport: 'stdio', command, args }] }).servers[0]!;
}

function record(runtime: McpServerRuntime): string[] {
  const kinds: string[] = [];
  runtime.onStateChange((s) => kinds.push(s.kind));
  return kinds;
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const errorOf = (s: McpServerState) => (s.kind === 'error' ? s.error : undefined);

describe('playground McpServerRuntime (real server-everything over stdio)', () => {
  const runtimes: McpServerRuntime[] = [];
  const make = (config = everything) => {
    const r = new McpServerRuntime(config);
    runtimes.push(r);
    return r;
  };
  after(async () => {
    await Promise.all(runtimes.map((r) => r.stop()));
  });

  it('reports starting, then ready with a live process and the server capabilities', async () => {
    const runtime = make();
    const kinds = record(runtime);
    await runtime.start();
    assert.deepEqual(kinds, ['starting', 'ready']);
    assert.equal(typeof runtime.pid, 'number');
    assert.ok(processExists(runtime.pid!), 'the server process runs');
    assert.ok(runtime.serverCapabilities?.tools, 'server-everything declares tools');
    await runtime.stop();
  });

  it('stop() reports stopped only after the process has exited', async () => {
    const runtime = make();
    await runtime.start();
    const pid = runtime.pid!;
    const kinds = record(runtime);
    await runtime.stop();
    assert.deepEqual(kinds, ['stopped']);
    assert.equal(processExists(pid), false, `pid ${pid} is gone`);
    assert.equal(runtime.pid, null);
  });

  it('a start after a stop brings up a new process', async () => {
    const runtime = make();
    await runtime.start();
    const first = runtime.pid!;
    await runtime.stop();
    await runtime.start();
    assert.equal(runtime.state.kind, 'ready');
    assert.notEqual(runtime.pid, first);
    assert.ok(processExists(runtime.pid!));
    await runtime.stop();
  });

  it('a process killed from outside turns into error with a message naming the pid and signal', async () => {
    const runtime = make();
    await runtime.start();
    const pid = runtime.pid!;
    process.kill(pid, 'SIGKILL');
    await until('the error state', () => runtime.state.kind === 'error');
    const error = errorOf(runtime.state)!;
    assert.equal(error.errorType, 'ServerExited');
    assert.match(error.message, new RegExp(`pid ${pid}.*exited unexpectedly.*SIGKILL`));
    assert.match(error.message, /Starting default \(STDIO\) server/, 'carries the stderr tail');
    await runtime.start();
    assert.equal(runtime.state.kind, 'ready', 'an errored server can be started again');
    await runtime.stop();
  });

  it('stop() while starting wins: stopped, no process left, no late ready', async () => {
    const runtime = make();
    const kinds = record(runtime);
    const starting = runtime.start();
    await until('a spawned process', () => runtime.pid !== null, 5000);
    const pid = runtime.pid!;
    await runtime.stop();
    await starting;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(runtime.state.kind, 'stopped');
    assert.ok(!kinds.includes('ready'), `no ready after the stop (saw ${kinds.join(' → ')})`);
    assert.equal(processExists(pid), false);
  });

  it('a command that does not exist fails to start with a SpawnFailed error', async () => {
    const runtime = make(stdioServer('missing', 'ahp-no-such-command-xyz'));
    const kinds = record(runtime);
    await runtime.start();
    assert.deepEqual(kinds, ['starting', 'error']);
    assert.equal(errorOf(runtime.state)?.errorType, 'SpawnFailed');
    assert.match(errorOf(runtime.state)!.message, /ahp-no-such-command-xyz.*ENOENT/);
  });

  it('a process that exits during initialize reports its exit code and stderr', async () => {
    const runtime = make(stdioServer('crash', 'node', ['-e', 'console.error("bad settings: no API key"); process.exit(3)']));
    await runtime.start();
    const error = errorOf(runtime.state);
    assert.equal(error?.errorType, 'ServerExited');
    assert.match(error!.message, /exit code 3/);
    assert.match(error!.message, /bad settings: no API key/);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('playground McpServerRuntime (real server-everything over Streamable HTTP)', () => {
  it('connects, notices when the server goes away, and stops', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => String(d).includes('listening') && resolve());
        child.on('exit', (code) => reject(new Error(`server-everything (http) exited early with ${code}`)));
      });
      const url = `http://127.0.0.1:${port}/mcp`;
      const runtime = new McpServerRuntime(parseConfig({ servers: [{ id: 'h', name: 'H', transport: 'http', url }] }).servers[0]!);
      const kinds = record(runtime);
      await runtime.start();
      assert.deepEqual(kinds, ['starting', 'ready']);
      assert.equal(runtime.pid, null, 'no local process for an http server');
      child.kill();
      await until('the error state', () => runtime.state.kind === 'error');
      assert.equal(errorOf(runtime.state)?.errorType, 'ConnectionLost');
      assert.match(errorOf(runtime.state)!.message, new RegExp(`Lost the connection to ${url.replace(/[.]/g, '\\.')}`));
      await runtime.stop();
      assert.equal(runtime.state.kind, 'stopped');
    } finally {
      child.kill();
    }
  });

  it('an unreachable URL fails to start with a StartFailed error', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const runtime = new McpServerRuntime(parseConfig({ servers: [{ id: 'u', name: 'U', transport: 'http', url }] }).servers[0]!);
    await runtime.start();
    assert.equal(errorOf(runtime.state)?.errorType, 'StartFailed');
    assert.match(errorOf(runtime.state)!.message, /Could not connect to http:\/\/127\.0\.0\.1:\d+\/mcp: fetch failed.*ECONNREFUSED/);
  });
});

// Validation of the playground's JSON server config.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ConfigError, DEFAULT_CONFIG_PATH, REPO_ROOT, loadConfig, parseConfig } from '../../examples/playground/config.js';

function problemsOf(json: unknown): string[] {
  try {
    parseConfig(json, 'test.json');
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`);
    return err.problems;
  }
  assert.fail('expected the config to be rejected');
}

describe('playground config', () => {
  it('the default config has server-everything at the top level and basic-vanillajs inside a plugin', async () => {
    const config = await loadConfig(DEFAULT_CONFIG_PATH);
    const everything = config.servers.find((s) => s.id === 'everything');
    const vanilla = config.servers.find((s) => s.id === 'basic-vanillajs');
    assert.equal(everything?.transport, 'stdio');
    assert.equal(everything?.container, undefined);
    assert.equal(vanilla?.container, config.containers[0]?.id);
    assert.equal(config.containers[0]?.type, 'plugin');
    if (everything?.transport === 'stdio') assert.equal(everything.cwd, REPO_ROOT);
    assert.ok(everything?.icon?.startsWith(path.join(REPO_ROOT, 'examples/assets')), 'icon files resolve against the repo root');
  });

  it('fills defaults: enabled, args, cwd', () => {
    const config = parseConfig({ servers: [{ id: 's', name: 'S', transport: 'stdio', command: 'x' }] });
    assert.deepEqual(config.servers[0], { id: 's', name: 'S', enabled: true, transport: 'stdio', command: 'x', args: [], cwd: REPO_ROOT });
    assert.deepEqual(config.containers, []);
  });

  it('accepts http servers and URL icons', () => {
    const config = parseConfig({
      servers: [{ id: 'h', name: 'H', transport: 'http', url: 'http://127.0.0.1:3001/mcp', icon: 'data:image/svg+xml,<svg/>', enabled: false }],
    });
    assert.deepEqual(config.servers[0], {
      id: 'h', name: 'H', enabled: false, transport: 'http', url: 'http://127.0.0.1:3001/mcp', icon: 'data:image/svg+xml,<svg/>',
    });
  });

  it('reports every problem with its place in the file', () => {
    const problems = problemsOf({
      containers: [{ id: 'p', name: 'P', type: 'directory' }],
      servers: [
        { id: 'a', name: 'A', transport: 'sse' },
        { id: 'a', name: '', transport: 'stdio', command: 'x', args: 'nope', comand: 'typo' },
        { id: 'b', name: 'B', transport: 'http', url: 'ftp://x', container: 'nowhere' },
        { id: 'has space', name: 'C', transport: 'stdio', command: 'x', icon: 'no/such/icon.svg' },
      ],
    });
    const expected = [
      /^containers\[0\]\.type: only "plugin"/,
      /^servers\[0\]\.transport: expected "stdio" or "http", got "sse"/,
      /^servers\[1\]\.id: "a" is already used by servers\[0\]/,
      /^servers\[1\]\.name: expected a non-empty string/,
      /^servers\[1\]\.args: expected an array of strings/,
      /^servers\[1\]: unknown key "comand"/,
      /^servers\[2\]\.url: expected an http/,
      /^servers\[2\]\.container: no container with id "nowhere" \(known: p\)/,
      /^servers\[3\]\.id: "has space" may only use/,
      /^servers\[3\]\.icon: not an http\(s\)\/data: URL and no file at/,
    ];
    for (const re of expected) assert.ok(problems.some((p) => re.test(p)), `missing ${re} in:\n${problems.join('\n')}`);
    assert.equal(problems.length, expected.length, problems.join('\n'));
  });

  it('rejects a config that is not an object with servers', () => {
    assert.match(problemsOf([])[0]!, /expected a JSON object/);
    assert.match(problemsOf({})[0]!, /^servers: expected an array/);
  });

  it('names the file when it cannot be read or parsed', async () => {
    await assert.rejects(loadConfig('/no/such/servers.json'), (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /\/no\/such\/servers\.json[\s\S]*cannot read the file/);
      return true;
    });
    await assert.rejects(loadConfig(path.join(REPO_ROOT, 'README.md')), /not valid JSON/);
  });
});

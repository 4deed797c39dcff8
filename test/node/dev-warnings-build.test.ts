import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rollup, type OutputOptions, type RollupOptions } from 'rollup';

// The production builds must carry no development warning; the `development` build (dist/lib-dev) must keep them.
// Built in memory from rollup.config.mjs itself, so a config change that breaks this shows up here.
const CONFIG = '../../rollup.config.mjs';
const configs = (await import(CONFIG)).default as RollupOptions[];
const WARNING_TEXT = [/dev-no-store/, /dev-unknown-server/, /dev-same-origin-sandbox/, /npmjs\.com\/package\/ahp-elements/, /<ahp-session> ancestor/];

const dirOf = (c: RollupOptions) => (c.output as OutputOptions).dir;

async function build(config: RollupOptions, only?: (fileName: string) => boolean): Promise<Map<string, string>> {
  const bundle = await rollup({ ...config, onwarn: () => {} });
  try {
    // Without the output plugins (terser): rollup's own tree-shaking must already drop the `if (DEV)` code.
    const { output } = await bundle.generate({ ...(config.output as OutputOptions), plugins: [] });
    const files = new Map<string, string>();
    for (const o of output) if (o.type === 'chunk' && (!only || only(o.fileName))) files.set(o.fileName, o.code);
    return files;
  } finally {
    await bundle.close();
  }
}

test('the CDN build (every element) carries no development warning', { timeout: 120_000 }, async () => {
  const cdn = configs.find((c) => dirOf(c) === 'dist/cdn');
  assert.ok(cdn, 'rollup.config.mjs has the dist/cdn build');
  const files = await build(cdn);
  assert.ok(files.has('ahp-elements.min.js'));
  for (const [name, code] of files) for (const re of WARNING_TEXT) assert.doesNotMatch(code, re, `${name} contains ${re}`);
});

test('dist/lib drops the warnings; dist/lib-dev (the development condition) keeps them', { timeout: 120_000 }, async () => {
  const wanted = (f: string) => /^elements\/(mcp-server\/mcp-server|mcp-app\/mcp-app|mcp-app\/app-lifecycle|chat\/chat|shared\/dev-warnings)\.js$/.test(f);
  const lib = configs.find((c) => dirOf(c) === 'dist/lib');
  const dev = configs.find((c) => dirOf(c) === 'dist/lib-dev');
  assert.ok(lib && dev, 'rollup.config.mjs has dist/lib and dist/lib-dev');
  const prod = await build(lib, wanted);
  for (const [name, code] of prod) {
    for (const re of WARNING_TEXT) assert.doesNotMatch(code, re, `dist/lib/${name} contains ${re}`);
    assert.doesNotMatch(code, /addDevChecks|warnSameOriginSandbox/, `dist/lib/${name} still calls the dev checks`);
  }
  const devFiles = await build(dev, wanted);
  assert.match(devFiles.get('elements/shared/dev-warnings.js') ?? '', /dev-no-store/);
  assert.match(devFiles.get('elements/mcp-server/mcp-server.js') ?? '', /addDevChecks/);
  assert.match(devFiles.get('elements/mcp-app/app-lifecycle.js') ?? '', /warnSameOriginSandbox/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rollup, type OutputOptions, type Plugin } from 'rollup';
import { minifyChunks } from '../../scripts/minify-chunks.mjs';

// scripts/minify-chunks.mjs (the CDN build's terser step): a chunk imports the entry's bindings under the short names
// rollup exported them as (`import{h}`, not `import{h as q}`), except a name the chunk reads as a global, which a
// binding of that name would capture. Built with rollup from a few modules in memory, then run.
const shared = `export function helper(x) { return x + 2; }
export const scale = 10;
export const offset = 5;`;
const entry = `import { helper, scale, offset } from './shared.js';
export const direct = () => helper(1) * scale + offset;
export const load = () => import('./chunk.js');`;
/** The chunk, reading the globals `globals` (named like the entry's short exports) next to the entry's bindings. */
const chunk = (globals: string[]) => `import { helper, scale, offset } from './shared.js';
export function run() { return [helper(${globals.map((n) => `(typeof ${n} === 'number' ? ${n} : -1)`).join(' + ') || '0'}), scale, offset]; }`;

const memory = (sources: Record<string, string>): Plugin => ({
  name: 'memory',
  resolveId: (id) => (id.replace(/^\.\//, '') in sources ? id.replace(/^\.\//, '') : null),
  load: (id) => sources[id] ?? null,
});

const OUTPUT: OutputOptions = { format: 'esm', chunkFileNames: '[name].js', minifyInternalExports: true };

test('chunks link under their export names, and a short name the chunk reads as a global stays an alias', async () => {
  // The short names rollup gives the entry's bindings the chunk imports (two of them become globals of the chunk).
  const probe = await rollup({ input: 'entry.js', preserveEntrySignatures: 'allow-extension', plugins: [memory({ 'entry.js': entry, 'shared.js': shared, 'chunk.js': chunk([]) })], onwarn: () => {} });
  const { output } = await probe.generate(OUTPUT);
  await probe.close();
  const probed = output.find((o) => o.fileName === 'chunk.js');
  assert.ok(probed?.type === 'chunk', 'rollup made chunk.js');
  const linked = Object.values(probed.importedBindings).flat();
  assert.equal(linked.length, 3, `the chunk imports three short names: ${JSON.stringify(linked)}`);
  const [free1, free2, plainName] = linked as [string, string, string];

  const dir = mkdtempSync(path.join(tmpdir(), 'minify-chunks-'));
  const globals = globalThis as Record<string, unknown>;
  try {
    const bundle = await rollup({ input: 'entry.js', preserveEntrySignatures: 'allow-extension', plugins: [memory({ 'entry.js': entry, 'shared.js': shared, 'chunk.js': chunk([free1, free2]) })], onwarn: () => {} });
    await bundle.write({ ...OUTPUT, dir, plugins: [minifyChunks({ module: true, compress: { passes: 2 } })] });
    await bundle.close();
    const chunkCode = readFileSync(path.join(dir, 'chunk.js'), 'utf8');
    const specifiers = (/import\{([^}]*)\}from/.exec(chunkCode)?.[1] ?? '').split(',');
    assert.ok(specifiers.includes(plainName), `${plainName} is imported under its own name: ${chunkCode}`);
    for (const name of [free1, free2]) {
      assert.ok(specifiers.some((s) => s.startsWith(`${name} as `)), `${name}, a global of the chunk, keeps an alias: ${chunkCode}`);
    }

    globals[free1] = 40;
    globals[free2] = 100;
    const loaded = (await import(pathToFileURL(path.join(dir, 'entry.js')).href)) as { direct(): number; load(): Promise<{ run(): number[] }> };
    assert.equal(loaded.direct(), 35);
    assert.deepEqual((await loaded.load()).run(), [142, 10, 5], 'the chunk reads both globals and the entry bindings');
  } finally {
    delete globals[free1];
    delete globals[free2];
    rmSync(dir, { recursive: true, force: true });
  }
});

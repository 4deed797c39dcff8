// package.json `exports` is the one list of entries: the src/ root holds exactly their modules, entries name every
// public export (no `export *`), and main/module/types point where the `.` export does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { entries, pkg } from '../../scripts/entries.mjs';

const list = entries();

test('the src/ root holds exactly the modules of the package.json exports', () => {
  const rootModules = readdirSync('src').filter((f) => f.endsWith('.ts')).map((f) => `src/${f}`).sort();
  const exported = list.map((e) => e.source).filter((s) => /^src\/[^/]+\.ts$/.test(s)).sort();
  assert.deepEqual(rootModules, exported, 'a module in the src/ root that is no entry belongs in a folder; an entry needs its module');
  assert.ok(exported.includes('src/index.ts') && exported.length >= 8, `entries found: ${exported.join(', ')}`);
});

test('every entry module lists its exports by name (no export *)', () => {
  for (const e of list) {
    const text = readFileSync(e.source, 'utf8');
    assert.doesNotMatch(text, /\bexport\s+(type\s+)?\*/, `${e.source} (${e.specifier}) re-exports a whole module`);
  }
});

test('main, module and types point where the "." export does', () => {
  const dot = pkg.exports['.'] as { types: string; default: string };
  assert.equal(pkg.main, dot.default);
  assert.equal(pkg.module, dot.default);
  assert.equal(pkg.types, dot.types);
  assert.match(pkg.main, /^\.\/dist\/lib\/src\/index\.js$/);
});

test('entries are src/<name>.ts or elements/ modules; each JavaScript export has a source', () => {
  for (const e of list) assert.match(e.source, /^(src\/[^/]+|elements\/(index|define-all|cdn|[\w-]+\/define)|react\/index)\.ts$/, e.specifier);
  const specifiers = list.map((e) => e.specifier);
  for (const name of ['ahp-elements', 'ahp-elements/discovery', 'ahp-elements/cdn', 'ahp-elements/define/session']) assert.ok(specifiers.includes(name), name);
});

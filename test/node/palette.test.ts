// One palette source: the colours of src/theme/palette.ts appear nowhere else in the shipped code or the playground
// page; the elements' tokens, the MCP Apps style variables and the playground's /palette.css are derived from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PALETTE } from '../../src/theme/palette.js';
import { DEFAULT_THEME_TOKENS, buildStyleVariables } from '../../src/apps/host-context.js';
import { paletteCss } from '../../examples/playground/palette-css.js';

const SOURCE = join('src', 'theme', 'palette.ts');

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'assets') continue;
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|mts|mjs|js|css|html)$/.test(name)) yield path;
  }
}

test('no palette colour is written anywhere but src/theme/palette.ts (src, elements, examples)', () => {
  const colours = Object.values(PALETTE).flat().map((c) => c.toLowerCase());
  const copies: string[] = [];
  let scanned = 0;
  for (const root of ['src', 'elements', 'examples']) {
    for (const file of files(root)) {
      if (file === SOURCE) continue;
      scanned++;
      const text = readFileSync(file, 'utf8').toLowerCase();
      for (const c of colours) if (new RegExp(`${c}(?![0-9a-f])`).test(text)) copies.push(`${relative('.', file)}: ${c}`);
    }
  }
  assert.ok(scanned > 100, `scanned only ${scanned} files`);
  assert.deepEqual(copies, []);
});

test('the MCP Apps theme and the playground page CSS carry every palette colour, light and dark', () => {
  const css = paletteCss();
  const [light, dark] = css.split('@media (prefers-color-scheme: dark)');
  for (const [name, [l, d]] of Object.entries(PALETTE)) {
    assert.deepEqual(DEFAULT_THEME_TOKENS[name as keyof typeof PALETTE], [l, d], name);
    assert.match(light!, new RegExp(`--palette-[a-z-]+: ${l};`), `${name} light`);
    assert.match(dark!, new RegExp(`--palette-[a-z-]+: ${d};`), `${name} dark`);
  }
  assert.equal(buildStyleVariables({}, 'dark')['--color-text-primary'], PALETTE.text[1]);
  assert.match(css, /--palette-surface-subtle: #f6f8fa;/);
});

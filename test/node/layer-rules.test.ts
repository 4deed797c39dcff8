import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The layer rules of README "Architecture: folders and layers": which src folders each src folder may import (type imports included).
const MAY_IMPORT: Record<string, readonly string[]> = {
  protocol: [],
  theme: [],
  rpc: ['protocol'],
  reducers: ['protocol'],
  store: ['protocol', 'reducers'],
  client: ['protocol', 'rpc'],
  auth: ['protocol', 'client'],
  apps: ['protocol', 'rpc', 'client', 'theme'],
  host: ['protocol', 'rpc', 'reducers'],
  connection: ['protocol', 'client', 'reducers', 'store'],
  discovery: ['protocol', 'client', 'reducers'],
  intents: ['protocol'],
};

const SRC = resolve('src');

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.ts$/.test(name)) yield path;
  }
}

/** Relative specifiers of every import / export-from / dynamic import in a file. */
const specifiers = (text: string): string[] =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);

test('src layers import only what README "Architecture" allows (store ↛ client, apps ↛ store/reducers, …)', () => {
  const violations: string[] = [];
  for (const [layer, allowed] of Object.entries(MAY_IMPORT)) {
    for (const file of files(join(SRC, layer))) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const target = relative(SRC, resolve(dirname(file), spec));
        const targetLayer = target.startsWith('..') ? 'outside src' : target.includes('/') ? target.split('/')[0]! : `src/${target}`;
        if (targetLayer !== layer && !allowed.includes(targetLayer)) violations.push(`${relative(SRC, file)} imports ${spec} (${targetLayer})`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

/** Script and module files under a folder (node_modules and build caches left out). */
function* moduleFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) yield* moduleFiles(path);
    else if (/\.(m?[jt]s|tsx)$/.test(name)) yield path;
  }
}

test('scripts/ (tooling) and examples/ (playground and pages) never import each other', () => {
  const crossings: string[] = [];
  let scanned = 0;
  for (const [from, other] of [['scripts', 'examples'], ['examples', 'scripts']] as const) {
    for (const file of moduleFiles(resolve(from))) {
      scanned++;
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (relative(resolve(other), resolve(dirname(file), spec)).startsWith('..')) continue;
        crossings.push(`${relative(resolve('.'), file)} imports ${spec}`);
      }
    }
  }
  assert.ok(scanned > 30, `scanned only ${scanned} files`);
  assert.deepEqual(crossings, []);
});

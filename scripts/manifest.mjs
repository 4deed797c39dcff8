// Generates custom-elements.json from the element sources (`cem analyze --litelement`, see
// custom-elements-manifest.config.mjs). `analyzeManifest()` returns the text without touching the committed file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MANIFEST = path.join(root, 'custom-elements.json');
// The analyzer brings its own TypeScript 5 (the project's TypeScript 7 has no JS API).
const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@custom-elements-manifest/analyzer/package.json')), 'cem.js');

/** Runs the analyzer into a scratch folder and returns the manifest text (formatted as committed). */
export function analyzeManifest() {
  const outdir = path.join('node_modules', '.cache', 'ahp-cem');
  mkdirSync(path.join(root, outdir), { recursive: true });
  const r = spawnSync(process.execPath, [cli, 'analyze', '--outdir', outdir], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cem analyze failed:\n${r.stderr || r.stdout}`);
  const manifest = JSON.parse(readFileSync(path.join(root, outdir, 'custom-elements.json'), 'utf8'));
  // The analyzer's glob yields files in whatever order the file system answers; sort so the output is stable.
  manifest.modules?.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(MANIFEST, analyzeManifest());
  console.log(`wrote ${path.relative(process.cwd(), MANIFEST)}`);
}

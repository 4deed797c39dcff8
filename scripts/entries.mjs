// The package's entries, read from `package.json` `exports`, the one list: the rollup inputs, the size check, the API
// report (api/*.api.md) and the README entry table all derive from it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The CDN file is one bundle, so its path says nothing about its source: this is the module it is built from. */
export const CDN_SOURCE = 'elements/cdn.ts';
const CDN_FILE = './dist/cdn/ahp-elements.min.js';

/**
 * @typedef {object} Entry
 * @property {string} specifier what users import, e.g. `ahp-elements/host`
 * @property {string} subpath the `exports` key, e.g. `./host` (wildcards expanded)
 * @property {string} source the TypeScript module it is built from, e.g. `src/host.ts`
 * @property {'module' | 'cdn'} kind `module`: built to dist/lib (one file per module); `cdn`: the minified bundle
 */

/** Every JavaScript entry of `exports`, wildcards (`./define/*`) expanded over the source folders; assets left out. */
export function entries() {
  /** @type {Entry[]} */
  const out = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const file = typeof target === 'string' ? target : target.default;
    const specifier = (s) => `${pkg.name}${s.slice(1)}`;
    if (file === CDN_FILE) {
      out.push({ specifier: specifier(subpath), subpath, source: CDN_SOURCE, kind: 'cdn' });
      continue;
    }
    const m = /^\.\/dist\/lib\/(.+)\.js$/.exec(file ?? '');
    if (!m) continue; // assets: html, json, typings, the sandbox page
    const path = m[1];
    if (!path.includes('*')) {
      out.push({ specifier: specifier(subpath), subpath, source: `${path}.ts`, kind: 'module' });
      continue;
    }
    const [dir, rest] = path.split('*');
    for (const d of readdirSync(`${ROOT}${dir}`, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const source = `${dir}${d.name}${rest}.ts`;
      if (d.isDirectory() && existsSync(`${ROOT}${source}`)) {
        const sub = subpath.replace('*', d.name);
        out.push({ specifier: specifier(sub), subpath: sub, source, kind: 'module' });
      }
    }
  }
  return out;
}

/** The entry for an `exports` key (`.`, `./host`, …); throws when package.json has none. */
export function entry(subpath) {
  const found = entries().find((e) => e.subpath === subpath);
  if (!found) throw new Error(`package.json exports has no JavaScript entry "${subpath}"`);
  return found;
}

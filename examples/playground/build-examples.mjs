// Builds the example pages' bundles (examples/pages/<name>/main.ts[x]) with esbuild into .cache/examples/<name>/.
// A page is rebuilt only when one of its inputs (or this script) changed since the last build.
//   node examples/playground/build-examples.mjs [name…]
import { readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PAGES_DIR = path.join(REPO_ROOT, 'examples/pages');
export const OUT_ROOT = path.join(REPO_ROOT, '.cache/examples');
const SELF = fileURLToPath(import.meta.url);

/** The pages with a bundle, their entry file and what differs in their build. The `cdn` page has no bundle. */
export const BUNDLED_PAGES = {
  bundler: { entry: 'main.ts' },
  react19: { entry: 'main.tsx', jsx: true },
  // React 18 comes from the npm aliases react18/react-dom18; everything that imports react (@lit/react too) gets 18.
  react18: { entry: 'main.tsx', jsx: true, alias: { react: 'react18', 'react-dom': 'react-dom18' } },
  // The full esm-bundler build compiles the page's template in the browser, with compilerOptions.isCustomElement.
  vue: {
    entry: 'main.ts',
    alias: { vue: 'vue/dist/vue.esm-bundler.js' },
    define: { __VUE_OPTIONS_API__: 'true', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
  },
};

/**
 * `ahp-elements` and `ahp-elements/<sub>` resolve to this repository's sources through package.json `exports`
 * (`./dist/lib/X.js` → `X.ts`), so the pages import the package by name without a prior `npm run build`.
 */
function packageToSources() {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const toSource = (target) => {
    const file = typeof target === 'string' ? target : target?.default;
    if (typeof file !== 'string' || !file.startsWith('./dist/lib/')) return undefined;
    return file.slice('./dist/lib/'.length).replace(/\.js$/, '.ts');
  };
  const exact = new Map();
  const wildcards = [];
  for (const [key, target] of Object.entries(pkg.exports ?? {})) {
    const source = toSource(target);
    if (!source) continue;
    const sub = key === '.' ? pkg.name : `${pkg.name}${key.slice(1)}`;
    if (sub.includes('*')) wildcards.push([sub.split('*'), source.split('*')]);
    else exact.set(sub, source);
  }
  const lookup = (spec) => {
    if (exact.has(spec)) return exact.get(spec);
    for (const [[pre, post], [sPre, sPost]] of wildcards) {
      if (spec.startsWith(pre) && spec.endsWith(post) && spec.length > pre.length + post.length) {
        return `${sPre}${spec.slice(pre.length, spec.length - post.length)}${sPost}`;
      }
    }
    return undefined;
  };
  return {
    name: 'ahp-elements-from-source',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${pkg.name}(/.*)?$`) }, (args) => {
        const source = lookup(args.path);
        if (!source) return { errors: [{ text: `${args.path} is not an export of ${pkg.name} with a source file` }] };
        return { path: path.join(REPO_ROOT, source), sideEffects: true };
      });
      // Our own sources keep their side effects (package.json `sideEffects` names the built dist files).
      b.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === 'resolving' || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
        if (r.errors.length || !r.path.startsWith(REPO_ROOT + path.sep) || r.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        return { path: r.path, sideEffects: true };
      });
    },
  };
}

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

/** True when the last build's recorded inputs are all unchanged. */
async function upToDate(metaFile, outFile) {
  if (mtime(outFile) < 0) return false;
  try {
    const meta = JSON.parse(await readFile(metaFile, 'utf8'));
    return Object.entries(meta.inputs).every(([file, ms]) => mtime(file) === ms);
  } catch {
    return false;
  }
}

/** Builds one page's bundle if needed; resolves with its output folder (main.js, main.js.map). */
export async function buildExample(name) {
  const page = BUNDLED_PAGES[name];
  if (!page) throw new Error(`unknown example page "${name}" (known: ${Object.keys(BUNDLED_PAGES).join(', ')})`);
  const outDir = path.join(OUT_ROOT, name);
  const outFile = path.join(outDir, 'main.js');
  const metaFile = path.join(outDir, 'inputs.json');
  if (await upToDate(metaFile, outFile)) return outDir;
  const started = Date.now();
  const result = await build({
    entryPoints: { main: path.join(PAGES_DIR, name, page.entry) },
    absWorkingDir: REPO_ROOT,
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser'],
    target: 'es2022',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
    // Development builds: React and Vue report misuse (bad props, unknown elements) on the console, which the tests watch.
    define: { 'process.env.NODE_ENV': '"development"', ...page.define },
    ...(page.alias && { alias: page.alias }),
    ...(page.jsx && { jsx: 'automatic', jsxImportSource: 'react' }),
    plugins: [packageToSources()],
  }).catch((err) => {
    throw new Error(`Could not build the "${name}" example:\n${err.message}`);
  });
  const inputs = Object.fromEntries(
    [...Object.keys(result.metafile.inputs).map((f) => path.resolve(REPO_ROOT, f.replace(/^[a-z-]+:/, ''))), SELF, path.join(REPO_ROOT, 'package.json')].map((f) => [f, mtime(f)]),
  );
  await mkdir(outDir, { recursive: true });
  // An input edited while esbuild read it may be half-seen: leave no record, so the next request builds again.
  const settled = Object.values(inputs).every((ms) => ms < started - 1000);
  await (settled ? writeFile(metaFile, JSON.stringify({ inputs })) : rm(metaFile, { force: true }));
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === SELF) {
  const names = process.argv.slice(2);
  for (const name of names.length ? names : Object.keys(BUNDLED_PAGES)) {
    const started = performance.now();
    const dir = await buildExample(name);
    console.log(`${name}: ${path.relative(REPO_ROOT, dir)}/main.js (${Math.round(performance.now() - started)} ms)`);
  }
}

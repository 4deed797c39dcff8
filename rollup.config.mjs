// Two outputs: (1) the npm build — unbundled ESM, one file per module, dependencies external;
// (2) self-contained minified bundles — the CDN file that defines every element, and the headless
// core entry measured by the size check.
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import terser from '@rollup/plugin-terser';
import { minifyLitTemplates } from './scripts/minify-lit-templates.mjs';

const pkg = (await import('./package.json', { with: { type: 'json' } })).default;
const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const external = (id) => deps.some((d) => id === d || id.startsWith(`${d}/`)) || /^@lit\//.test(id);
const ts = () => esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' });

/**
 * Production builds: `DEV` (elements/shared/dev-warnings.ts) becomes `false`, so the development warnings and every
 * `if (DEV)` branch drop out. Only `dist/lib-dev` (the `development` export condition) keeps them.
 */
const productionBuild = () => ({
  name: 'production-build',
  transform(code, id) {
    if (!id.replace(/\\/g, '/').endsWith('/elements/shared/dev-warnings.ts')) return null;
    const out = code.replace(/export const DEV: boolean = true;/, 'export const DEV: boolean = false;');
    if (out === code) this.error('production-build: `export const DEV: boolean = true;` not found in dev-warnings.ts');
    return { code: out, map: null };
  },
});

const elementDefines = Object.fromEntries(
  readdirSync('elements', { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`elements/${d.name}/define.ts`))
    .map((d) => [`elements/${d.name}/define`, `elements/${d.name}/define.ts`]),
);

/** Emits the OAuth callback page (src/auth/callback.html, pointed at the built script) next to callback-page.js. */
const authCallbackPage = () => ({
  name: 'auth-callback-page',
  generateBundle(_options, bundle) {
    const script = Object.keys(bundle).find((f) => /(^|\/)callback-page\.js$/.test(f));
    if (!script) return;
    const html = readFileSync('src/auth/callback.html', 'utf8').replace('./callback-page.ts', './callback-page.js');
    this.emitFile({ type: 'asset', fileName: script.replace(/callback-page\.js$/, 'callback.html'), source: html });
  },
});

// A second compress pass shaves a little more; pure_getters/unsafe* were measured too (≤ 0.1 KB gzip) and are
// not worth their risk.
const terserOptions = { ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } };

const minified = (input, file) => ({
  input,
  plugins: [productionBuild(), nodeResolve({ browser: true }), ts(), minifyLitTemplates()],
  output: {
    file,
    format: 'esm',
    sourcemap: true,
    inlineDynamicImports: true,
    plugins: [terser(terserOptions)],
  },
});

/** The npm build: unbundled ESM, one file per module, dependencies external. */
const npmBuild = (dir, plugins) => ({
    input: {
      'src/index': 'src/index.ts',
      'src/host': 'src/host.ts',
      'src/mcp-channel': 'src/mcp-channel.ts',
      'src/testing': 'src/testing.ts',
      'src/apps': 'src/apps.ts',
      'src/auth': 'src/auth.ts',
      // Script of the shipped OAuth callback page; callback.html is copied next to it (see authCallbackPage).
      'src/auth/callback-page': 'src/auth/callback-page.ts',
      // Worker mode: the page-side entry and the worker modules `connectSessionInWorker` loads by default
      // (`new URL('./shared-worker-entry.js', import.meta.url)`, so they must sit next to worker-store.js).
      'src/worker': 'src/worker.ts',
      'src/worker/shared-worker-entry': 'src/worker/shared-worker-entry.ts',
      'src/worker/dedicated-worker-entry': 'src/worker/dedicated-worker-entry.ts',
      'elements/index': 'elements/index.ts',
      'elements/define-all': 'elements/define-all.ts',
      ...elementDefines,
      // `ahp-elements/react`: @lit/react wrappers for React ≤18 (react and @lit/react stay external; not in the CDN).
      'react/index': 'react/index.ts',
    },
    external,
    plugins: [...plugins, nodeResolve({ browser: true }), ts(), authCallbackPage()],
    output: { dir, format: 'esm', preserveModules: true, preserveModulesRoot: '.', sourcemap: true },
});

export default [
  npmBuild('dist/lib', [productionBuild()]),
  // The `development` export condition: the same modules with the development warnings left in.
  npmBuild('dist/lib-dev', []),
  // Every element. The OAuth driver is a chunk next to it (ahp-driver-entry.min.js), loaded on the first sign-in.
  {
    ...minified('elements/define-all.ts'),
    // The driver chunk imports from the entry instead of a facade + shared chunk.
    preserveEntrySignatures: 'allow-extension',
    output: {
      dir: 'dist/cdn',
      entryFileNames: 'ahp-elements.min.js',
      chunkFileNames: 'ahp-[name].min.js',
      format: 'esm',
      sourcemap: true,
      plugins: [terser(terserOptions)],
    },
  },
  // Worker mode from the CDN: a SharedWorker script must come from the page's own origin, so copy this file there
  // and point `<ahp-session worker="shared" worker-url="…">` at it.
  minified('src/worker/shared-worker-entry.ts', 'dist/cdn/ahp-session-worker.min.js'),
  minified('src/index.ts', 'dist/size/core.min.js'),
  // The MCP Apps sandbox proxy page and its script: deploy both on a different origin from the host page and
  // serve the page with the headers of `sandboxResponseHeadersForUrl` (ahp-elements/apps).
  {
    ...minified('src/apps/sandbox-proxy-main.ts', 'dist/sandbox/sandbox-proxy.js'),
    plugins: [
      productionBuild(),
      nodeResolve({ browser: true }),
      ts(),
      {
        name: 'sandbox-page',
        async generateBundle() {
          const { readFile } = await import('node:fs/promises');
          this.emitFile({ type: 'asset', fileName: 'sandbox-proxy.html', source: await readFile('src/apps/sandbox-proxy.html', 'utf8') });
        },
      },
    ],
  },
  // The OAuth callback page next to the CDN bundle: `defaultCallbackUrl()` resolves `./callback.html` from the bundle.
  { ...minified('src/auth/callback-page.ts', 'dist/cdn/callback-page.js'), plugins: [productionBuild(), nodeResolve({ browser: true }), ts(), authCallbackPage()] },
];

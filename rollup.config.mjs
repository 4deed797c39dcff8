// Two outputs: (1) the npm build — unbundled ESM, one file per module, dependencies external, one input per
// package.json export (scripts/entries.mjs); (2) self-contained minified bundles — the CDN file with its chunks
// (elements that load on first use, sign-in, worker mode, languages), and each headless entry for the size check.
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import terser from '@rollup/plugin-terser';
import { minifyLitTemplates } from './scripts/minify-lit-templates.mjs';
import { minifyChunks } from './scripts/minify-chunks.mjs';
import { entries, entry } from './scripts/entries.mjs';
import { privateMemberMangle, privateMemberNames } from './scripts/private-members.mjs';

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

/**
 * Swaps modules of the store's chat loading in one build: `rules` are [specifier, importer path suffix, replacement
 * file] triples, so only that import of that module is redirected.
 */
const swapChatCode = (name, rules) => ({
  name,
  resolveId(source, importer) {
    const from = importer?.replace(/\\/g, '/') ?? '';
    const rule = rules.find(([specifier, importerSuffix]) => source === specifier && from.endsWith(importerSuffix));
    return rule ? fileURLToPath(new URL(rule[2], import.meta.url)) : null;
  },
});

/**
 * In the CDN build the store takes its tool-call lookups from tool-call-selectors, which the entry carries anyway
 * (src/store/chat-reducers-cdn.ts), so the chunk it loads on the first chat is the chat reducers alone.
 */
const cdnChatCode = () =>
  swapChatCode('cdn-chat-code', [
    ['./chat-reducers-lazy.js', '/src/store/session-store.ts', './src/store/chat-reducers-cdn.ts'],
    ['./chat-code.js', '/src/store/chat-reducers-lazy.ts', './src/store/chat-reducers.ts'],
  ]);

/** The session worker script is one file: it bundles the store's chat code at once (src/store/chat-reducers-eager.ts). */
const eagerChatCode = () =>
  swapChatCode('eager-chat-code', [['./chat-reducers-lazy.js', '/src/store/session-store.ts', './src/store/chat-reducers-eager.ts']]);

/** Rollup's own glue (the loaders' `.then(t=>t.N)`, namespace objects) as arrows and const: −12 B gzip on the CDN. */
const generatedCode = { arrowFunctions: true, constBindings: true };

/**
 * The CDN's chunks. Each file is compressed on its own, so fewer, larger chunks are fewer bytes: what the entry imports
 * stays in the entry; what only the conversation elements or only `<ahp-mcp-app>` use stays in their chunk (rollup's
 * default); everything else loaded later (the server elements, the chat reducers, sign-in, and what several element
 * chunks share) goes into one chunk, ahp-element-kit.min.js. Chunks only optional features load (worker mode, languages)
 * keep what only they use.
 */
const cdnManualChunks = (entryFile, ownChunks) => {
  let inEntry;
  const roots = new Map();
  const staticGraph = (from, getModuleInfo, skip = new Set()) => {
    const seen = new Set();
    const stack = [from];
    while (stack.length) {
      const id = stack.pop();
      if (seen.has(id) || skip.has(id)) continue;
      seen.add(id);
      stack.push(...(getModuleInfo(id)?.importedIds ?? []));
    }
    return seen;
  };
  return (id, { getModuleInfo, getModuleIds }) => {
    if (!inEntry) {
      // Manual chunks pull in their dependencies, so the entry's own modules are named too.
      inEntry = staticGraph(fileURLToPath(new URL(entryFile, import.meta.url)), getModuleInfo);
      for (const root of getModuleIds()) {
        if (!getModuleInfo(root)?.dynamicImporters.length) continue;
        for (const m of staticGraph(root, getModuleInfo, inEntry)) roots.set(m, [...(roots.get(m) ?? []), root.replace(/\\/g, '/')]);
      }
    }
    if (inEntry.has(id)) return 'cdn-entry';
    const from = roots.get(id) ?? [];
    const optional = (root) => OPTIONAL_CDN_CHUNKS.some((pattern) => pattern.test(root));
    if (from.every(optional)) return undefined;
    if (from.length === 1 && ownChunks.some((own) => from[0].endsWith(own))) return undefined;
    return 'element-kit';
  };
};
/** Modules the CDN loads only for optional features (scripts/size.mjs leaves their chunks out of the total). */
const OPTIONAL_CDN_CHUNKS = [/\/src\/worker\/worker-store\.ts$/, /\/elements\/locales\/[\w-]+\.ts$/];

/** The npm build's inputs: every JavaScript entry of package.json `exports` (wildcards expanded), by source path. */
const exportInputs = Object.fromEntries(entries().filter((e) => e.kind === 'module').map((e) => [e.source.replace(/\.ts$/, ''), e.source]));

/** Headless `src/*.ts` entries, each also bundled and minified into dist/size/ for the size check. */
export const sizeEntries = entries().filter((e) => e.kind === 'module' && /^src\/[^/]+\.ts$/.test(e.source));

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

// Four compress passes shave a little more (the third: −24 B gzip on the CDN total, December 2026; the fourth −11 with
// unsafe_arrows). unsafe_arrows writes a function expression that reads no `this` or `arguments` as an arrow (−77 B on
// the CDN total, −46 on the entry, −27 on the core): safe here because nothing constructs a function expression or
// reads its `prototype` (our constructors are classes, and TypeScript refuses `new` on a function value).
// pure_getters/unsafe were measured too (≤ 0.1 KB gzip) and are not worth their risk (`unsafe` writes `String(x)` as
// `"" + x`, which throws for a symbol). TypeScript `private` members that nothing reaches by name get short names
// (scripts/private-members.mjs).
const privateNames = privateMemberNames();
const terserOptions = () => ({
  ecma: 2020,
  module: true,
  compress: { passes: 4, unsafe_arrows: true },
  format: { comments: false },
  ...privateMemberMangle(privateNames),
});

const minified = (input, file) => ({
  input,
  plugins: [productionBuild(), nodeResolve({ browser: true }), ts(), minifyLitTemplates()],
  output: {
    file,
    format: 'esm',
    sourcemap: true,
    inlineDynamicImports: true,
    plugins: [terser(terserOptions())],
  },
});

/** The npm build: unbundled ESM, one file per module, dependencies external. */
const npmBuild = (dir, plugins) => ({
    input: {
      ...exportInputs,
      // Modules loaded by URL at run time, not imported by name: the script of the shipped OAuth callback page
      // (callback.html, the `./auth/callback.html` export, is emitted next to it, see authCallbackPage) and the worker
      // modules `connectSessionInWorker` starts (`new URL('./shared-worker-entry.js', import.meta.url)`, so they sit
      // next to worker-store.js).
      'src/auth/callback-page': 'src/auth/callback-page.ts',
      'src/worker/shared-worker-entry': 'src/worker/shared-worker-entry.ts',
      'src/worker/dedicated-worker-entry': 'src/worker/dedicated-worker-entry.ts',
    },
    external,
    plugins: [...plugins, nodeResolve({ browser: true }), ts(), authCallbackPage()],
    output: { dir, format: 'esm', preserveModules: true, preserveModulesRoot: '.', sourcemap: true },
});

export default [
  npmBuild('dist/lib', [productionBuild()]),
  // The `development` export condition: the same modules with the development warnings left in.
  npmBuild('dist/lib-dev', []),
  // The CDN file (the `./cdn` export): the session and server elements; chat, tool call, input-needed and MCP App are
  // chunks loaded on first use, the OAuth driver (ahp-driver-entry.min.js) on the first sign-in.
  {
    ...minified(entry('./cdn').source),
    plugins: [cdnChatCode(), ...minified(entry('./cdn').source).plugins],
    // The driver chunk imports from the entry instead of a facade + shared chunk.
    preserveEntrySignatures: 'allow-extension',
    output: {
      dir: 'dist/cdn',
      entryFileNames: 'ahp-elements.min.js',
      // Chunks of elements that load on first use are named after their define module (ahp-mcp-app.min.js,
      // ahp-conversation.min.js), the others after a module in them.
      chunkFileNames: (chunk) => {
        const id = chunk.facadeModuleId?.replace(/\\/g, '/') ?? '';
        if (chunk.name === 'element-kit') return 'ahp-element-kit.min.js';
        return `ahp-${/elements\/([\w-]+)\/define\.ts$/.exec(id)?.[1] ?? /elements\/cdn-([\w-]+)\.ts$/.exec(id)?.[1] ?? '[name]'}.min.js`;
      },
      format: 'esm',
      sourcemap: true,
      // The namespace objects rollup makes for modules inside a chunk are read only by the entry's loaders (the
      // chunk's define modules, the chat reducers, the sign-in driver), never by a page: no Object.freeze around them.
      freeze: false,
      generatedCode,
      manualChunks: cdnManualChunks(entry('./cdn').source, ['/elements/cdn-conversation.ts', '/elements/mcp-app/define.ts']),
      // The chunks import from one another under the names they are exported as (scripts/minify-chunks.mjs).
      plugins: [minifyChunks(terserOptions())],
    },
  },
  // Worker mode from the CDN: a SharedWorker script must come from the page's own origin, so copy this file there
  // and point `<ahp-session worker="shared" worker-url="…">` at it.
  (({ plugins, ...config }) => ({ ...config, plugins: [eagerChatCode(), ...plugins] }))(minified('src/worker/shared-worker-entry.ts', 'dist/cdn/ahp-session-worker.min.js')),
  // Every headless entry on its own, minified, for the size check (dist/size/<entry>.min.js; `.` is core.min.js), with
  // the chunks it loads on first use next to it (<entry>-<chunk>.min.js: the store's chat reducers), split as any
  // bundler splits a dynamic import; only when scripts/size.mjs builds (AHP_SIZE_BUNDLES=1), not in `npm run build`.
  ...(process.env.AHP_SIZE_BUNDLES ? sizeEntries : []).map((e) => {
    const name = e.subpath === '.' ? 'core' : e.subpath.slice(2);
    const { output, ...config } = minified(e.source);
    return {
      ...config,
      // The loaded chunks import from the entry itself instead of a facade entry + shared chunk.
      preserveEntrySignatures: 'allow-extension',
      output: {
        format: 'esm',
        sourcemap: true,
        dir: 'dist/size',
        entryFileNames: `${name}.min.js`,
        chunkFileNames: `${name}-[name].min.js`,
        generatedCode,
        plugins: output.plugins,
      },
    };
  }),
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

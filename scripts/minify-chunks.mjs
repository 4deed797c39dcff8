// Rollup output plugin for the CDN build (an entry and the chunks it loads): terser on each chunk, one chunk after
// another, with one name cache for the whole build (as @rollup/plugin-terser does with a `nameCache`: the private member
// names of scripts/private-members.mjs stay the same in every chunk, and a top-level name keeps its short name in the
// chunks after). On top of that, the names the chunks import from one another are the names they are exported under:
// rollup gives those exports short names (`A`, `q`, `a0`), and terser, left alone, renames the importing side's local
// (`import{A as Z}`) and the exporting side's (`export{Xe as A}`); given the name cache below, it writes `import{A}` and
// `export{A}`. Those lists are nearly random letters, which gzip cannot shorten, so this is worth about 0.5 KB gzip.
import { minify } from 'terser';

/** Names of 1–2 characters: rollup's short export names between chunks (public names such as `AhpSession` are longer). */
const SHORT = /^[\w$]{1,2}$/;

/**
 * `{ local → name }` for the imports and exports of `ast` (the chunk's ESTree) whose exported name is short: the local
 * binding may be called by that name. One name per local and one local per name (a chunk may import `q` from the entry
 * and from another chunk, or import `A` and export its own `A`); names in `globals` (free variables of the chunk, which a
 * binding of that name would capture) are left out.
 */
function linkNames(ast, globals) {
  const want = new Map();
  const taken = new Set();
  const add = (local, name) => {
    if (!SHORT.test(name) || want.has(local) || taken.has(name) || globals.has(name)) return;
    want.set(local, name);
    taken.add(name);
  };
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') {
      for (const s of node.specifiers) if (s.type === 'ImportSpecifier' && s.imported.type === 'Identifier') add(s.local.name, s.imported.name);
    } else if (node.type === 'ExportNamedDeclaration' && !node.source && !node.declaration) {
      for (const s of node.specifiers) if (s.local.type === 'Identifier' && s.exported.type === 'Identifier') add(s.local.name, s.exported.name);
    }
  }
  return want;
}

/** The free variables of `code` (a module) as terser sees them. */
async function globalsOf(code) {
  const { ast } = await minify(code, { module: true, compress: false, mangle: false, format: { ast: true, code: false } });
  ast.figure_out_scope({ module: true });
  return new Set(ast.globals.keys());
}

/** The plugin; `options` are terser's (with `nameCache.props` when private member names are shortened). */
export function minifyChunks(options) {
  const cache = { props: options.nameCache?.props ?? { props: {} }, vars: { props: {} } };
  let queue = Promise.resolve();
  return {
    name: 'minify-chunks',
    renderChunk(code) {
      const ast = this.parse(code);
      const run = async () => {
        const vars = { ...cache.vars.props };
        const globals = await globalsOf(code);
        const want = linkNames(ast, globals);
        // A short name now wanted for a link is taken from whatever name held it in the cache, and no cached name may
        // be a global of this chunk (terser uses cached names as given: a local so named would capture the global).
        const wanted = new Set(want.values());
        for (const [key, name] of Object.entries(vars)) if (wanted.has(name) || globals.has(name)) delete vars[key];
        for (const [local, name] of want) vars[`$${local}`] = name;
        const nameCache = { props: cache.props, vars: { props: vars } };
        const result = await minify(code, { ...structuredClone({ ...options, nameCache: undefined }), module: true, nameCache, sourceMap: true });
        // terser writes back the names it used: the cache for the next chunk (each short name held by one name only).
        cache.props = nameCache.props;
        cache.vars = nameCache.vars;
        return { code: result.code, map: result.map };
      };
      // One chunk at a time: each minify reads the name cache the previous one wrote.
      const task = queue.then(run);
      queue = task.catch(() => {});
      return task;
    },
  };
}

// Rollup output plugin for the CDN build (an entry and the chunks it loads): terser on each chunk, one chunk after
// another, the private member names of scripts/private-members.mjs the same in every chunk (one property name cache).
// The names the chunks import from one another are the names they are exported under: rollup gives those exports short
// names (`A`, `q`, `a0`), and terser, left alone, renames the importing side's local (`import{A as Z}`) and the
// exporting side's (`export{Xe as A}`); given those names for the locals (its `nameCache.vars`), it writes `import{A}`
// and `export{A}`. Those lists are nearly random letters, which gzip cannot shorten: about 0.5 KB gzip in all. Other
// top-level names are not carried from chunk to chunk (as @rollup/plugin-terser's shared name cache did: each chunk
// then avoided every short name of the chunks before it).
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
  let props = options.nameCache?.props ?? { props: {} };
  let queue = Promise.resolve();
  return {
    name: 'minify-chunks',
    renderChunk(code) {
      const ast = this.parse(code);
      const run = async () => {
        // Top-level names: only the links are given (terser uses given names as they are, so none may be a global of
        // the chunk: see linkNames); terser names everything else in each chunk on its own.
        const links = linkNames(ast, await globalsOf(code));
        const nameCache = { props, vars: { props: Object.fromEntries([...links].map(([local, name]) => [`$${local}`, name])) } };
        const result = await minify(code, { ...structuredClone({ ...options, nameCache: undefined }), module: true, nameCache, sourceMap: true });
        props = nameCache.props;
        return { code: result.code, map: result.map };
      };
      // One chunk at a time, each with the private member names the previous one wrote back (the same in every chunk).
      const task = queue.then(run);
      queue = task.catch(() => {});
      return task;
    },
  };
}

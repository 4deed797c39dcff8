// The public API report: one file per package.json export in api/ listing its runtime names (with function
// signatures) and its types, read from the TypeScript entry modules; plus the README entry table. `npm run api`
// writes them, `node scripts/api.mjs --check` (part of `npm test`) fails when the public surface changed and the
// report was not regenerated, or when an entry uses `export *` (every public name is listed by hand in its entry).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { entries, pkg } from './entries.mjs';

const API_DIR = 'api';
const README = 'README.md';
const TABLE_START = '<!-- entries:start -->';
const TABLE_END = '<!-- entries:end -->';

/** The text with comments blanked out (same length, so offsets stay valid); string contents are kept. */
function stripComments(text) {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const cache = new Map();
function source(file) {
  if (!cache.has(file)) {
    if (!existsSync(file)) throw new Error(`${file}: no such module`);
    cache.set(file, stripComments(readFileSync(file, 'utf8')));
  }
  return cache.get(file);
}

/** The file a relative specifier of `from` names (`./x.js` → `x.ts` or `x/index.ts`). */
function resolveModule(from, spec) {
  const base = normalize(join(dirname(from), spec));
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && candidate.endsWith('.ts')) return candidate;
  }
  throw new Error(`${from}: cannot resolve ${spec}`);
}

const DECL = /\bexport\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(function\s*\*?|class|const|let|var|enum|interface|type|namespace)\s+([A-Za-z_$][\w$]*)/g;

/** What a module exports: named items (re-exported or local lists), `export *` targets and local declarations. */
function exportsOf(file) {
  const text = source(file);
  const named = [];
  for (const m of text.matchAll(/\bexport\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*['"]([^'"]+)['"])?/g)) {
    for (const raw of m[2].split(',')) {
      const item = raw.trim();
      if (!item) continue;
      const typeOnly = !!m[1] || /^type\s/.test(item);
      const [orig, name = orig] = item.replace(/^type\s+/, '').split(/\s+as\s+/).map((s) => s.trim());
      named.push({ name, orig, typeOnly, from: m[3] ? resolveModule(file, m[3]) : undefined });
    }
  }
  const stars = [...text.matchAll(/\bexport\s+(type\s+)?\*\s*(?:as\s+([\w$]+)\s+)?from\s*['"]([^'"]+)['"]/g)].map((m) => ({
    typeOnly: !!m[1],
    as: m[2],
    from: resolveModule(file, m[3]),
  }));
  const declared = [...text.matchAll(DECL)].map((m) => ({ name: m[2], keyword: m[1].replace(/\s|\*/g, ''), index: m.index }));
  return { named, stars, declared };
}

/** Text from `start` to the end of the balanced bracket opened at `open` (exclusive of nothing). */
function balanced(text, open) {
  const pairs = { '(': ')', '<': '>', '{': '}', '[': ']' };
  const stack = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (pairs[c]) stack.push(pairs[c]);
    else if (c === '>' && text[i - 1] === '=') continue; // arrow inside a type
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (!stack.length) return i + 1;
    }
  }
  return text.length;
}

/** `name<T>(params): Return` of the function declared at `index`, whitespace collapsed. */
function functionSignature(text, index, arrow = false) {
  const open = text.indexOf('(', index);
  const head = text.slice(index, open).replace(/^[\s\S]*?function\s*\*?\s*/, '');
  let end = balanced(text, open);
  let tail = '';
  const rest = text.slice(end);
  const colon = /^\s*:/.exec(rest);
  if (colon) {
    // The return type runs to the body's `{`: one at depth 0 that does not start an object type.
    let i = end + colon[0].length;
    let prev = ':';
    for (; i < text.length; i++) {
      const c = text[i];
      if (/\s/.test(c)) continue;
      if (c === '{' && !/[:|&,(]$/.test(prev.slice(-1)) && !prev.endsWith('=>')) break;
      if (c === ';' || (arrow && c === '=' && text[i + 1] === '>')) break;
      if ('(<[{'.includes(c)) {
        const close = balanced(text, i);
        prev = text.slice(i, close);
        i = close - 1;
        continue;
      }
      prev += c;
    }
    tail = text.slice(end, i);
  }
  return `${head}${text.slice(open, end)}${tail}`.replace(/\s+/g, ' ').replace(/\(\s/g, '(').replace(/,?\s\)/g, ')').trim();
}

/**
 * The public members of the class whose body opens at `open`: methods with their signatures, accessors, fields with
 * their declared types. `private`, `protected` and `#private` members are left out; bodies and initializers too.
 */
function classMembers(text, open) {
  const close = balanced(text, open) - 1;
  const members = [];
  let i = open + 1;
  while (i < close) {
    while (i < close && /[\s;]/.test(text[i])) i++;
    if (i >= close) break;
    const start = i;
    // The member's head runs to its body `{`, its initializer `=` or its end `;`, at depth 0.
    let j = i;
    let end = -1;
    for (; j < close; j++) {
      const c = text[j];
      if (c === "'" || c === '"' || c === '`') {
        let k = j + 1;
        while (k < close && text[k] !== c) k += text[k] === '\\' ? 2 : 1;
        j = k;
      } else if (c === '(' || c === '[' || c === '<') {
        if (c === '<' && text[j + 1] === '=') continue;
        j = balanced(text, j) - 1;
      } else if (c === '{') {
        // An object type after `:` belongs to the head; otherwise it is the body.
        const before = text.slice(start, j).trimEnd();
        if (/[:|&,]$/.test(before) || before.endsWith('=>')) j = balanced(text, j) - 1;
        else {
          end = j;
          j = balanced(text, j);
          break;
        }
      } else if (c === '=' && text[j + 1] !== '>' && text[j - 1] !== '=' && text[j - 1] !== '!') {
        end = j;
        // Skip the initializer: to the next `;` or line break at depth 0.
        for (j++; j < close && text[j] !== ';' && text[j] !== '\n'; j++) if ('([{'.includes(text[j])) j = balanced(text, j) - 1;
        break;
      } else if (c === ';' || c === '\n') {
        // A field without initializer ends its line (unless the type continues on the next one).
        const head = text.slice(start, j).trim();
        if (c === ';' || (head && !/[:|&,(<]$/.test(head))) {
          end = j;
          break;
        }
      }
    }
    if (end < 0) end = j;
    const head = text.slice(start, end).replace(/\s+/g, ' ').trim();
    i = Math.max(j, end + 1);
    if (!head || /^(private|protected)\b|^(static |readonly |override |declare |async |get |set )*#/.test(head) || /\b(private|protected)\s/.test(head.split(/[(:]/)[0])) continue;
    if (/^(static\s+)?\{/.test(head) || /^constructor\b/.test(head) && false) continue;
    members.push(head.replace(/\s*;$/, ''));
  }
  return members;
}

/** The declaration a module's export `name` ends at: kind, and a signature for functions. */
function resolveExport(file, name, seen = new Set()) {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const { named, stars, declared } = exportsOf(file);
  const decl = declared.find((d) => d.name === name);
  if (decl) return describe(file, decl);
  const item = named.find((n) => n.name === name);
  if (item) {
    if (item.from) return resolveExport(item.from, item.orig, seen);
    return resolveLocal(file, item.orig, seen);
  }
  for (const star of stars) {
    if (star.as) continue;
    const found = resolveExport(star.from, name, seen);
    if (found) return found;
  }
  return undefined;
}

/** A name a module exports with `export { name }` and no `from`: declared in the module or imported into it. */
function resolveLocal(file, name, seen) {
  const text = source(file);
  const re = new RegExp(`(?:^|[\\s;])(?:declare\\s+)?(?:abstract\\s+)?(?:async\\s+)?(function\\s*\\*?|class|const|let|var|enum|interface|type)\\s+${name}\\b`, 'm');
  const m = re.exec(text);
  if (m) return describe(file, { name, keyword: m[1].replace(/\s|\*/g, ''), index: m.index + m[0].indexOf(m[1]) });
  for (const imp of text.matchAll(/\bimport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"](\.[^'"]+)['"]/g)) {
    for (const raw of imp[1].split(',')) {
      const [orig, local = orig] = raw.trim().replace(/^type\s+/, '').split(/\s+as\s+/).map((s) => s.trim());
      if (local === name) return resolveExport(resolveModule(file, imp[2]), orig, seen);
    }
  }
  return undefined;
}

function describe(file, decl) {
  return { declared: decl.name, ...describeDecl(file, decl) };
}

function describeDecl(file, decl) {
  const kind = { let: 'const', var: 'const' }[decl.keyword] ?? decl.keyword;
  if (kind === 'function') return { kind, signature: functionSignature(source(file), decl.index), file };
  if (kind === 'const') {
    // `const name: Type = …` shows its type; `const name = (…): R => …` its arrow signature.
    const text = source(file);
    const after = text.slice(decl.index).replace(/^[\s\S]*?\b(?:const|let|var)\s+[\w$]+/, '');
    const start = decl.index + text.slice(decl.index).length - after.length;
    const annotated = /^\s*:/.exec(after);
    if (annotated) {
      let i = start + annotated[0].length;
      for (; i < text.length && text[i] !== '=' && text[i] !== ';'; i++) if ('(<[{'.includes(text[i])) i = balanced(text, i) - 1;
      return { kind, signature: `${decl.name}: ${text.slice(start + annotated[0].length, i).replace(/\s+/g, ' ').trim()}`, file };
    }
    const arrow = /^\s*=\s*(?:async\s*)?(?=[(<])/.exec(after);
    if (arrow) {
      const sig = functionSignature(text, start + arrow[0].length - 1, true).replace(/^[^(<]*/, '');
      return { kind: 'function', signature: `${decl.name}${sig}`, file };
    }
    return { kind, file };
  }
  if (kind === 'class') {
    const text = source(file);
    const m = /class\s+[\w$]+(\s*<[^{]*?>)?(\s+extends\s+[^{]*?)?(\s+implements\s+[^{]*?)?\s*\{/.exec(text.slice(decl.index));
    const heritage = m ? `${m[2] ?? ''}`.replace(/\s+/g, ' ').trim() : '';
    const open = m ? decl.index + m.index + m[0].length - 1 : -1;
    return { kind, signature: `${decl.name}${heritage ? ` ${heritage}` : ''}`, members: open < 0 ? [] : classMembers(text, open), file };
  }
  if (kind === 'interface') {
    const text = source(file);
    const m = /interface\s+[\w$]+(\s*<[^{]*?>)?(\s+extends\s+[^{]*?)?\s*\{/.exec(text.slice(decl.index));
    if (!m) return { kind, file };
    const open = decl.index + m.index + m[0].length - 1;
    const head = `${decl.name}${m[1] ?? ''}${m[2] ?? ''}`.replace(/\s+/g, ' ').trim();
    return { kind, signature: head, members: classMembers(text, open), file };
  }
  if (kind === 'type') {
    // `Name<T> = …` to the `;` that ends it (at depth 0).
    const text = source(file);
    const start = text.indexOf(decl.name, decl.index);
    let i = start;
    for (; i < text.length && text[i] !== ';'; i++) if ('([{<'.includes(text[i]) && !(text[i] === '<' && text[i + 1] === '=')) i = balanced(text, i) - 1;
    return { kind, signature: text.slice(start, i).replace(/\s+/g, ' ').trim(), file };
  }
  return { kind, file };
}

/** Tags an entry defines: `defineElement('tag', …)` in it and in the modules it imports for their side effects. */
function definedTags(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = source(file);
  const tags = [...text.matchAll(/\bdefineElement\(\s*['"]([\w-]+)['"]/g)].map((m) => m[1]);
  for (const m of text.matchAll(/^\s*import\s*['"](\.[^'"]+)['"]/gm)) tags.push(...definedTags(resolveModule(file, m[1]), seen));
  return [...new Set(tags)].sort();
}

/** The doc comment at the top of a module, collapsed to one paragraph. */
function headerOf(file) {
  const text = readFileSync(file, 'utf8');
  const m = /^\s*(?:\/\/[^\n]*\n\s*)*\/\*\*([\s\S]*?)\*\//.exec(text);
  if (m) return m[1].replace(/^\s*\* ?/gm, '').replace(/\s+/g, ' ').trim();
  // A generated module: its leading line comments, minus the "generated by" line.
  const lines = /^(?:\/\/[^\n]*\n)+/.exec(text)?.[0].split('\n') ?? [];
  return lines.map((l) => l.replace(/^\/\/\s?/, '')).filter((l) => l && !/\bgenerated\b/i.test(l)).join(' ').trim();
}

/** What the non-module exports are (files shipped as they are). */
const ASSETS = {
  './sandbox/*': 'the MCP Apps sandbox proxy page and its script (`sandbox-proxy.html`, `sandbox-proxy.js`): serve them on a second origin',
  './auth/callback.html': 'the OAuth callback page; host it on your page\'s origin',
  './cdn': 'the CDN file: one `<script type="module">` that defines the elements (the others load on first use)',
  './custom-elements.json': 'the Custom Elements Manifest',
  './editor/*': 'editor data: VS Code custom data and JetBrains web-types',
  './types/*': 'typings for frameworks: JSX (React 19, Preact, Solid), Vue, Svelte, `elements.d.ts`',
};

const sortByName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The report of one entry, and the problems found (an `export *`, a name that resolves to nothing). */
function report(entry) {
  const problems = [];
  const { named, stars, declared } = exportsOf(entry.source);
  for (const star of stars) problems.push(`${entry.source}: \`export ${star.typeOnly ? 'type ' : ''}*\` from ${star.from}: list the public names`);
  const runtime = [];
  const types = [];
  const add = (name, typeOnly, resolved) => {
    if (!resolved) problems.push(`${entry.source}: cannot find the declaration of ${name}`);
    // A renamed export (`isTerminal as isToolCallTerminal`) shows under the name users import.
    const signature = resolved?.signature && resolved.declared !== name ? resolved.signature.replace(new RegExp(`^${resolved.declared}\\b`), name) : resolved?.signature;
    const row = { name, kind: resolved?.kind ?? '?', signature, members: resolved?.members ?? [] };
    // Under isolatedModules a value-less name cannot be re-exported without `type`, so the rest are runtime values.
    if (typeOnly || ['interface', 'type'].includes(row.kind)) types.push(row);
    else runtime.push(row);
  };
  for (const n of named) add(n.name, n.typeOnly, n.from ? resolveExport(n.from, n.orig) : resolveLocal(entry.source, n.orig, new Set()));
  for (const d of declared) add(d.name, false, describe(entry.source, d));
  runtime.sort(sortByName);
  types.sort(sortByName);
  const lines = [
    `# ${entry.specifier}`,
    '',
    `Generated by \`npm run api\` from \`${entry.source}\` (\`package.json\` exports \`${entry.subpath}\`); \`npm test\` checks it.`,
    'A change here is a change to the public API: make it on purpose.',
    '',
  ];
  const tags = definedTags(entry.source);
  if (tags.length) lines.push(`Defines: ${tags.map((t) => `\`<${t}>\``).join(', ')}`, '');
  const lazy = [...source(entry.source).matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)].flatMap((m) => definedTags(resolveModule(entry.source, m[1])));
  const later = [...new Set(lazy)].filter((t) => !tags.includes(t)).sort();
  if (later.length) lines.push(`Defines on first use: ${later.map((t) => `\`<${t}>\``).join(', ')}`, '');
  lines.push(`## Runtime exports (${runtime.length})`, '');
  for (const r of runtime) {
    lines.push(`- ${r.kind} \`${r.signature ?? r.name}\``);
    for (const m of r.members) lines.push(`  - \`${m}\``);
  }
  if (!runtime.length) lines.push('(none)');
  lines.push('', `## Types (${types.length})`, '');
  for (const t of types) {
    lines.push(`- ${t.kind === 'class' ? 'class (type only)' : t.kind} \`${t.signature ?? t.name}\``);
    for (const m of t.members) lines.push(`  - \`${m}\``);
  }
  if (!types.length) lines.push('(none)');
  return { text: `${lines.join('\n')}\n`, problems };
}

const reportFile = (entry) => join(API_DIR, `${entry.specifier.replace(/\//g, '.')}.api.md`);

/** The README table of entries: one row per `exports` key, described by its entry module's doc comment. */
function entryTable(list) {
  const rows = ['| entry | what |', '|---|---|'];
  const seen = new Set();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const file = typeof target === 'string' ? target : target.default;
    const isWildcard = subpath.includes('*');
    const matching = list.filter((e) => (isWildcard ? e.subpath.startsWith(subpath.split('*')[0]) && !list.some((o) => o.subpath === subpath) : e.subpath === subpath));
    if (isWildcard && matching.length) {
      const defined = matching.flatMap((e) => definedTags(e.source));
      rows.push(`| \`${pkg.name}${subpath.slice(1).replace('*', '<name>')}\` | defines one element and what it renders: ${defined.length ? [...new Set(defined)].map((t) => `\`<${t}>\``).join(', ') : '—'} |`);
      for (const e of matching) seen.add(e.subpath);
      continue;
    }
    const e = matching[0];
    if (e && !seen.has(e.subpath)) {
      seen.add(e.subpath);
      rows.push(`| \`${e.specifier}\` | ${(e.kind === 'cdn' ? ASSETS[subpath] : headerOf(e.source)).replace(/\|/g, '\\|') || '—'} |`);
    } else if (!e && !/package\.json$/.test(subpath)) {
      rows.push(`| \`${pkg.name}${subpath.slice(1)}\` | ${ASSETS[subpath] ?? `file: \`${file}\``} |`);
    }
  }
  return rows.join('\n');
}

const check = process.argv.includes('--check');
const list = entries().filter((e) => e.kind === 'module' || existsSync(e.source));
const problems = [];
const wanted = new Map();
for (const entry of list) {
  const r = report(entry);
  problems.push(...r.problems);
  wanted.set(reportFile(entry), r.text);
}
const readme = readFileSync(README, 'utf8');
const start = readme.indexOf(TABLE_START);
const end = readme.indexOf(TABLE_END);
if (start < 0 || end < start) problems.push(`${README}: no ${TABLE_START} … ${TABLE_END} block for the entry table`);
const nextReadme = start < 0 || end < start ? readme : `${readme.slice(0, start + TABLE_START.length)}\n${entryTable(list)}\n${readme.slice(end)}`;

const stale = [];
const present = existsSync(API_DIR) ? readdirSync(API_DIR).filter((f) => f.endsWith('.api.md')).map((f) => join(API_DIR, f)) : [];
for (const [file, text] of wanted) if (!existsSync(file) || readFileSync(file, 'utf8') !== text) stale.push(file);
for (const file of present) if (!wanted.has(file)) stale.push(`${file} (no such entry any more)`);
if (nextReadme !== readme) stale.push(`${README} (entry table)`);

if (problems.length) {
  for (const p of problems) console.error(`api: ${p}`);
  process.exit(1);
}
if (check) {
  if (stale.length) {
    console.error(`api: the public API changed and the report is stale: ${stale.join(', ')}.\nRun \`npm run api\`, review the diff and commit it.`);
    process.exit(1);
  }
  console.log(`api: ${wanted.size} entry reports in ${API_DIR}/ and the README entry table are up to date`);
} else {
  mkdirSync(API_DIR, { recursive: true });
  for (const file of present) if (!wanted.has(file)) rmSync(file);
  for (const [file, text] of wanted) writeFileSync(file, text);
  if (nextReadme !== readme) writeFileSync(README, nextReadme);
  console.log(`api: wrote ${wanted.size} entry reports to ${API_DIR}/${nextReadme !== readme ? ' and the README entry table' : ''} (${relative('.', API_DIR)})`);
}

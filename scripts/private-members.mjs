// The TypeScript `private` instance members whose names the minified builds may shorten (terser `mangle.properties`).
// A name qualifies only when nothing in the project could reach it by name: every occurrence in the project's code
// (src, elements, react, examples, test, scripts; comments aside) is a `private` declaration or a `this.<name>`
// access. Any other use (`x.name`, an object or type key, a destructuring, a string equal to the name, a Lit
// `.name=` binding, a word in an .html or .d.ts file) and any word of the bundled Lit packages rules it out, as do
// public, protected and static members of the same name. Each name gets a fixed short name (`$0`, `$1`, …, `$$`, `_0`,
// …, `_$`, then `$10` …, none that the project or Lit uses as a property; the names the shipped code reads most often
// get the two-character ones) so that every bundle and chunk agrees, and no two members on one object (a class and its
// base in another chunk) collide.
// A member read by a computed name (`this[key]`) cannot be checked, so src/ and elements/ may not do that (the scan
// stops with an error; use a Map, or a string literal, which keeps the name out of the list).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from '@babel/parser';

const ROOT = new URL('..', import.meta.url).pathname;
const CODE_DIRS = ['src', 'elements', 'react', 'types', 'examples', 'test', 'scripts'];
const BUNDLED_PACKAGES = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element', '@lit/context'];
/** Characters of the short names. */
const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$';
/** `$<index in base 64>`: `$0` … `$$` are the first 64, then `$10` …. */
const dollarName = (index) => {
  let out = '';
  do {
    out = DIGITS[index % DIGITS.length] + out;
    index = Math.floor(index / DIGITS.length);
  } while (index > 0);
  return `$${out}`;
};

/**
 * `count` short names, none of them `taken`: `$0` … `$$` and `_0` … `_$` (128 two-character names), then `$10` ….
 * The `_` ones: −22 B gzip on the CDN total (December 2026); one-character names (the few nothing uses) saved 3 B more
 * on the total and cost 2 B on the entry.
 */
function shortNames(count, taken) {
  const out = [];
  const add = (name) => void (out.length < count && !taken(name) && out.push(name));
  for (const prefix of ['$', '_']) for (const c of DIGITS) add(prefix + c);
  for (let i = DIGITS.length; out.length < count; i++) add(dollarName(i));
  return out;
}

function filesUnder(dir, out = []) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

const words = (text) => text.match(/[A-Za-z_$][\w$]*/g) ?? [];

/** `this`, also as `(this as X)`, `this!`, `<X>this` or `(this)`. */
const isThis = (node) =>
  node.type === 'ThisExpression' || (/^(TSAsExpression|TSSatisfiesExpression|TSNonNullExpression|TSTypeAssertion|ParenthesizedExpression)$/.test(node.type) && isThis(node.expression));

/** Walks a Babel AST, recording private declarations and every other use of a name as a property. */
function scan(ast, privates, publicUses, stringWords, dynamicThis, thisUses) {
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    const plainKey = !node.computed && node.key?.type === 'Identifier' ? node.key.name : undefined;
    switch (node.type) {
      case 'ClassProperty':
      case 'ClassMethod':
      case 'ClassAccessorProperty':
      case 'TSDeclareMethod':
        if (plainKey) (node.accessibility === 'private' && !node.static ? privates : publicUses).add(plainKey);
        if (node.key?.type === 'StringLiteral') publicUses.add(node.key.value);
        break;
      case 'TSParameterProperty': {
        const id = node.parameter.type === 'AssignmentPattern' ? node.parameter.left : node.parameter;
        (node.accessibility === 'private' ? privates : publicUses).add(id.name);
        break;
      }
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        if (!node.computed && node.property.type === 'Identifier' && node.object.type !== 'ThisExpression') publicUses.add(node.property.name);
        if (!node.computed && node.property.type === 'Identifier' && node.object.type === 'ThisExpression' && thisUses) thisUses.set(node.property.name, (thisUses.get(node.property.name) ?? 0) + 1);
        if (node.computed && isThis(node.object) && !/Literal$/.test(node.property.type)) dynamicThis.push(node.loc?.start.line);
        break;
      case 'ObjectProperty':
      case 'ObjectMethod':
      case 'TSPropertySignature':
      case 'TSMethodSignature':
        if (plainKey) publicUses.add(plainKey);
        if (node.key?.type === 'StringLiteral') publicUses.add(node.key.value);
        break;
      case 'StringLiteral':
        // `'name'`, `'.name'`, `'@name'` (a key, an `in` check, a Lit binding written as a string)
        if (/^[.?@]?[A-Za-z_$][\w$]*=?$/.test(node.value)) for (const w of words(node.value)) publicUses.add(w), stringWords.add(w);
        break;
      case 'TemplateElement':
        for (const m of node.value.raw.matchAll(/[.?@]([A-Za-z_$][\w$]*)\s*=/g)) publicUses.add(m[1]);
        if (/^[A-Za-z_$][\w$]*$/.test(node.value.raw)) publicUses.add(node.value.raw);
        break;
      case 'TSLiteralType':
        if (node.literal.type === 'StringLiteral') publicUses.add(node.literal.value);
        break;
    }
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key.endsWith('Comments') || key === 'extra') continue;
      const value = node[key];
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value.type === 'string') visit(value);
    }
  };
  visit(ast.program);
}

/** Private member names that are safe to shorten, the most used in src/ and elements/ first (then by name), each with its short name. */
export function privateMemberNames() {
  const privates = new Set();
  const publicUses = new Set();
  const stringWords = new Set();
  const thisUses = new Map();
  for (const file of CODE_DIRS.flatMap((d) => filesUnder(join(ROOT, d)))) {
    const text = readFileSync(file, 'utf8');
    if (/\.d\.[cm]?ts$/.test(file) || /\.html?$/.test(file)) {
      for (const w of words(text)) publicUses.add(w), stringWords.add(w);
      continue;
    }
    if (!/\.([cm]?[jt]sx?|vue|svelte)$/.test(file)) continue;
    const sfc = /\.(vue|svelte)$/.test(file);
    const source = sfc ? [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n') : text;
    const typed = sfc || /\.[cm]?tsx?$/.test(file);
    let ast;
    try {
      ast = parse(source, {
        sourceType: 'unambiguous',
        plugins: [...(typed ? ['typescript'] : []), ...(sfc || /x$/.test(file) ? ['jsx'] : []), 'decorators-legacy', 'importAttributes'],
      });
    } catch (error) {
      // A file that does not parse cannot be checked: every word in it counts as a public use.
      for (const w of words(text)) publicUses.add(w);
      if (/^(src|elements)\//.test(relative(ROOT, file))) throw new Error(`private-members: cannot parse ${relative(ROOT, file)}: ${error.message}`);
      continue;
    }
    const dynamicThis = [];
    // Uses in the shipped code (src/, elements/) decide which names get the shortest short names.
    scan(ast, privates, publicUses, stringWords, dynamicThis, /^(src|elements)\//.test(relative(ROOT, file)) ? thisUses : undefined);
    if (dynamicThis.length && /^(src|elements)\//.test(relative(ROOT, file))) {
      throw new Error(`private-members: ${relative(ROOT, file)}:${dynamicThis[0]} reads this[…] by a computed name; private member names could not be shortened safely`);
    }
  }
  for (const pkg of BUNDLED_PACKAGES) {
    for (const file of filesUnder(join(ROOT, 'node_modules', pkg))) if (file.endsWith('.js')) for (const w of words(readFileSync(file, 'utf8'))) publicUses.add(w);
  }
  const names = [...privates]
    .filter((n) => n.length > 2 && !publicUses.has(n))
    .sort((a, b) => (thisUses.get(b) ?? 0) - (thisUses.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  // A short name already in use as a property would collide (a word such as `$1` of a .d.ts or .html file, from a
  // replace pattern, is no property).
  const short = shortNames(names.length, (n) => privates.has(n) || (publicUses.has(n) && !(n.startsWith('$') && stringWords.has(n))));
  return names.map((name, i) => ({ name, short: short[i] }));
}

/**
 * Terser options that shorten the names of `privateMemberNames()` to their short names through a name cache, so the
 * same member has the same short name in every bundle and chunk. A fresh object on every call (terser writes into its
 * name cache).
 */
export function privateMemberMangle(names) {
  if (!names.length) return {};
  const escape = (s) => s.replace(/\$/g, '\\$');
  return {
    mangle: { properties: { regex: new RegExp(`^(?:${names.map(({ name }) => escape(name)).join('|')})$`) } },
    nameCache: { props: { props: Object.fromEntries(names.map(({ name, short }) => [`$${name}`, short])) } },
  };
}

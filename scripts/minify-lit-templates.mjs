// Rollup plugin for the minified bundles: shrinks Lit `css` tagged templates (comments, line breaks and indentation
// out, whitespace collapsed, no spaces around `{ } ; : ,` nor around a selector's combinators, no `;` before `}`, `0.5` as
// `.5`, attribute selector values that are identifiers unquoted). Other strings, `url(…)` and `${…}` expressions are
// left as they are; only the static CSS text between them changes. In `html`/`svg` templates only the
// indentation after a line break goes (a run of white space renders as one space either way, and no template puts a
// line break inside a `<pre>`, `<textarea>` or `white-space: pre` element); nothing else in them changes. The edits go
// through magic-string, so the source maps still point at the right lines and columns.
// The elements' private custom properties (`--_space-2`, `--_text`, …: set on each element's :host from the public
// `--ahp-*` tokens, read only inside the elements' shadow roots) get short names (`--_0`, `--_1`, …), the same in every
// bundle and chunk (see `privateCustomProperties`).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import MagicString from 'magic-string';

const ROOT = new URL('..', import.meta.url).pathname;
const PRIVATE_PROPERTY = /--_[\w-]+/g;

/**
 * Every private custom property name (`--_…`) in src/ and elements/, sorted, mapped to a short name. The same sources
 * give the same map, so every bundle and chunk agrees, and nested elements (a `<ahp-tool-call>` inside `<ahp-chat>`)
 * still inherit one another's values under the same name.
 */
export function privateCustomProperties() {
  const found = new Set();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.[cm]?[jt]s$/.test(name)) for (const m of readFileSync(path, 'utf8').matchAll(PRIVATE_PROPERTY)) found.add(m[0]);
    }
  };
  for (const dir of ['src', 'elements']) walk(join(ROOT, dir));
  const names = [...found].sort();
  const map = new Map(names.map((n, i) => [n, `--_${i.toString(36)}`]));
  const clash = [...map.values()].find((short) => found.has(short));
  if (clash) throw new Error(`minify-lit-templates: the custom property ${clash} is also a short name`);
  return map;
}

/** Tokens of static CSS text: strings, comments, whitespace runs, anything else. */
const CSS_IDENT = /^-?[A-Za-z_][\w-]*$/;
const CSS_TOKENS = /("(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|url\([^)]*\))|(\/\*[\s\S]*?\*\/)|(\s+)|([^"'\s/u]+|[/u])/g;

/** Minifies one static part of a css`` template; `first`/`last` say whether it starts/ends the template. */
export function minifyCssText(text, first, last) {
  let out = '';
  for (const m of text.matchAll(CSS_TOKENS)) {
    const [, str, comment, space, other] = m;
    // An attribute selector's value needs no quotes when it is an identifier: `[data-kind='error']` → `[data-kind=error]`.
    if (str !== undefined) out += out.endsWith('=') && text[m.index + str.length] === ']' && CSS_IDENT.test(str.slice(1, -1)) ? str.slice(1, -1) : str;
    else if (comment !== undefined || space !== undefined) out += ' ';
    else out += other;
  }
  // Collapse the spaces left by comments, then drop the ones next to punctuation (never inside strings: the
  // pattern requires the character itself, and strings were copied whole above, but may contain these
  // characters — so re-split to keep them intact).
  const parts = out.split(/("(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|url\([^)]*\))/);
  for (let i = 0; i < parts.length; i += 2) {
    parts[i] = parts[i]
      .replace(/ {2,}/g, ' ')
      .replace(/ ?([{};,]) ?/g, '$1')
      .replace(/: /g, ':')
      .replace(/;}/g, '}');
    // `0.5` → `.5`; no space around a combinator in a selector (text that runs up to a `{`; at-rules left alone,
    // and never inside a declaration, where `calc(a + b)` needs its spaces).
    parts[i] = parts[i].replace(/(--[\w-]*:)?[^{};]*/g, (decl, custom) => (custom ? decl : decl.replace(/([:,( ])0\.(\d)/g, '$1.$2')));
    parts[i] = parts[i].replace(/(^|[{};])([^{};@][^{};]*)(?=\{)/g, (_, before, selector) => before + selector.replace(/ ?([>+~]) ?/g, '$1'));
  }
  out = parts.join('');
  if (first) out = out.replace(/^ /, '');
  if (last) out = out.replace(/ $/, '');
  return out;
}

const CSS_TEMPLATE = /\bcss`((?:[^`\\$]|\\[\s\S]|\$(?!\{)|\$\{[^`}]*\})*)`/g;

/**
 * Minifies the static parts of every css`…` template of `code` in `ms` (a MagicString of `code`), with the private
 * custom properties of `names` (see `privateCustomProperties`) shortened.
 */
function minifyCssIn(code, ms, names = new Map()) {
  for (const m of code.matchAll(CSS_TEMPLATE)) {
    const pieces = m[1].split(/(\$\{[^`}]*\})/);
    const last = pieces.length - 1;
    let at = m.index + 'css`'.length;
    pieces.forEach((piece, i) => {
      if (i % 2 === 0 && piece) {
        const min = minifyCssText(piece, i === 0, i === last).replace(PRIVATE_PROPERTY, (n) => names.get(n) ?? n);
        if (min !== piece) {
          if (min) ms.overwrite(at, at + piece.length, min);
          else ms.remove(at, at + piece.length);
        }
      }
      at += piece.length;
    });
  }
}

/** Finds css`…` templates in (esbuild-transpiled) JS and minifies their static parts. */
export function minifyCssTemplates(code) {
  const ms = new MagicString(code);
  minifyCssIn(code, ms);
  return ms.toString();
}

/** The ranges of indentation after line breaks in the `html`/`svg` tagged templates of an ESTree `ast` of `code`. */
function htmlIndentation(code, ast) {
  const cuts = [];
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'TaggedTemplateExpression' && node.tag.type === 'Identifier' && (node.tag.name === 'html' || node.tag.name === 'svg')) {
      for (const q of node.quasi.quasis) {
        for (const m of code.slice(q.start, q.end).matchAll(/\n[ \t]+/g)) cuts.push([q.start + m.index + 1, q.start + m.index + m[0].length]);
      }
    }
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v === 'object' && key !== 'loc') visit(v);
    }
  };
  visit(ast);
  return cuts;
}

/** `code` with the indentation after line breaks in its `html`/`svg` templates removed (`ast`: its ESTree). */
export function dropHtmlIndentation(code, ast) {
  const ms = new MagicString(code);
  for (const [from, to] of htmlIndentation(code, ast)) ms.remove(from, to);
  return ms.toString();
}

export const minifyLitTemplates = () => {
  const names = privateCustomProperties();
  return {
    name: 'minify-lit-templates',
    transform(code, id) {
      if (id.includes('/node_modules/')) return null;
      const hasCss = code.includes('css`');
      const hasHtml = /\b(html|svg)`/.test(code);
      if (!hasCss && !hasHtml && !code.includes('--_')) return null;
      const ms = new MagicString(code);
      if (hasCss) minifyCssIn(code, ms, names);
      if (hasHtml) for (const [from, to] of htmlIndentation(code, this.parse(code))) ms.remove(from, to);
      // A private custom property anywhere but in the static text of a css`` template (a string in code, an html``
      // style) would keep its long name and no longer match: stop rather than ship styles that silently fall apart.
      const left = ms.toString().match(PRIVATE_PROPERTY)?.find((n) => names.has(n));
      if (left) this.error(`minify-lit-templates: ${left} is used outside the static text of a css\`\` template in ${id}; it would not get the short name its styles use`);
      if (!ms.hasChanged()) return null;
      return { code: ms.toString(), map: ms.generateMap({ hires: 'boundary', source: id, includeContent: false }) };
    },
  };
};

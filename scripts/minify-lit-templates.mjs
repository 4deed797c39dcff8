// Rollup plugin for the minified bundles: shrinks Lit `css` tagged templates (comments out, whitespace collapsed,
// no spaces around `{ } ; : ,`, no `;` before `}`). Strings, `url(…)` and `${…}` expressions are left as they are;
// only the static CSS text between them changes. Line breaks are kept (one per source line) so the module's lines,
// and with them the source maps, stay where they were. In `html`/`svg` templates only the indentation after a line
// break goes (a run of white space renders as one space either way, and no template puts a line break inside a
// `<pre>`, `<textarea>` or `white-space: pre` element); nothing else in them changes.

/** Tokens of static CSS text: strings, comments, whitespace runs, anything else. */
const CSS_TOKENS = /("(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|url\([^)]*\))|(\/\*[\s\S]*?\*\/)|(\s+)|([^"'\s/u]+|[/u])/g;

/** Minifies one static part of a css`` template; `first`/`last` say whether it starts/ends the template. */
export function minifyCssText(text, first, last) {
  let out = '';
  for (const [, str, comment, space, other] of text.matchAll(CSS_TOKENS)) {
    if (str !== undefined) out += str;
    else if (comment !== undefined || space !== undefined) out += '\n'.repeat((comment ?? space).split('\n').length - 1) || ' ';
    else out += other;
  }
  // Collapse the spaces left by comments, then drop the ones next to punctuation (never inside strings: the
  // pattern requires the character itself, and strings were copied whole above, but may contain these
  // characters — so re-split to keep them intact).
  const parts = out.split(/("(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|url\([^)]*\))/);
  for (let i = 0; i < parts.length; i += 2) {
    parts[i] = parts[i]
      .replace(/ *\n */g, '\n')
      .replace(/ {2,}/g, ' ')
      .replace(/ ?([{};,]) ?/g, '$1')
      .replace(/: /g, ':')
      .replace(/;(\n*)}/g, '$1}');
  }
  out = parts.join('');
  if (first) out = out.replace(/^ /, '');
  if (last) out = out.replace(/ $/, '');
  return out;
}

/** Finds css`…` templates in (esbuild-transpiled) JS and minifies their static parts. */
export function minifyCssTemplates(code) {
  return code.replace(/\bcss`((?:[^`\\$]|\\[\s\S]|\$(?!\{)|\$\{[^`}]*\})*)`/g, (whole, body) => {
    const pieces = body.split(/(\$\{[^`}]*\})/);
    const last = pieces.length - 1;
    return `css\`${pieces.map((p, i) => (i % 2 ? p : minifyCssText(p, i === 0, i === last))).join('')}\``;
  });
}

/** Tagged templates of `html`/`svg` in an ESTree `ast` of `code`, their indentation after line breaks removed. */
export function dropHtmlIndentation(code, ast) {
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
  if (!cuts.length) return code;
  let out = '';
  let at = 0;
  for (const [from, to] of cuts.sort((a, b) => a[0] - b[0])) {
    out += code.slice(at, from);
    at = to;
  }
  return out + code.slice(at);
}

export const minifyLitTemplates = () => ({
  name: 'minify-lit-templates',
  transform(code, id) {
    if (id.includes('/node_modules/')) return null;
    let next = code.includes('css`') ? minifyCssTemplates(code) : code;
    if (/\b(html|svg)`/.test(next)) next = dropHtmlIndentation(next, this.parse(next));
    return next === code ? null : { code: next, map: null };
  },
});

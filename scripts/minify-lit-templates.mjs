// Rollup plugin for the minified bundles: shrinks Lit `css` tagged templates (comments out, whitespace collapsed,
// no spaces around `{ } ; : ,`, no `;` before `}`). Strings, `url(…)` and `${…}` expressions are left as they are;
// only the static CSS text between them changes. Line breaks are kept (one per source line) so the module's lines,
// and with them the source maps, stay where they were. `html` templates are not touched (text-node whitespace matters).

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

export const minifyLitTemplates = () => ({
  name: 'minify-lit-templates',
  transform(code, id) {
    if (id.includes('/node_modules/') || !code.includes('css`')) return null;
    const next = minifyCssTemplates(code);
    return next === code ? null : { code: next, map: null };
  },
});

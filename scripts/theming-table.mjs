// The README Theming tables (between `<!-- theming:start -->` and `<!-- theming:end -->`), generated from the CSS the
// elements really use (`tokenStyles` of elements/shared/tokens.ts, whose colours come from src/theme/palette.ts) and
// the `@cssprop` descriptions in custom-elements.json.
import { tsImport } from 'tsx/esm/api';
import { elementsOf } from './manifest-model.mjs';

export const THEMING_START = '<!-- theming:start -->';
export const THEMING_END = '<!-- theming:end -->';

const cell = (text) => String(text ?? '').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** `--_private: var(--ahp-public, default)` declarations of the global tier, in source order. */
export async function globalTokens() {
  const { tokenStyles } = await tsImport('../elements/shared/tokens.ts', import.meta.url);
  const tokens = [];
  for (const m of tokenStyles.cssText.matchAll(/(--_[\w-]+)\s*:\s*var\(\s*(--ahp-[\w-]+)\s*,\s*([^;]+?)\)\s*;/g)) {
    tokens.push({ private: m[1], name: m[2], fallback: m[3].trim() });
  }
  if (tokens.length === 0) throw new Error('no --ahp-* tokens found in tokenStyles');
  return tokens;
}

/** The light and dark default of one token, following `var(--_other)` to the token it reads. */
function defaults(token, byPrivate) {
  const follows = /^var\((--_[\w-]+)\)$/.exec(token.fallback)?.[1];
  if (follows) {
    const other = byPrivate.get(follows);
    if (!other) throw new Error(`${token.name} follows ${follows}, which no token defines`);
    return { ...defaults(other, byPrivate), follows: other.name };
  }
  const ld = /^light-dark\((.+),\s*(.+)\)$/.exec(token.fallback);
  return ld ? { light: ld[1].trim(), dark: ld[2].trim() } : { light: token.fallback, dark: '' };
}

/** The Markdown between the markers. */
export async function themingTables(manifest) {
  const tokens = await globalTokens();
  const byPrivate = new Map(tokens.map((t) => [t.private, t]));
  const elements = elementsOf(manifest);
  const described = new Map(elements.flatMap((el) => el.cssProperties.map((p) => [p.name, p.description])));
  const global = new Set(tokens.map((t) => t.name));
  let md = `${THEMING_START}\n<!-- Generated from elements/shared/tokens.ts and custom-elements.json by scripts/docs.mjs (npm run docs). -->\n\n`;
  md += '| Token | Light default | Dark default | Used for |\n| --- | --- | --- | --- |\n';
  for (const t of tokens) {
    const d = defaults(t, byPrivate);
    if (!described.has(t.name)) throw new Error(`${t.name} has no @cssprop description`);
    const note = d.follows ? ` Follows \`${d.follows}\` unless set.` : '';
    md += `| \`${t.name}\` | \`${cell(d.light)}\` | ${d.dark ? `\`${cell(d.dark)}\`` : ''} | ${cell(described.get(t.name))}${note} |\n`;
  }
  const own = elements.flatMap((el) => el.cssProperties.filter((p) => !global.has(p.name)).map((p) => ({ ...p, tag: el.tagName })));
  if (own.length) {
    md += '\nComponent tokens, each read by one element:\n\n| Token | Element | Used for |\n| --- | --- | --- |\n';
    for (const p of own.sort((a, b) => a.name.localeCompare(b.name))) md += `| \`${p.name}\` | \`<${p.tag}>\` | ${cell(p.description)} |\n`;
  }
  return `${md}${THEMING_END}`;
}

/** README text with the Theming tables replaced; throws when the markers are missing. */
export async function readmeWithTheming(readme, manifest) {
  const a = readme.indexOf(THEMING_START);
  const b = readme.indexOf(THEMING_END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${THEMING_START} … ${THEMING_END} markers`);
  return readme.slice(0, a) + (await themingTables(manifest)) + readme.slice(b + THEMING_END.length);
}

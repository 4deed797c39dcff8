// `npm run docs`: regenerates custom-elements.json, the framework typings + React wrappers, the editor data (VS Code
// custom HTML data, JetBrains web-types), the element reference `docs/reference.md` and the README Theming tables,
// all from the element JSDoc (and, for the token defaults, the CSS of elements/shared/tokens.ts).
// `node scripts/docs.mjs --check` writes nothing and fails when any of them is stale (run by `npm test`).
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeManifest, MANIFEST } from './manifest.mjs';
import { elementsOf } from './manifest-model.mjs';
import { typingsFiles, writeTypings } from './typings.mjs';
import { editorDataFiles } from './editor-data.mjs';
import { readmeWithTheming } from './theming-table.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REFERENCE = path.join(root, 'docs', 'reference.md');
const README = path.join(root, 'README.md');

const cell = (text) => (text ? String(text).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim() : '');
const code = (text) => (text ? `\`${cell(text).replace(/`/g, "'")}\`` : '');
const table = (head, rows) =>
  rows.length ? `| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n\n` : '';

/** The Markdown of docs/reference.md: one section per element, after the tokens every styled element reads. */
export function apiTables(manifest) {
  const elements = elementsOf(manifest);
  // Tokens every element reads are listed once; each element lists its own on top.
  const shared = elements
    .map((el) => new Set(el.cssProperties.map((p) => p.name)))
    .reduce((a, b) => new Set([...a].filter((n) => b.has(n) || !b.size)));
  const sharedTokens = elements.flatMap((el) => el.cssProperties).filter((p, i, all) => shared.has(p.name) && all.findIndex((q) => q.name === p.name) === i);
  let md = '# ahp-elements element reference\n\n<!-- Generated from custom-elements.json by scripts/docs.mjs (npm run docs); edit the element JSDoc instead. -->\n\n';
  md += 'Every element\'s properties, attributes, events, slots, parts, custom states and theme tokens. How to use them: the [README](../README.md).\n\n';
  md += `Elements: ${elements.map((el) => `[\`<${el.tagName}>\`](#${el.tagName})`).join(', ')}.\n\n`;
  md += '## Theme tokens read by every styled element\n\nSet them on any ancestor (or `:root`); the defaults follow `color-scheme` (values: README, Theming).\n\n';
  md += table(['token', 'what it styles'], sharedTokens.map((p) => [code(p.name), cell(p.description)]));
  for (const el of elements) {
    md += `## \`<${el.tagName}>\`\n\n${cell(el.summary)} Class \`${el.className}\`.\n\n`;
    md += table(
      ['property', 'attribute', 'type', 'description'],
      el.properties.map((p) => [code(p.name), code(p.attribute), code(p.type), cell(p.description)]),
    );
    md += table(
      ['event', 'class', 'detail', 'when'],
      el.events.map((e) => [code(e.name), code(e.eventClass), code(e.detail), cell(e.description)]),
    );
    md += table(['slot', 'content'], el.slots.map((s) => [s.name ? code(s.name) : '(default)', cell(s.description)]));
    md += table(['part', 'what it is'], el.cssParts.map((p) => [code(p.name), cell(p.description)]));
    md += table(['custom state', 'when'], el.cssStates.map((s) => [code(`:state(${s.name})`), cell(s.description)]));
    md += table(['own token', 'what it styles'], el.cssProperties.filter((p) => !shared.has(p.name)).map((p) => [code(p.name), cell(p.description)]));
  }
  return `${md.trimEnd()}\n`;
}

/** Where two texts first differ, a few lines of each, so a stale check says what changed. */
function firstDifference(committed, generated) {
  const a = committed.split('\n');
  const b = generated.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const show = (lines) => lines.slice(Math.max(0, i - 2), i + 4).join('\n');
  return `first difference at line ${i + 1}\n--- committed\n${show(a)}\n+++ generated\n${show(b)}`;
}

async function check() {
  const text = analyzeManifest();
  const manifest = JSON.parse(text);
  const stale = [];
  if (!existsSync(MANIFEST) || readFileSync(MANIFEST, 'utf8') !== text) {
    stale.push('custom-elements.json');
    if (existsSync(MANIFEST)) console.error(firstDifference(readFileSync(MANIFEST, 'utf8'), text));
  }
  for (const [file, content] of [...typingsFiles(manifest), ...editorDataFiles(manifest)]) {
    const full = path.join(root, file);
    if (!existsSync(full) || readFileSync(full, 'utf8') !== content) stale.push(file);
  }
  if (!existsSync(REFERENCE) || readFileSync(REFERENCE, 'utf8') !== apiTables(manifest)) stale.push('docs/reference.md');
  const readme = readFileSync(README, 'utf8');
  if ((await readmeWithTheming(readme, manifest)) !== readme) stale.push('README.md (Theming tables)');
  if (stale.length) {
    console.error(`stale generated docs: ${stale.join(', ')}\nrun \`npm run docs\` and commit the result`);
    process.exit(1);
  }
  console.log('docs: custom-elements.json, typings, React wrappers, editor data, docs/reference.md and the README Theming tables are up to date');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) await check();
  else {
    const text = analyzeManifest();
    writeFileSync(MANIFEST, text);
    const manifest = JSON.parse(text);
    writeTypings(manifest);
    for (const [file, content] of editorDataFiles(manifest)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), content);
    }
    writeFileSync(REFERENCE, apiTables(manifest));
    writeFileSync(README, await readmeWithTheming(readFileSync(README, 'utf8'), manifest));
    console.log('wrote custom-elements.json, types/*.d.ts, react/index.ts, editor/*.json, docs/reference.md and the README Theming tables');
  }
}

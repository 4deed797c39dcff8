// Editor support generated from custom-elements.json (by scripts/docs.mjs, checked for staleness with the rest):
// - editor/vscode.html-custom-data.json: VS Code custom HTML data (tags, attributes with their values, descriptions);
// - editor/web-types.json: JetBrains web-types (elements, attributes, events, CSS parts and custom properties).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { elementsOf } from './manifest-model.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const README_URL = 'https://www.npmjs.com/package/ahp-elements';

/** `export type Name = 'a' | 'b';` string-literal unions declared in the sources, by name (attribute types refer to them). */
function literalAliases() {
  const out = new Map();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.ts')) {
        for (const m of readFileSync(full, 'utf8').matchAll(/export type (\w+) = ((?:\s*\|?\s*'[^']*')+);/g)) {
          out.set(m[1], [...m[2].matchAll(/'([^']*)'/g)].map((v) => v[1]));
        }
      }
    }
  };
  walk(path.join(root, 'src'));
  walk(path.join(root, 'elements'));
  return out;
}

/** The values an attribute takes when its type is a union of string literals (directly or through an alias), else undefined. */
function valuesOf(type, aliases) {
  if (!type) return undefined;
  const parts = type.split('|').map((p) => p.trim()).filter((p) => p !== 'null' && p !== 'undefined');
  const values = [];
  for (const p of parts) {
    const literal = /^'([^']*)'$|^"([^"]*)"$/.exec(p);
    if (literal) values.push(literal[1] ?? literal[2]);
    else if (aliases.has(p)) values.push(...aliases.get(p));
    else return undefined;
  }
  return values.length ? values : undefined;
}

// The README's Reference section (the per-element tables are in docs/reference.md, which names every tag).
const anchor = () => `${README_URL}#reference`;

function vscode(elements, aliases) {
  return {
    version: 1.1,
    tags: elements.map((el) => ({
      name: el.tagName,
      description: [el.summary, el.events.length ? `Events: ${el.events.map((e) => e.name).join(', ')}.` : ''].filter(Boolean).join('\n\n'),
      attributes: el.attributes.map((a) => {
        const values = valuesOf(a.type, aliases);
        return { name: a.name, description: a.description, ...(values && { values: values.map((name) => ({ name })) }) };
      }),
      references: [{ name: 'ahp-elements README', url: anchor(el.tagName) }],
    })),
  };
}

function webTypes(elements, aliases) {
  return {
    $schema: 'https://raw.githubusercontent.com/JetBrains/web-types/master/schema/web-types.json',
    name: pkg.name,
    version: pkg.version,
    'description-markup': 'markdown',
    'js-types-syntax': 'typescript',
    contributions: {
      html: {
        elements: elements.map((el) => ({
          name: el.tagName,
          description: el.summary,
          'doc-url': anchor(el.tagName),
          source: { module: pkg.name, symbol: el.className },
          attributes: el.attributes.map((a) => {
            const values = valuesOf(a.type, aliases);
            return {
              name: a.name,
              description: a.description,
              value: values ? { type: values.map((v) => `'${v}'`).join(' | '), required: true } : { type: 'string', required: true },
            };
          }),
          js: {
            properties: el.properties.map((p) => ({ name: p.name, description: p.description, ...(p.type && { type: p.type }) })),
            events: el.events.map((e) => ({ name: e.name, description: e.description, ...(e.eventClass && { type: e.eventClass }) })),
          },
          css: {
            parts: el.cssParts.map((p) => ({ name: p.name, description: p.description })),
            properties: el.cssProperties.map((p) => ({ name: p.name, description: p.description })),
          },
        })),
      },
    },
  };
}

/** File → content of the editor data, from the manifest. */
export function editorDataFiles(manifest) {
  const elements = elementsOf(manifest);
  const aliases = literalAliases();
  const json = (v) => `${JSON.stringify(v, null, 2)}\n`;
  return new Map([
    ['editor/vscode.html-custom-data.json', json(vscode(elements, aliases))],
    ['editor/web-types.json', json(webTypes(elements, aliases))],
  ]);
}

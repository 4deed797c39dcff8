// Framework typings and the React ≤18 wrappers, generated from custom-elements.json:
//   types/elements.d.ts   — per tag: element class, attributes, properties, events (shared by the files below)
//   types/jsx-react.d.ts  — React 19 JSX (`onahp-…` handlers), types/jsx-preact.d.ts, types/jsx-solid.d.ts
//   types/vue.d.ts        — Vue `GlobalComponents` (`@ahp-…` listeners), types/svelte.d.ts — Svelte 5 `SvelteHTMLElements`
//   react/index.ts        — one `@lit/react` `createComponent` per element (`onAhp…` props), the `ahp-elements/react` entry
// `node scripts/typings.mjs` writes them; scripts/docs.mjs --check compares them.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { elementsOf, pascal } from './manifest-model.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEADER = '// Generated from custom-elements.json by scripts/typings.mjs (npm run docs). Do not edit.\n';
const doc = (text, indent = '  ') => (text ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n` : '');
const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);
const attrType = (t = '') => (/\bnumber\b/.test(t) ? 'number | string' : /\bboolean\b/.test(t) ? 'boolean' : 'string');

function elementsDts(elements) {
  const imports = new Set();
  for (const el of elements) {
    imports.add(el.className);
    for (const e of el.events) if (e.eventClass) imports.add(e.eventClass);
  }
  let out = `${HEADER}import type {\n${[...imports].sort().map((n) => `  ${n},\n`).join('')}} from 'ahp-elements/elements';\n\n`;
  for (const el of elements) {
    const p = el.className;
    out += `/** Attributes of \`<${el.tagName}>\` (strings in markup). */\nexport interface ${p}Attributes {\n`;
    for (const a of el.attributes) out += doc(a.description) + `  ${key(a.name)}?: ${attrType(a.type)} | null;\n`;
    out += `}\n\n/** Properties of \`<${el.tagName}>\` (rich data goes here). */\nexport interface ${p}Properties {\n`;
    for (const prop of el.properties) out += doc(prop.description) + `  ${key(prop.name)}?: ${p}['${prop.name}'];\n`;
    out += `}\n\n/** Events \`<${el.tagName}>\` fires, by name. */\nexport interface ${p}Events {\n`;
    for (const e of el.events) out += doc(e.description) + `  ${key(e.name)}: ${e.eventClass ?? 'Event'};\n`;
    out += `}\n\n`;
  }
  out += `/** Every ahp-elements tag: its class, attributes, properties and events. */\nexport interface AhpElements {\n`;
  for (const el of elements) {
    const p = el.className;
    out += doc(el.summary) + `  '${el.tagName}': { element: ${p}; attributes: ${p}Attributes; properties: ${p}Properties; events: ${p}Events };\n`;
  }
  return `${out}}\n\n/** \`ahp-tool-call-approve\` → \`AhpToolCallApprove\`. */\nexport type PascalCase<S extends string> = S extends \`\${infer H}-\${infer T}\` ? \`\${Capitalize<H>}\${PascalCase<T>}\` : Capitalize<S>;\n`;
}

/** A framework file: `intrinsic(tag)` is the type of one tag's props. */
function frameworkDts({ intro, imports, helpers, open, close, intrinsic }, elements) {
  const names = helpers.includes('PascalCase') ? 'AhpElements, PascalCase' : 'AhpElements';
  let out = `${HEADER}${intro}${imports}import type { ${names} } from './elements.js';\n\n${helpers}\n${open}`;
  for (const el of elements) out += doc(el.summary, '      ') + `      '${el.tagName}': ${intrinsic(el.tagName)};\n`;
  return `${out}${close}`;
}

const CLOSE_NS = '    }\n  }\n}\n';

/**
 * React, Preact and Solid: `IntrinsicElements` entries of `Props<tag>`, the framework's HTML attributes of the element
 * (`attributes`), the element's attributes and properties (`properties`), and a listener prop per event named
 * `<handler><event-name>`.
 */
function jsxFramework({ intro, imports, handler, attributes, properties = "AhpElements[T]['properties']", extraHelpers = '', open }, elements) {
  return frameworkDts(
    {
      intro,
      imports,
      helpers:
        `type Tag = keyof AhpElements;\ntype Handlers<E> = { [K in keyof E as \`${handler}\${K & string}\`]?: (event: E[K]) => void };\n` +
        extraHelpers +
        `type Props<T extends Tag> = ${attributes} &\n  AhpElements[T]['attributes'] & ${properties} & Handlers<AhpElements[T]['events']>;\n`,
      open,
      close: CLOSE_NS,
      intrinsic: (tag) => `Props<'${tag}'>`,
    },
    elements,
  );
}

const react = (elements) =>
  jsxFramework(
    {
      intro: '// React 19: `/// <reference types="ahp-elements/types/jsx-react.d.ts" />` or list it in tsconfig `types`/`include`.\n// Properties are set as properties, kebab attributes as attributes; `onahp-tool-call-approve={…}` listens to the event.\n',
      imports: "import type { DetailedHTMLProps, HTMLAttributes } from 'react';\n",
      handler: 'on',
      attributes: "DetailedHTMLProps<HTMLAttributes<AhpElements[T]['element']>, AhpElements[T]['element']>",
      open: "declare module 'react' {\n  namespace JSX {\n    interface IntrinsicElements {\n",
    },
    elements,
  );

const preact = (elements) =>
  jsxFramework(
    {
      intro: '// Preact: `/// <reference types="ahp-elements/types/jsx-preact.d.ts" />`. `onahp-tool-call-approve={…}` listens to the event.\n',
      imports: "import type { HTMLAttributes } from 'preact';\n",
      handler: 'on',
      attributes: "HTMLAttributes<AhpElements[T]['element']>",
      // \`preact.JSX\` is an alias (\`export import JSX = JSXInternal\`) that a module augmentation cannot reach; the
      // global \`preact\` namespace (\`export as namespace preact\`) can.
      open: 'declare global {\n  namespace preact.JSX {\n    interface IntrinsicElements {\n',
    },
    elements,
  );

const solid = (elements) =>
  jsxFramework(
    {
      intro: '// Solid: `/// <reference types="ahp-elements/types/jsx-solid.d.ts" />`. Use `prop:toolCall={…}` for properties and\n// `on:ahp-tool-call-approve={…}` for events.\n',
      imports: "import type { JSX } from 'solid-js';\n",
      handler: 'on:',
      attributes: "JSX.HTMLAttributes<AhpElements[T]['element']>",
      properties: "PropsOf<AhpElements[T]['properties']>",
      extraHelpers: "type PropsOf<P> = { [K in keyof P as `prop:${K & string}`]?: P[K] };\n",
      open: "declare module 'solid-js' {\n  namespace JSX {\n    interface IntrinsicElements {\n",
    },
    elements,
  );

const vue = (elements) =>
  frameworkDts(
    {
      intro:
        '// Vue 3: `/// <reference types="ahp-elements/types/vue.d.ts" />` (Volar/vue-tsc then check templates). Tell the compiler the\n' +
        "// tags are custom elements: `compilerOptions.isCustomElement: (tag) => tag.startsWith('ahp-')`. `@ahp-tool-call-approve` listens.\n",
      imports: "import type { DefineComponent } from 'vue';\n",
      helpers:
        "type Tag = keyof AhpElements;\ntype Listeners<E> = { [K in keyof E as `on${PascalCase<K & string>}`]?: (event: E[K]) => void };\n" +
        "type Props<T extends Tag> = AhpElements[T]['attributes'] & AhpElements[T]['properties'] & Listeners<AhpElements[T]['events']>;\n",
      open: "declare module 'vue' {\n  interface GlobalComponents {\n",
      close: '  }\n}\n',
      intrinsic: (tag) => `DefineComponent<Props<'${tag}'>>`,
    },
    elements,
  ).replace(/^ {6}/gm, '    ');

const svelte = (elements) =>
  frameworkDts(
    {
      intro: '// Svelte 5: `/// <reference types="ahp-elements/types/svelte.d.ts" />`. `onahp-tool-call-approve={…}` listens to the event.\n',
      imports: "import type { HTMLAttributes } from 'svelte/elements';\n",
      helpers:
        "type Tag = keyof AhpElements;\ntype Handlers<E> = { [K in keyof E as `on${K & string}`]?: (event: E[K]) => void };\n" +
        "type Props<T extends Tag> = HTMLAttributes<AhpElements[T]['element']> &\n  AhpElements[T]['attributes'] & AhpElements[T]['properties'] & Handlers<AhpElements[T]['events']>;\n",
      open: "declare module 'svelte/elements' {\n  interface SvelteHTMLElements {\n",
      close: '  }\n}\n',
      intrinsic: (tag) => `Props<'${tag}'>`,
    },
    elements,
  ).replace(/^ {6}/gm, '    ');

function reactWrappers(elements) {
  const classes = new Set();
  let body = '';
  for (const el of elements) {
    classes.add(el.className);
    const events = el.events
      .map((e) => {
        if (e.eventClass) classes.add(e.eventClass);
        return `    on${pascal(e.name)}: '${e.name}' as EventName<${e.eventClass ?? 'Event'}>,\n`;
      })
      .join('');
    body +=
      `/** \`<${el.tagName}>\` for React: ${el.summary || el.className} */\n` +
      `export const ${el.className} = createComponent({\n  tagName: '${el.tagName}',\n  elementClass: elements.${el.className},\n  react: React,\n` +
      `  events: {\n${events}  },\n  displayName: '${el.className}',\n});\n\n`;
  }
  const defines = elements.map((el) => `import '../${path.posix.dirname(el.module)}/define.js';\n`).join('');
  return (
    `${HEADER}// React ≤18 wrappers (\`ahp-elements/react\`): properties pass through, events become \`onAhp…\` props.\n// Importing this entry defines every element. React 19 can use the tags directly (types/jsx-react.d.ts).\n` +
    `import * as React from 'react';\nimport { createComponent, type EventName } from '@lit/react';\n${defines}` +
    `import * as elements from '../elements/index.js';\nimport type {\n${[...classes].filter((c) => c.endsWith('Event')).sort().map((n) => `  ${n},\n`).join('')}} from '../elements/index.js';\n\n` +
    body.trimEnd() +
    '\n'
  );
}

/** Every generated file (path relative to the repo root → text). */
export function typingsFiles(manifest) {
  const elements = elementsOf(manifest);
  return new Map([
    ['types/elements.d.ts', elementsDts(elements)],
    ['types/jsx-react.d.ts', react(elements)],
    ['types/jsx-preact.d.ts', preact(elements)],
    ['types/jsx-solid.d.ts', solid(elements)],
    ['types/vue.d.ts', vue(elements)],
    ['types/svelte.d.ts', svelte(elements)],
    ['react/index.ts', reactWrappers(elements)],
  ]);
}

export function writeTypings(manifest) {
  for (const [file, text] of typingsFiles(manifest)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeTypings(JSON.parse(readFileSync(path.join(root, 'custom-elements.json'), 'utf8')));
  console.log('wrote types/*.d.ts and react/index.ts');
}

// `cem analyze` (run by scripts/manifest.mjs) reads the class JSDoc of every element and writes custom-elements.json.
// The plugin below tidies what the analyzer gets wrong for our sources and adds what it cannot see.
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ELEMENTS = 'elements';

/** `@tag name, other - text` → one entry per name (the analyzer reads only the first word as the name). */
function splitLists(entries) {
  if (!entries) return entries;
  return entries.flatMap((e) => {
    if (!e.name?.endsWith(',')) return [e];
    const full = `${e.name} ${e.description ?? ''}`;
    const dash = full.indexOf(' - ');
    const names = (dash < 0 ? full : full.slice(0, dash)).split(',').map((n) => n.trim()).filter(Boolean);
    const description = dash < 0 ? '' : full.slice(dash + 3).trim();
    return names.map((name) => ({ ...e, name, description }));
  });
}

/** Every `@cssprop --name - text` in the element sources (tokens.ts documents the global tokens once). */
function tokenDescriptions() {
  const out = new Map();
  // Sorted: readdir order depends on the file system, and the first description of a token wins.
  const dirs = readdirSync(ELEMENTS, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dir of dirs) {
    const folder = dir.isDirectory() ? path.join(ELEMENTS, dir.name) : undefined;
    for (const file of folder ? readdirSync(folder).filter((f) => f.endsWith('.ts')).sort() : []) {
      const src = readFileSync(path.join(folder, file), 'utf8');
      for (const m of src.matchAll(/@cssprop\s+(?:\{[^}]*\}\s+)?(--ahp-[a-z0-9-]+)\s+-\s+(.*)/g)) {
        if (!out.has(m[1])) out.set(m[1], m[2].trim());
      }
    }
  }
  return out;
}

/** The element module and the style modules it reaches through relative imports (`*.styles.ts`, `tokens.ts`). */
function styleSources(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return seen;
  seen.add(file);
  const src = readFileSync(file, 'utf8');
  for (const m of src.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)) {
    const target = path.join(path.dirname(file), m[1].replace(/\.js$/, '.ts'));
    if (/(\.styles|tokens)\.ts$/.test(target)) styleSources(target, seen);
  }
  return seen;
}

/** Public `--ahp-*` tokens read with `var()` by the element's own styles. */
function tokensRead(modulePath) {
  const names = new Set();
  for (const file of styleSources(modulePath)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/var\(\s*(--ahp-[a-z0-9-]+)/g)) names.add(m[1]);
  }
  return [...names].sort();
}

/** Event class name → its `static readonly eventName`. */
function eventNames(manifest) {
  const out = new Map();
  for (const mod of manifest.modules) {
    for (const d of mod.declarations ?? []) {
      const field = d.members?.find((m) => m.static && m.name === 'eventName');
      if (field?.default) out.set(d.name, { name: JSON.parse(field.default.replace(/^'|'$/g, '"')), module: mod.path });
    }
  }
  return out;
}

/** Event classes typed through the generic base (`extends AhpEvent<X>`): give their `detail` field the concrete type. */
function resolveGenericDetails(manifest) {
  for (const mod of manifest.modules) {
    const src = existsSync(mod.path) ? readFileSync(mod.path, 'utf8') : '';
    for (const d of mod.declarations ?? []) {
      const detail = d.members?.find((m) => m.name === 'detail' && m.inheritedFrom);
      const arg = src.match(new RegExp(`class ${d.name} extends \\w+<([^>]+)>`))?.[1];
      if (detail && arg && /^(?:[A-Z]|Detail)$/.test(detail.type?.text ?? '')) detail.type = { text: arg.trim() };
    }
  }
}

function ahpPlugin() {
  return {
    name: 'ahp-elements',
    packageLinkPhase({ customElementsManifest: manifest }) {
      const descriptions = tokenDescriptions();
      const events = eventNames(manifest);
      resolveGenericDetails(manifest);
      for (const mod of manifest.modules) {
        for (const el of mod.declarations ?? []) {
          if (!el.customElement) continue;
          const hidden = new Set((el.members ?? []).filter((m) => m.privacy === 'private' || m.privacy === 'protected').map((m) => m.name));
          // `state: true` properties are internal; the analyzer lists them as attributes.
          el.attributes = (el.attributes ?? []).filter((a) => !hidden.has(a.fieldName));
          // The manifest is public API: private and protected members are implementation.
          el.members = (el.members ?? []).filter((m) => !hidden.has(m.name));
          // Events found from `dispatchEvent(new X(...))` have no name; the JSDoc `@fires` entries carry them.
          el.events = splitLists((el.events ?? []).filter((e) => e.name?.startsWith('ahp-')));
          for (const e of el.events) {
            const cls = e.type?.text;
            const known = cls ? events.get(cls) : undefined;
            if (known) e.type = { text: cls, references: [{ name: cls, module: known.module }] };
          }
          el.cssStates = splitLists(el.cssStates);
          el.cssParts = splitLists(el.cssParts);
          el.slots = splitLists(el.slots);
          const props = new Map((el.cssProperties ?? []).map((p) => [p.name, p]));
          for (const name of tokensRead(mod.path)) {
            if (!props.has(name)) props.set(name, { name, description: descriptions.get(name) ?? '' });
          }
          el.cssProperties = [...props.values()].sort((a, b) => a.name.localeCompare(b.name));
          for (const key of ['attributes', 'events', 'cssStates', 'cssParts', 'slots', 'cssProperties']) {
            if (!el[key]?.length) delete el[key];
          }
          // `defineElement(tag, Class)` in the folder's define.ts registers the tag.
          const definePath = path.posix.join(path.posix.dirname(mod.path), 'define.ts');
          const defineModule = manifest.modules.find((m) => m.path === definePath);
          if (defineModule) {
            defineModule.exports = [
              { kind: 'custom-element-definition', name: el.tagName, declaration: { name: el.name, module: mod.path } },
            ];
          }
        }
      }
      // Keep the modules that make up the public surface: element classes, their event classes, the define modules
      // and the two entry modules; helpers stay out so the manifest changes only when the API does.
      const isEvent = (d) => events.has(d.name);
      manifest.modules = manifest.modules.filter(
        (m) =>
          m.declarations?.some((d) => d.customElement || isEvent(d)) ||
          m.exports?.some((e) => e.kind === 'custom-element-definition') ||
          /^elements\/(index|define-all)\.ts$/.test(m.path),
      );
      manifest.modules = manifest.modules.filter((m) => m.path !== 'elements/shared/define-element.ts');
      for (const m of manifest.modules) {
        if (m.declarations?.some((d) => d.customElement)) {
          m.declarations = m.declarations.filter((d) => d.customElement);
          continue;
        }
        // Event modules: only the event classes (not controllers or private base classes).
        if (m.declarations?.some(isEvent)) {
          m.declarations = m.declarations.filter(isEvent);
          m.exports = (m.exports ?? []).filter((e) => m.declarations.some((d) => d.name === e.name) || e.kind !== 'js' || !/^[A-Z]/.test(e.name) || e.declaration?.module !== m.path);
        }
      }
    },
  };
}

export default {
  globs: [`${ELEMENTS}/*/*.ts`, `${ELEMENTS}/*.ts`],
  exclude: [`${ELEMENTS}/**/*.styles.ts`],
  outdir: '.',
  litelement: true,
  // package.json names the manifest itself; the CLI would rewrite the field to the outdir of every run.
  packagejson: false,
  plugins: [ahpPlugin()],
};

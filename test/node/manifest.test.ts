// custom-elements.json against the element sources: tags, attributes, events, parts, states and tokens, plus the
// global typings (HTMLElementTagNameMap, GlobalEventHandlersEventMap) and the event classes themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

interface Named { name: string; description?: string; type?: { text: string } }
interface Decl {
  name: string;
  kind: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: (Named & { fieldName?: string })[];
  events?: Named[];
  cssParts?: Named[];
  cssStates?: Named[];
  cssProperties?: Named[];
}
interface Manifest { schemaVersion: string; modules: { path: string; declarations?: Decl[] }[] }

const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as Manifest;
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { customElements?: string; exports: Record<string, unknown> };
const read = (file: string) => readFileSync(file, 'utf8');
const folderSources = (folder: string) =>
  readdirSync(folder).filter((f) => f.endsWith('.ts') && !f.endsWith('.styles.ts')).map((f) => read(path.join(folder, f))).join('\n');
const allElementSources = readdirSync('elements', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => folderSources(path.join('elements', d.name)))
  .join('\n');

/**
 * The element module and the element-folder modules it imports (templates it renders from other folders, like the
 * tool call's embedded MCP App, count as its own; shared helpers and other elements' classes do not).
 */
function reachableSources(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return '';
  seen.add(file);
  const source = read(file);
  let out = source;
  for (const m of source.matchAll(/from '(\.{1,2}\/[\w./-]+)\.js'/g)) {
    const target = path.join(path.dirname(file), `${m[1]!}.ts`);
    // Shared modules count too: a part rendered by a shared template (e.g. the connection banner) is the element's part.
    const own = target.startsWith(`elements${path.sep}`);
    const otherElement = path.dirname(target) !== path.dirname(file) && /^export class Ahp\w+ extends LitElement/m.test(read(target));
    if (own && !otherElement) out += `\n${reachableSources(target, seen)}`;
  }
  return out;
}

/** Tag → class and folder, from the define modules that elements/define-all.ts imports. */
const defined = [...read('elements/define-all.ts').matchAll(/import '\.\/([\w-]+)\/define\.js';/g)].map((m) => {
  const folder = path.join('elements', m[1]!);
  const call = read(path.join(folder, 'define.ts')).match(/defineElement\('([a-z-]+)', (\w+)\)/);
  assert.ok(call, `${folder}/define.ts calls defineElement(tag, Class)`);
  return { tag: call[1]!, className: call[2]!, folder };
});

const declaration = (tag: string): { decl: Decl; modulePath: string } => {
  for (const mod of manifest.modules) {
    const decl = mod.declarations?.find((d) => d.customElement && d.tagName === tag);
    if (decl) return { decl, modulePath: mod.path };
  }
  assert.fail(`${tag} is not in custom-elements.json`);
};

/** Attribute names declared in `static properties` (not `attribute: false`, not `state: true`). */
function staticAttributes(source: string): string[] {
  const block = source.match(/static override properties = \{([\s\S]*?)\n {2}\};/)?.[1] ?? '';
  return [...block.matchAll(/^\s+(\w+): \{([^}]*)\}/gm)]
    .filter(([, , opts]) => !/attribute: false|state: true/.test(opts!))
    .map(([, name, opts]) => opts!.match(/attribute: '([^']+)'/)?.[1] ?? name!.toLowerCase());
}

/** `{ 'key': … }` entries of every `interface <name> {` block in the element sources. */
function globalMapKeys(name: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of allElementSources.matchAll(new RegExp(`interface ${name} \\{([\\s\\S]*?)\\n {2}\\}`, 'g'))) {
    for (const m of block[1]!.matchAll(/'([a-z-]+)': ([^;]+);/g)) out.set(m[1]!, m[2]!);
  }
  return out;
}

test('package.json names the manifest and exports it', () => {
  assert.equal(pkg.customElements, 'custom-elements.json');
  assert.equal(pkg.exports['./custom-elements.json'], './custom-elements.json');
  assert.ok(manifest.schemaVersion);
});

test('define-all defines every element folder, and each tag is in the manifest with its class', () => {
  assert.ok(defined.length >= 7, `found ${defined.length} defines`);
  for (const { tag, className } of defined) {
    assert.equal(declaration(tag).decl.name, className);
  }
  const inManifest = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement).map((d) => d.tagName);
  assert.deepEqual([...inManifest].sort(), defined.map((d) => d.tag).sort(), 'no element in the manifest that define-all does not define');
});

test('attributes in the manifest are exactly those of static properties', () => {
  for (const { tag, folder } of defined) {
    const { decl, modulePath } = declaration(tag);
    assert.ok(modulePath.startsWith(`${folder}/`), `${tag} lives in ${folder}`);
    const expected = staticAttributes(read(modulePath)).sort();
    const actual = (decl.attributes ?? []).map((a) => a.name).sort();
    assert.deepEqual(actual, expected, `${tag} attributes`);
    for (const a of decl.attributes ?? []) assert.ok(a.fieldName, `${tag} [${a.name}] maps to a property`);
  }
});

test('events: kebab-case ahp-* names, typed with their class, and every event an element creates is documented', () => {
  const eventClasses = new Map([...allElementSources.matchAll(/class (Ahp\w+Event) extends \w+(?:<\w+>)? \{\s*static readonly eventName = '([^']+)'/g)].map((m) => [m[1]!, m[2]!]));
  for (const { tag, folder } of defined) {
    const { decl } = declaration(tag);
    for (const e of decl.events ?? []) {
      assert.match(e.name, /^ahp(-[a-z]+)+$/, `${tag} event name ${e.name}`);
      const cls = e.type?.text ?? '';
      assert.equal(eventClasses.get(cls), e.name, `${tag} ${e.name} is typed with its event class (${cls})`);
    }
    const names = new Set((decl.events ?? []).map((e) => e.name));
    for (const m of reachableSources(declaration(tag).modulePath).matchAll(/new (Ahp\w+Event)\(/g)) {
      const name = eventClasses.get(m[1]!);
      assert.ok(name && names.has(name), `${tag} fires ${m[1]} (${name}) and documents it with @fires`);
    }
  }
});

test('parts: every part="…" an element renders is documented, and every documented part exists', () => {
  for (const { tag, folder } of defined) {
    const { decl } = declaration(tag);
    const source = reachableSources(declaration(tag).modulePath);
    const rendered = new Set([...source.matchAll(/(?<![\w-])part="([a-z-]+)"/g)].map((m) => m[1]!));
    const exported = new Set([...source.matchAll(/exportparts="([^"]+)"/g)].flatMap((m) => m[1]!.split(',').map((p) => p.trim())));
    const documented = new Set((decl.cssParts ?? []).map((p) => p.name));
    for (const p of rendered) assert.ok(documented.has(p), `${tag} renders part "${p}" without @csspart`);
    for (const p of documented) assert.ok(rendered.has(p) || exported.has(p), `${tag} documents part "${p}" it never renders`);
  }
});

test('custom states are documented for every element that sets them', () => {
  for (const { tag, folder } of defined) {
    const { decl } = declaration(tag);
    const source = folderSources(folder);
    const states = (decl.cssStates ?? []).map((s) => s.name);
    if (/setCustomStates\(/.test(source)) assert.ok(states.length > 0, `${tag} sets custom states but documents none`);
    for (const s of states) assert.match(s, /^[a-zA-Z][\w-]*$/, `${tag} state name ${s}`);
    // A state named in a string literal of the element (e.g. `'not-found'`) is one it can set.
    for (const literal of source.matchAll(/states\.push\('([\w-]+)'\)/g)) assert.ok(states.includes(literal[1]!), `${tag} sets :state(${literal[1]}) without @cssstate`);
  }
});

test('every public --ahp-* token an element reads is in the manifest with a description', () => {
  for (const { tag, folder } of defined) {
    const { decl } = declaration(tag);
    const props = new Map((decl.cssProperties ?? []).map((p) => [p.name, p.description ?? '']));
    const styles = readdirSync(folder).filter((f) => f.endsWith('.styles.ts')).map((f) => read(path.join(folder, f))).join('\n');
    for (const m of styles.matchAll(/var\(\s*(--ahp-[a-z0-9-]+)/g)) {
      assert.ok(props.has(m[1]!), `${tag} reads ${m[1]} but the manifest does not list it`);
    }
    for (const [name, description] of props) assert.ok(description.length > 0, `${tag} token ${name} has no description (@cssprop)`);
  }
});

test('every tag is in HTMLElementTagNameMap and every event in GlobalEventHandlersEventMap', () => {
  const tags = globalMapKeys('HTMLElementTagNameMap');
  const events = globalMapKeys('GlobalEventHandlersEventMap');
  for (const { tag, className } of defined) {
    assert.equal(tags.get(tag), className, `HTMLElementTagNameMap['${tag}']`);
    for (const e of declaration(tag).decl.events ?? []) {
      const mapped = events.get(e.name);
      assert.ok(mapped, `GlobalEventHandlersEventMap['${e.name}'] is declared`);
      assert.ok(mapped.split('|').map((t) => t.trim()).includes(e.type!.text), `GlobalEventHandlersEventMap['${e.name}'] includes ${e.type!.text}`);
    }
  }
});

test('event classes are Event subclasses that bubble, are composed and carry their detail', async () => {
  const modules = await Promise.all([
    import('../../elements/shared/events.js'),
    ...defined.map((d) => import(`../../${d.folder}/events.js`) as Promise<Record<string, unknown>>),
  ]);
  const documented = new Set(manifest.modules.flatMap((m) => m.declarations ?? []).flatMap((d) => d.events ?? []).map((e) => e.type?.text));
  let checked = 0;
  for (const mod of modules) {
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== 'function' || !name.endsWith('Event')) continue;
      const Cls = value as unknown as { eventName: string; new (detail: unknown): Event & { detail: unknown } };
      const detail = { probe: name };
      const event = new Cls(detail);
      assert.ok(event instanceof Event, `${name} extends Event`);
      assert.equal(event.type, Cls.eventName, `${name} type`);
      assert.equal(event.bubbles, true, `${name} bubbles`);
      assert.equal(event.composed, true, `${name} is composed`);
      assert.ok(event.detail !== undefined && JSON.stringify(event.detail).includes(name), `${name} carries its detail`);
      assert.ok(documented.has(name), `${name} is fired by some element's @fires`);
      checked++;
    }
  }
  assert.ok(checked >= 20, `checked ${checked} event classes`);
});

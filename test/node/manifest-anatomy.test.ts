// The element anatomy of CONTRIBUTING.md ("Element anatomy"): every element folder has the same files, events extend
// AhpEvent, actions come from the creators in src/intents, and folders reach each other only through public files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ELEMENTS = 'elements';
/** Folders under elements/ that hold no element. */
const NOT_ELEMENTS = new Set(['shared', 'locales']);
/** Files every element folder has (`<name>` is the folder name). */
const REQUIRED = ['<name>.ts', '<name>.styles.ts', 'events.ts', 'intents.ts', 'define.ts'];
/** Folders excused from a required file, and why. */
const EXCUSED: Record<string, Record<string, string>> = {
  session: { 'intents.ts': '<ahp-session> provides the store and handle; it dispatches no actions' },
};
/** What another element folder may import from one: rendering it, its events, its intents, its embedding template. */
const PUBLIC_FILES = new Set(['define.js', 'events.js', 'intents.js', 'embed.js']);

const read = (file: string) => readFileSync(file, 'utf8');
const tsFiles = (folder: string) => readdirSync(folder).filter((f) => f.endsWith('.ts')).map((f) => path.join(folder, f));
const folders = readdirSync(ELEMENTS).filter((n) => statSync(path.join(ELEMENTS, n)).isDirectory() && !NOT_ELEMENTS.has(n));
const allFiles = readdirSync(ELEMENTS).flatMap((n) => (statSync(path.join(ELEMENTS, n)).isDirectory() ? tsFiles(path.join(ELEMENTS, n)) : []));
/** Relative import specifiers of a source (static, dynamic and `export … from`). */
const imports = (source: string) => [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);

test('anatomy: the seven element folders, each defined by define-all', () => {
  const defined = [...read('elements/define-all.ts').matchAll(/import '\.\/([\w-]+)\/define\.js';/g)].map((m) => m[1]!);
  assert.deepEqual([...folders].sort(), [...defined].sort(), 'every element folder is in define-all.ts and every define-all import is a folder');
  assert.equal(folders.length, 7);
});

test('anatomy: every element folder has <name>.ts, <name>.styles.ts, events.ts, intents.ts and define.ts', () => {
  const missing: string[] = [];
  for (const name of folders) {
    const present = new Set(readdirSync(path.join(ELEMENTS, name)));
    for (const pattern of REQUIRED) {
      const file = pattern.replace('<name>', name);
      if (!present.has(file) && !EXCUSED[name]?.[file]) missing.push(`elements/${name}/${file}`);
    }
  }
  assert.deepEqual(missing, []);
  for (const [name, files] of Object.entries(EXCUSED)) {
    for (const file of Object.keys(files)) assert.ok(!readdirSync(path.join(ELEMENTS, name)).includes(file), `elements/${name}/${file} exists: drop its excuse`);
  }
});

test('anatomy: <name>.ts holds the one element class; define.ts defines ahp-<name> with it', () => {
  for (const name of folders) {
    const source = read(path.join(ELEMENTS, name, `${name}.ts`));
    const classes = [...source.matchAll(/^export class (Ahp\w+) extends LitElement\b/gm)].map((m) => m[1]!);
    assert.equal(classes.length, 1, `elements/${name}/${name}.ts declares one element class (found ${classes.join(', ') || 'none'})`);
    assert.match(source, new RegExp(`@tag ahp-${name}\\b`), `${classes[0]} is documented as <ahp-${name}>`);
    const define = read(path.join(ELEMENTS, name, 'define.ts'));
    assert.match(define, new RegExp(`defineElement\\('ahp-${name}', ${classes[0]}\\)`), `elements/${name}/define.ts defines ahp-${name}`);
    assert.match(define, new RegExp(`import \\{ ${classes[0]} \\} from '\\./${name}\\.js'`), `define.ts takes the class from ./${name}.js`);
    for (const other of tsFiles(path.join(ELEMENTS, name)).filter((f) => !f.endsWith(`${path.sep}${name}.ts`))) {
      assert.doesNotMatch(read(other), /^export class \w+ extends LitElement\b/m, `${other}: element classes live in <name>.ts`);
    }
  }
});

test('anatomy: styles live in *.styles.ts files', () => {
  for (const name of folders) {
    for (const file of tsFiles(path.join(ELEMENTS, name)).filter((f) => !f.endsWith('.styles.ts'))) {
      assert.doesNotMatch(read(file), /\bcss`/, `${file} writes a css\`\` template: move it to a .styles.ts file`);
    }
  }
});

test('anatomy: every event class extends AhpEvent and lives in an events.ts; nothing else sets bubbles/composed', () => {
  let count = 0;
  for (const file of allFiles) {
    const source = read(file);
    for (const m of source.matchAll(/^export (?:abstract )?class (\w+) extends (\w+)/gm)) {
      const [, cls, base] = m;
      if (!/Event$/.test(cls!) && base !== 'Event' && base !== 'CustomEvent') continue;
      if (file === path.join(ELEMENTS, 'shared', 'ahp-event.ts')) continue;
      count++;
      assert.equal(base, 'AhpEvent', `${file}: ${cls} extends AhpEvent`);
      assert.equal(path.basename(file), 'events.ts', `${file}: ${cls} is declared in an events.ts`);
    }
    // context.ts sends the context community protocol's events (context-request, context-provider), which are not
    // the elements' own: @lit/context built the same by hand before it was replaced.
    if (file !== path.join(ELEMENTS, 'shared', 'ahp-event.ts') && file !== path.join(ELEMENTS, 'shared', 'context.ts')) {
      assert.doesNotMatch(source, /\bbubbles:|\bcomposed:|new CustomEvent\(/, `${file} builds an event by hand: subclass AhpEvent in events.ts`);
    }
  }
  assert.ok(count >= 25, `found ${count} event classes`);
});

test('anatomy: elements build no actions by hand; element intents.ts files use the creators of src/intents', () => {
  for (const file of allFiles) {
    assert.doesNotMatch(read(file), /\btype:\s*'(chat|session|root)\/\w+'/, `${file} writes an action literal: add or use a creator in src/intents`);
  }
  for (const name of folders) {
    const file = path.join(ELEMENTS, name, 'intents.ts');
    let source: string;
    try {
      source = read(file);
    } catch {
      continue; // excused above
    }
    const own = /^export function \w+Intent\b/m.test(source);
    const reexports = /^export \{[^}]+\} from '\.\.\/[\w-]+\/(intents|input-request-form)\.js';/m.test(source);
    assert.ok(own || reexports, `${file} defines intents or re-exports those its rows send`);
    if (own) assert.ok(imports(source).some((s) => s.startsWith('../../src/intents/')), `${file} builds its actions with src/intents`);
  }
});

test('anatomy: folders import other element folders only through their public files; shared imports none', () => {
  const bad: string[] = [];
  for (const file of allFiles) {
    const folder = path.basename(path.dirname(file));
    for (const spec of imports(read(file))) {
      const target = path.join(path.dirname(file), spec);
      const parts = path.relative(ELEMENTS, target).split(path.sep);
      if (parts[0] === '..' || parts.length !== 2) continue; // src/, or elements/*.ts
      const [targetFolder, targetFile] = parts as [string, string];
      if (targetFolder === folder || targetFolder === 'shared' || targetFolder === 'locales') continue;
      if (folder === 'shared' || !PUBLIC_FILES.has(targetFile)) bad.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('anatomy: store binding, colour scheme and connection state go through the shared controllers', () => {
  for (const name of folders) {
    for (const file of tsFiles(path.join(ELEMENTS, name))) {
      const source = read(file);
      assert.doesNotMatch(source, /prefers-color-scheme/, `${file} listens to the colour scheme by hand: use ColorSchemeController`);
      // <ahp-session> provides the store and handle (and follows its own handle); the others consume them.
      if (name === 'session') continue;
      assert.doesNotMatch(source, /new ContextConsumer\(this, \{ context: storeContext/, `${file} consumes the store context by hand: use StoreConsumer`);
      assert.doesNotMatch(source, /\.subscribeConnection\(/, `${file} follows the connection by hand: use SessionHandleController`);
    }
  }
});

test('anatomy: every element that reads a store registers the development checks', () => {
  for (const name of folders.filter((n) => n !== 'session')) {
    const source = read(path.join(ELEMENTS, name, `${name}.ts`));
    assert.match(source, /^if \(DEV\)(?: \{\n\s*|\s+)addDevChecks\(Ahp\w+, /m, `elements/${name}/${name}.ts registers addDevChecks under if (DEV)`);
  }
});

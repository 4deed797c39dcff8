// The package as users get it: build, `npm pack`, install the tarball into a scratch project and import every export
// by its name there. Tests stay on loopback, so the install is by hand: the tarball unpacked as
// node_modules/ahp-elements, and the package's dependencies (and theirs, not the devDependencies) linked from this
// checkout's node_modules, as npm would lay them out. Headless entries and the element modules
// import in Node (Lit's Node build); their runtime names must be what api/*.api.md lists. `react` needs React, a peer
// the scratch project does not install, so it is only resolved. Every file an `exports` condition, `main`, `module`
// or `types` names must be in the tarball, and the CDN file's chunks next to it. The installed core loads the chat
// reducers on the first chat, in Node too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { rollup, type RollupOptions, type OutputOptions } from 'rollup';
import { entries, pkg } from '../../scripts/entries.mjs';

const run = promisify(execFile);
const ROOT = process.cwd();
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** `npm run build` without a shell: every rollup config, then the declarations. */
async function build(): Promise<void> {
  rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
  const config = '../../rollup.config.mjs';
  const configs = ((await import(config)) as { default: RollupOptions[] }).default;
  for (const config of configs) {
    const bundle = await rollup({ ...config, onwarn: () => {} });
    for (const output of [config.output].flat() as OutputOptions[]) await bundle.write(output);
    await bundle.close();
  }
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  await run(process.execPath, [tsc, '-p', 'tsconfig.build.json']);
  await run(process.execPath, [tsc, '-p', 'react/tsconfig.build.json']);
}

/** The packages `names` need at run time, transitively (their `dependencies`; optional ones when installed). */
function dependencyClosure(names: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...names];
  while (queue.length) {
    const name = queue.shift()!;
    const manifest = path.join(ROOT, 'node_modules', name, 'package.json');
    if (seen.has(name) || !existsSync(manifest)) continue;
    seen.add(name);
    const meta = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
    queue.push(...Object.keys(meta.dependencies ?? {}));
  }
  return [...seen].sort();
}

/** Runtime names an API report lists (`- kind \`name…\`` under "Runtime exports"). */
function reportedNames(specifier: string): string[] {
  const text = readFileSync(path.join(ROOT, 'api', `${specifier.replace(/\//g, '.')}.api.md`), 'utf8');
  const section = text.split('## Runtime exports')[1]!.split('## Types')[0]!;
  return [...section.matchAll(/^- [\w ()]+ `([\w$]+)/gm)].map((m) => m[1]!).sort();
}

/** Files a target names, `*` matched against one path segment of the installed package. */
function filesOf(dir: string, target: string): string[] {
  if (!target.includes('*')) return existsSync(path.join(dir, target)) ? [target] : [];
  const [before, after] = target.split('*') as [string, string];
  const base = before.slice(0, before.lastIndexOf('/') + 1);
  const prefix = before.slice(base.length);
  if (!existsSync(path.join(dir, base))) return [];
  return readdirSync(path.join(dir, base))
    .filter((name) => name.startsWith(prefix))
    .map((name) => `${base}${name}${after}`)
    .filter((f) => existsSync(path.join(dir, f)));
}

test('npm pack, installed into a scratch project: every export resolves and imports, and lists what api/ says', { timeout: 600_000 }, async () => {
  await build();
  const scratch = mkdtempSync(path.join(tmpdir(), 'ahp-pack-'));
  try {
    const { stdout } = await run(NPM, ['pack', '--silent', '--pack-destination', scratch], { cwd: ROOT });
    const tarball = path.join(scratch, stdout.trim().split('\n').pop()!);
    assert.ok(existsSync(tarball), `npm pack wrote ${tarball}`);
    const project = path.join(scratch, 'project');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    const installed = path.join(project, 'node_modules', pkg.name);
    mkdirSync(installed, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    for (const dep of dependencyClosure(Object.keys(pkg.dependencies as Record<string, string>))) {
      const link = path.join(project, 'node_modules', dep);
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(path.join(ROOT, 'node_modules', dep), link, 'dir');
    }

    // Every path package.json names is in the tarball.
    const missing: string[] = [];
    for (const field of ['main', 'module', 'types'] as const) if (!existsSync(path.join(installed, pkg[field]))) missing.push(`${field}: ${pkg[field]}`);
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      for (const [condition, file] of Object.entries(typeof target === 'string' ? { default: target } : target)) {
        if (!filesOf(installed, file).length) missing.push(`exports["${subpath}"].${condition}: ${file}`);
      }
    }
    assert.deepEqual(missing, [], 'paths in package.json that the tarball lacks');

    // The CDN file and every chunk it loads.
    const cdnDir = path.join(installed, 'dist/cdn');
    for (const file of readdirSync(cdnDir).filter((f) => f.endsWith('.js'))) {
      for (const m of readFileSync(path.join(cdnDir, file), 'utf8').matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.\/[^"']+)["']/g)) {
        assert.ok(existsSync(path.join(cdnDir, m[1]!)), `${file} imports ${m[1]}, which the tarball lacks`);
      }
    }

    // Import every JavaScript export by name from the scratch project (both export conditions: default, development).
    const modules = entries().filter((e) => e.kind === 'module');
    const importable = modules.filter((e) => e.subpath !== './react').map((e) => e.specifier);
    writeFileSync(
      path.join(project, 'check.mjs'),
      `const out = {};
for (const spec of ${JSON.stringify(importable)}) {
  try { out[spec] = { names: Object.keys(await import(spec)).sort() }; } catch (err) { out[spec] = { error: String(err?.stack ?? err) }; }
}
for (const spec of ['${pkg.name}/react', '${pkg.name}/cdn', '${pkg.name}/package.json']) out[spec] = { resolved: import.meta.resolve(spec) };
console.log(JSON.stringify(out));
`,
    );
    // The installed core loads the chat reducers on the first chat (a dynamic import of its own module): a chat's
    // snapshot and the envelopes after it wait for them, then hold what the reducers make of them.
    writeFileSync(
      path.join(project, 'chat.mjs'),
      `import { SessionStore } from '${pkg.name}';
import { chatReducer } from '${pkg.name}/reducers';
const CHAT = 'ahp-chat:/c';
const chat = { resource: CHAT, title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] };
const started = { type: 'chat/turnStarted', turnId: 't', startedAt: '2026-02-01T00:00:00.000Z', message: { text: 'hi', origin: { kind: 'user' } } };
let seq = 0;
const store = new SessionStore({ channel: 'ahp-session:/s', clientId: 'me', send() {}, nextClientSeq: () => ++seq });
store.watchChat(CHAT);
store.loadSnapshot({ resource: CHAT, state: chat, fromSeq: 1 });
store.receive({ channel: CHAT, serverSeq: 2, action: started });
const before = store.getChatState(CHAT);
for (let i = 0; i < 500 && !store.getChatState(CHAT); i++) await new Promise((r) => setTimeout(r, 2));
console.log(JSON.stringify({ before: before ?? null, after: store.getChatState(CHAT) ?? null, expected: chatReducer(chat, started) }));
`,
    );
    for (const conditions of [[], ['--conditions=development']]) {
      const { stdout: chatJson } = await run(process.execPath, [...conditions, 'chat.mjs'], { cwd: project });
      const chat = JSON.parse(chatJson) as { before: unknown; after: unknown; expected: unknown };
      assert.equal(chat.before, null, `${conditions.join(' ')} a chat holds no state before the chat reducers loaded`);
      assert.deepEqual(chat.after, chat.expected, `${conditions.join(' ')} the chat loaded with the envelope that arrived meanwhile`);
      const { stdout: json } = await run(process.execPath, [...conditions, 'check.mjs'], { cwd: project });
      const result = JSON.parse(json) as Record<string, { names?: string[]; error?: string; resolved?: string }>;
      for (const spec of importable) {
        const got = result[spec]!;
        assert.equal(got.error, undefined, `${spec} ${conditions.join(' ')} fails to import: ${got.error}`);
        assert.deepEqual(got.names, reportedNames(spec), `${spec}: runtime exports of the installed package vs api/`);
      }
      const react = result[`${pkg.name}/react`]!.resolved!;
      assert.match(react, /\/node_modules\/ahp-elements\/dist\/lib\/react\/index\.js$/);
      assert.match(result[`${pkg.name}/cdn`]!.resolved!, /\/node_modules\/ahp-elements\/dist\/cdn\/ahp-elements\.min\.js$/);
    }
    assert.ok(importable.length >= 15, `imported ${importable.length} entries`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

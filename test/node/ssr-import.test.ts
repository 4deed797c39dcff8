import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, unknown> };

/** The source module behind a built `dist/lib/<path>.js` target (the npm build mirrors the source tree). */
function sourceOf(target: string): string | undefined {
  const m = /^\.\/dist\/lib\/(.+)\.js$/.exec(target);
  if (!m) return undefined;
  const ts = `${m[1]}.ts`;
  return existsSync(`${root}${ts}`) ? ts : undefined;
}

/** Every JS entry of package.json `exports` mapped to source, `*` patterns expanded over the element folders. */
function publicEntries(): string[] {
  const out = new Set<string>();
  for (const value of Object.values(pkg.exports)) {
    const target = typeof value === 'string' ? value : (value as Record<string, string>).default;
    if (!target?.endsWith('.js')) continue;
    if (target.includes('*')) {
      const [before, after] = target.split('*') as [string, string];
      const dir = before.replace(/^\.\/dist\/lib\//, '');
      for (const d of readdirSync(`${root}${dir}`, { withFileTypes: true })) {
        const src = d.isDirectory() ? sourceOf(`${before}${d.name}${after}`) : undefined;
        if (src) out.add(src);
      }
      continue;
    }
    const src = sourceOf(target);
    if (src) out.add(src);
  }
  return [...out].sort();
}

const entries = publicEntries();

test('the exports map names the entries this test imports', () => {
  for (const expected of [
    'src/index.ts',
    'src/host.ts',
    'src/worker.ts',
    'src/mcp-channel.ts',
    'src/testing.ts',
    'src/apps.ts',
    'src/auth.ts',
    'elements/index.ts',
    'elements/define-all.ts',
    'elements/session/define.ts',
    'elements/mcp-server/define.ts',
    'elements/mcp-server-list/define.ts',
    'elements/tool-call/define.ts',
    'elements/mcp-app/define.ts',
    'elements/chat/define.ts',
    'elements/input-needed/define.ts',
  ]) {
    assert.ok(entries.includes(expected), `${expected} is a public entry (found: ${entries.join(', ')})`);
  }
});

for (const entry of entries) {
  test(`${entry} imports in Node without a DOM`, async () => {
    assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
    const mod = (await import(`../../${entry}`)) as Record<string, unknown>;
    assert.ok(mod && typeof mod === 'object');
  });
}

test('importing every entry left no window, document or custom element registry behind to lean on', () => {
  // Lit's Node build may install its own shims; no ahp module may require or define the real globals.
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
});

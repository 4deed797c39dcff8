// Builds the minified bundles and checks their gzip -9 sizes against the budgets.
// The CDN budget covers the entry plus every chunk it can load (static or dynamic import, transitively), e.g. the
// OAuth driver; only chunks reached solely through an OPTIONAL chunk (features the budget does not name) are
// reported on their own lines and left out of the total.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const CDN_DIR = 'dist/cdn';
const CDN_ENTRY = 'ahp-elements.min.js';
// 40 KB was the first target, set before chat, tool calls, MCP Apps and OAuth existed. With all of them the
// counted total measured 50.8 KB (core 14.2, Apps 8.5, Lit 7.0, tool-call 3.7, chat + input-needed 3.7,
// CSS 3.6, OAuth 5.4, rest 4.7); the budget is now 52 KB, still a fraction of @mcp-ui/client (95 KB) or the
// ext-apps AppBridge alone (110-146 KB). See README "Budgets".
// Modelling every AHP 1.1 session/chat/root action (issue 14: ~25 more reducer cases) added 1.7 KB to the core and the CDN.
// Issue 11 (MCP Apps in the wild: sandbox policies, long relays, traffic limits, View tools, intent gating with a
// host-owned prompt) added about 3 KB to the Apps part (main measured 56.5 KB before its containment part, 57.8 after).
const CDN_BUDGET = 58_000;
/** Lazy chunks for optional features outside the CDN budget: file name pattern → what loads them. */
const OPTIONAL = [
  { pattern: /^ahp-worker-store\b.*\.min\.js$/, why: 'worker mode, loaded only by <ahp-session worker>' },
  { pattern: /^ahp-zh-TW\b.*\.min\.js$/, why: 'zh-TW language pack, loaded only when an element is in zh-TW' },
];
const OTHER = [{ name: 'headless core entry (store + client + reducers)', file: 'dist/size/core.min.js', budget: 17_000 }];

if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, ['node_modules/rollup/dist/bin/rollup', '-c', 'rollup.config.mjs', '--silent'], { stdio: 'inherit' });
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const sizes = (file) => {
  const raw = readFileSync(file);
  return { raw: raw.length, gz: gzipSync(raw, { level: 9 }).length, text: raw.toString('utf8') };
};

/** Relative specifiers a minified chunk imports (static `from"./x"`, bare `import"./x"`, dynamic `import("./x")`). */
const importsOf = (text) =>
  [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);

/** Files reachable from `start` (inclusive), not descending into files for which `stop` is true. */
function reach(start, stop) {
  const seen = new Set();
  const stack = [start];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    if (!existsSync(file)) throw new Error(`${file} is imported but missing from ${CDN_DIR}`);
    seen.add(file);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const next = normalize(join(dirname(file), spec));
      if (!seen.has(next) && !stop(next)) stack.push(next);
    }
  }
  return seen;
}

const optionalOf = (file) => OPTIONAL.find((o) => o.pattern.test(file.slice(CDN_DIR.length + 1)));
const entry = join(CDN_DIR, CDN_ENTRY);
const counted = reach(entry, (f) => !!optionalOf(f));
const optional = new Set();
for (const file of reach(entry, () => false)) if (!counted.has(file)) optional.add(file);

let over = 0;
let total = 0;
console.log(`CDN bundle (every element + Lit + core + OAuth + Apps bridge), entry + every chunk it can load:`);
for (const file of counted) {
  const s = sizes(file);
  total += s.gz;
  console.log(`       ${kb(s.gz).padStart(8)} gzip -9 (${kb(s.raw)} minified)  ${file}`);
}
const cdnOk = total <= CDN_BUDGET;
if (!cdnOk) over++;
console.log(`${cdnOk ? 'ok  ' : 'OVER'}   ${kb(total).padStart(8)} gzip -9 total, budget ${kb(CDN_BUDGET)}`);
for (const file of optional) {
  const s = sizes(file);
  const why = optionalOf(file)?.why ?? 'reached only through an optional chunk';
  console.log(`lazy   ${kb(s.gz).padStart(8)} gzip -9 (${kb(s.raw)} minified)  ${file}  (not in the budget: ${why})`);
}
const stray = readdirSync(CDN_DIR)
  .filter((f) => f.endsWith('.js'))
  .map((f) => join(CDN_DIR, f))
  .filter((f) => !counted.has(f) && !optional.has(f));
for (const file of stray) {
  const s = sizes(file);
  console.log(`other  ${kb(s.gz).padStart(8)} gzip -9 (${kb(s.raw)} minified)  ${file}  (not loaded by the entry)`);
}

for (const { name, file, budget } of OTHER) {
  const s = sizes(file);
  const ok = s.gz <= budget;
  if (!ok) over++;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${name}: ${kb(s.gz)} gzip -9 (${kb(s.raw)} minified), budget ${kb(budget)}  [${file}]`);
}
if (over) {
  console.error(`${over} bundle(s) over budget`);
  process.exit(1);
}

// Builds the minified bundles and checks their gzip -9 sizes against the budgets.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGETS = [
  { name: 'CDN bundle (every element + Lit + core)', file: 'dist/cdn/ahp-elements.min.js', budget: 40_000 },
  { name: 'headless core entry (store + client + reducers)', file: 'dist/size/core.min.js', budget: 15_000 },
];

if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, ['node_modules/rollup/dist/bin/rollup', '-c', 'rollup.config.mjs', '--silent'], { stdio: 'inherit' });
}

let over = 0;
for (const { name, file, budget } of BUDGETS) {
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: 9 }).length;
  const ok = gz <= budget;
  if (!ok) over++;
  const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
  console.log(`${ok ? 'ok  ' : 'OVER'} ${name}: ${kb(gz)} gzip -9 (${kb(raw.length)} minified), budget ${kb(budget)}  [${file}]`);
}
if (over) {
  console.error(`${over} bundle(s) over budget`);
  process.exit(1);
}

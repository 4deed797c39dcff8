// Which source modules a minified bundle's bytes come from, read from its source map (`npm run size -- --modules`).
// Each byte of the minified file belongs to the source of the mapping segment it sits in. A module's gzip share is
// marginal: the gzip size of the whole file minus that of the file without the module's bytes, so it counts what
// the module adds once the rest is there (the shares do not sum exactly to the file's gzip size).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const gz = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** Decodes one mappings segment (base64 VLQ) into its numbers. */
function decodeSegment(segment) {
  const out = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = DIGIT.get(c);
    if (digit === undefined) throw new Error(`size-attribution: bad source map character ${c}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    out.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return out;
}

/** For each generated line, the segments as [column, source index] (source index undefined when unmapped). */
function segmentsByLine(mappings) {
  let source = 0;
  return mappings.split(';').map((line) => {
    let column = 0;
    const out = [];
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const [dc, ds] = decodeSegment(segment);
      column += dc;
      // Segments carry source, line, column (and name) as deltas from the previous one; only the source is needed.
      if (ds !== undefined) source += ds;
      out.push([column, ds === undefined ? undefined : source]);
    }
    return out;
  });
}

/** The module name a source map entry stands for: the path under the project, `node_modules/…` shortened. */
const moduleName = (source) =>
  source
    .replace(/\\/g, '/')
    .replace(/^(\.\.\/)+/, '')
    .replace(/^.*node_modules\//, 'node_modules/');

/** Per-module minified bytes and marginal gzip bytes of `file` (with `file.map` next to it), largest first. */
export function attribute(file) {
  const code = readFileSync(file, 'utf8');
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
  // Segments as [offset in the file, module]; a segment's module runs until the next segment, across line breaks
  // (template literals keep theirs).
  const starts = [];
  const segments = segmentsByLine(map.mappings);
  let offset = 0;
  code.split('\n').forEach((line, i) => {
    for (const [column, source] of segments[i] ?? []) starts.push([offset + column, source === undefined ? '(bundler glue)' : moduleName(map.sources[source])]);
    offset += line.length + 1;
  });
  const owner = new Array(code.length).fill('(bundler glue)');
  starts.forEach(([from, name], j) => {
    const to = j + 1 < starts.length ? starts[j + 1][0] : code.length;
    for (let k = from; k < to; k++) owner[k] = name;
  });
  const raw = new Map();
  for (const name of owner) raw.set(name, (raw.get(name) ?? 0) + 1);
  const total = gz(code);
  const rows = [...raw].map(([module, bytes]) => {
    let rest = '';
    for (let k = 0; k < code.length; k++) if (owner[k] !== module) rest += code[k];
    return { module, minified: bytes, gzip: total - gz(rest) };
  });
  return { file, minified: code.length, gzip: total, rows: rows.sort((a, b) => b.gzip - a.gzip) };
}

/** Prints `attribute(file)`: totals per folder, then the `top` largest modules. */
export function printAttribution(file, top = 15) {
  const { minified, gzip, rows } = attribute(file);
  const folder = (m) => (m.startsWith('node_modules/') ? m.split('/').slice(0, m.split('/')[1].startsWith('@') ? 3 : 2).join('/') : m.replace(/\/[^/]*$/, '/'));
  const folders = new Map();
  for (const r of rows) {
    const f = folders.get(folder(r.module)) ?? { gzip: 0, minified: 0 };
    f.gzip += r.gzip;
    f.minified += r.minified;
    folders.set(folder(r.module), f);
  }
  const kb = (n) => `${(n / 1000).toFixed(2)} KB`;
  console.log(`\n${file}: ${kb(gzip)} gzip -9, ${kb(minified)} minified; marginal gzip per folder, then per module`);
  for (const [name, f] of [...folders].sort((a, b) => b[1].gzip - a[1].gzip)) console.log(`  ${kb(f.gzip).padStart(9)} ${kb(f.minified).padStart(9)}  ${name}`);
  for (const r of rows.slice(0, top)) console.log(`    ${kb(r.gzip).padStart(9)} ${kb(r.minified).padStart(9)}  ${r.module}`);
}

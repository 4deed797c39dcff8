import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { McpUiStyleVariableKey, McpUiHostContext as SdkHostContext, McpUiResourceCsp as SdkCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import { buildCsp, DEFAULT_CSP, normalizeCsp, sanitizeDomains } from '../../src/apps/csp.js';
import { buildAllowAttribute, normalizePermissions } from '../../src/apps/permissions.js';
import { buildStyleVariables, diffHostContext } from '../../src/apps/host-context.js';
import { sandboxResponseHeaders, sandboxResponseHeadersForUrl } from '../../src/apps/sandbox-headers.js';
import { MAX_VIEW_URI_LENGTH, isViewUri, repairPartialJson, resourceUriOf } from '../../src/apps/tool-call.js';
import { sanitizeFileName } from '../../src/apps/file-name.js';
import type { McpUiHostContext, McpUiResourceCsp } from '../../src/apps/types.js';

const directives = (policy: string) => new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v]));

test('no csp, strict policy → the restrictive default (no network, no frames, no plugins)', () => {
  assert.equal(buildCsp(undefined, { policy: 'strict' }), DEFAULT_CSP);
  const d = directives(DEFAULT_CSP);
  assert.deepEqual(d.get('default-src'), ["'none'"]);
  assert.deepEqual(d.get('connect-src'), ["'none'"]);
  assert.deepEqual(d.get('frame-src'), ["'none'"]);
  assert.deepEqual(d.get('object-src'), ["'none'"]);
});

test('compat policy (default): what the reference host allows (eval, blob:/data: scripts, blob: workers), still no network without a declaration', () => {
  const d = directives(buildCsp(undefined));
  assert.deepEqual(d.get('script-src'), ["'self'", "'unsafe-inline'", "'unsafe-eval'", 'blob:', 'data:']);
  assert.deepEqual(d.get('worker-src'), ["'self'", 'blob:']);
  assert.ok(d.get('img-src')!.includes('blob:'));
  assert.deepEqual(d.get('connect-src'), ["'none'"]);
  assert.deepEqual(d.get('frame-src'), ["'none'"]);
  assert.deepEqual(d.get('object-src'), ["'none'"]);
  const declared = directives(buildCsp({ resourceDomains: ['https://cdn.example.com'] }));
  assert.deepEqual(declared.get('worker-src'), ["'self'", 'blob:', 'https://cdn.example.com']);
  assert.deepEqual(declared.get('connect-src'), ["'self'"]);
  const strict = directives(buildCsp({ resourceDomains: ['https://cdn.example.com'] }, { policy: 'strict' }));
  assert.equal(strict.get('script-src')!.includes("'unsafe-eval'"), false);
  assert.equal(strict.get('script-src')!.includes('blob:'), false);
  assert.equal(strict.has('worker-src'), false);
});

test('declared domains map to their directives; frame and base-uri honoured', () => {
  const policy = buildCsp({
    connectDomains: ['https://api.example.com', 'wss://live.example.com'],
    resourceDomains: ['https://*.cdn.example.com'],
    frameDomains: ['https://www.youtube.com'],
    baseUriDomains: ['https://base.example.com'],
  });
  const d = directives(policy);
  assert.deepEqual(d.get('connect-src'), ["'self'", 'https://api.example.com', 'wss://live.example.com']);
  for (const k of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src']) assert.ok(d.get(k)!.includes('https://*.cdn.example.com'), k);
  assert.deepEqual(d.get('frame-src'), ['https://www.youtube.com']);
  assert.deepEqual(d.get('base-uri'), ['https://base.example.com']);
  assert.deepEqual(d.get('object-src'), ["'none'"]);
  const empty = directives(buildCsp({}));
  assert.deepEqual(empty.get('frame-src'), ["'none'"]);
  assert.deepEqual(empty.get('base-uri'), ["'self'"]);
  assert.deepEqual(empty.get('connect-src'), ["'self'"]);
});

test('domain tokens are sanitized: no injection, keywords, wildcards-all or schemes-only', () => {
  assert.deepEqual(
    sanitizeDomains([
      'https://ok.example.com',
      "https://x.com; script-src 'unsafe-eval'",
      "'unsafe-eval'",
      '*',
      'https:',
      'data:',
      'https://a.com\nb',
      'https://a.com b.com',
      'http://localhost:8080',
      'http://127.0.0.1:*',
      42,
      'https://ok.example.com',
    ]),
    ['https://ok.example.com', 'http://localhost:8080', 'http://127.0.0.1:*'],
  );
  assert.equal(buildCsp({ connectDomains: ["x.com; default-src *"] }).includes('default-src *'), false);
  assert.deepEqual(normalizeCsp({ connectDomains: ['https://a.com', 'bad token'], extra: 1 }), { connectDomains: ['https://a.com'] });
  assert.equal(normalizeCsp('nope'), undefined);
  const typed: SdkCsp = normalizeCsp({}) as McpUiResourceCsp; // our shape is assignable to the SDK's
  assert.ok(typed);
});

test('sandbox response headers: CSP from the query, frame-ancestors from parent, no-store', () => {
  const csp = JSON.stringify({ connectDomains: ['https://api.example.com'] });
  const headers = sandboxResponseHeadersForUrl(`/sandbox/sandbox-proxy.html?csp=${encodeURIComponent(csp)}&parent=${encodeURIComponent('http://localhost:8000')}`);
  assert.match(headers['Content-Security-Policy']!, /connect-src 'self' https:\/\/api\.example\.com/);
  assert.match(headers['Content-Security-Policy']!, /frame-ancestors http:\/\/localhost:8000$/);
  assert.equal(headers['Cache-Control'], 'no-store');
  assert.match(headers['Content-Security-Policy']!, /'unsafe-eval'/, 'compat by default');
  assert.doesNotMatch(sandboxResponseHeadersForUrl('/p.html?policy=strict')['Content-Security-Policy']!, /'unsafe-eval'/);
  assert.equal(sandboxResponseHeaders('{not json', { policy: 'strict' })['Content-Security-Policy'], DEFAULT_CSP, 'malformed → default');
  assert.equal(sandboxResponseHeaders(null, { policy: 'strict' })['Content-Security-Policy'], DEFAULT_CSP);
  assert.match(sandboxResponseHeaders(null)['Content-Security-Policy']!, /connect-src 'none'/, 'malformed/absent → no network under compat too');
});

test('permissions → iframe allow list (known keys only)', () => {
  assert.equal(buildAllowAttribute({ camera: {}, clipboardWrite: {}, usb: {}, microphone: true }), 'camera; clipboard-write');
  assert.equal(buildAllowAttribute({ camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} }), 'camera; microphone; geolocation; clipboard-write');
  assert.equal(buildAllowAttribute(undefined), '');
  assert.deepEqual(normalizePermissions({ geolocation: {}, x: {} }), { geolocation: {} });
  assert.equal(normalizePermissions({}), undefined);
});

// All 76 standard keys, typed by the SDK: a missing name fails here.
const KEYS: Record<McpUiStyleVariableKey, true> = Object.fromEntries(
  [
    ...['primary', 'secondary', 'tertiary', 'inverse', 'ghost', 'info', 'danger', 'success', 'warning', 'disabled'].flatMap((n) => [
      `--color-background-${n}`,
      `--color-text-${n}`,
      `--color-border-${n}`,
    ]),
    ...['primary', 'secondary', 'inverse', 'info', 'danger', 'success', 'warning'].map((n) => `--color-ring-${n}`),
    '--font-sans', '--font-mono',
    ...['normal', 'medium', 'semibold', 'bold'].map((n) => `--font-weight-${n}`),
    ...['xs', 'sm', 'md', 'lg'].flatMap((n) => [`--font-text-${n}-size`, `--font-text-${n}-line-height`]),
    ...['xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl'].flatMap((n) => [`--font-heading-${n}-size`, `--font-heading-${n}-line-height`]),
    ...['xs', 'sm', 'md', 'lg', 'xl', 'full'].map((n) => `--border-radius-${n}`),
    '--border-width-regular',
    ...['hairline', 'sm', 'md', 'lg'].map((n) => `--shadow-${n}`),
  ].map((k) => [k, true]),
) as Record<McpUiStyleVariableKey, true>;

test('style variables: all 76 MCP Apps names, light-dark() colours, single-theme values on request', () => {
  const vars = buildStyleVariables();
  assert.equal(Object.keys(KEYS).length, 76);
  assert.deepEqual(Object.keys(vars).sort(), Object.keys(KEYS).sort());
  assert.match(vars['--color-background-primary']!, /^light-dark\(#ffffff, #0d1117\)$/);
  assert.equal(buildStyleVariables({}, 'dark')['--color-text-primary'], '#e6edf3');
  assert.equal(buildStyleVariables({}, 'light')['--color-text-primary'], '#1f2328');
  assert.equal(buildStyleVariables({ accent: ['#111111', '#222222'] }, 'dark')['--color-text-info'], '#222222');
  for (const [k, v] of Object.entries(vars)) assert.ok(v && !v.includes('undefined'), k);
  const ctx: SdkHostContext = { theme: 'dark', styles: { variables: vars } } satisfies McpUiHostContext as SdkHostContext;
  assert.ok(ctx);
});

test('host-context diffs carry only changed keys', () => {
  assert.equal(diffHostContext({ theme: 'light', locale: 'en' }, { theme: 'light', locale: 'en' }), undefined);
  assert.deepEqual(diffHostContext({ theme: 'light', containerDimensions: { width: 1 } }, { theme: 'dark', containerDimensions: { width: 1 } }), { theme: 'dark' });
});

test('tool-call helpers: resource URI (nested then flat), partial JSON repair, file names', () => {
  assert.equal(resourceUriOf({ _meta: { ui: { resourceUri: 'ui://a/b.html' } } }), 'ui://a/b.html');
  assert.equal(resourceUriOf({ _meta: { 'ui/resourceUri': 'ui://flat' } }), 'ui://flat');
  assert.equal(resourceUriOf({ _meta: { ui: { resourceUri: 'https://x' } } }), undefined);
  // The longest URI that names a View, and one character more (a server's megabytes would ride every update and error text).
  const longest = `ui://a/${'x'.repeat(MAX_VIEW_URI_LENGTH - 'ui://a/'.length)}`;
  assert.equal(resourceUriOf({ _meta: { ui: { resourceUri: longest } } }), longest);
  assert.equal(resourceUriOf({ _meta: { ui: { resourceUri: `${longest}x` } } }), undefined);
  assert.equal(resourceUriOf({ _meta: { 'ui/resourceUri': `${longest}x` } }), undefined);
  assert.deepEqual([isViewUri(longest), isViewUri(`${longest}x`), isViewUri(42), isViewUri(undefined)], [true, false, false, false]);
  assert.deepEqual(repairPartialJson('{"a": [1, 2'), { a: [1, 2] });
  assert.deepEqual(repairPartialJson('{"a": "hel'), { a: 'hel' });
  assert.deepEqual(repairPartialJson('{"a": 1,'), { a: 1 });
  assert.equal(repairPartialJson('[1'), undefined);
  assert.equal(sanitizeFileName('ui://x/report.pdf'), 'report.pdf');
  assert.equal(sanitizeFileName('..'), 'download');
  assert.equal(sanitizeFileName('CON'), '_CON');
});

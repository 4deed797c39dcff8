// Browser tests: Debian's Chromium through puppeteer-core, TypeScript through esbuild, a second
// static server on another origin (127.0.0.1) for cross-origin iframe tests, and a real AHP host
// (HostCore over a `ws` WebSocket server on 127.0.0.1) for tests that need a real socket.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { WebSocketServer } from 'ws';
import { tsImport } from 'tsx/esm/api';
import { findChromium, CHROMIUM_ARGS } from './scripts/find-chromium.mjs';
import { countReporter } from './scripts/wtr-count-reporter.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The MCP Apps sandbox proxy as a server must serve it: `/sandbox/sandbox-proxy.html?csp=<json>&parent=<origin>`
 * with the CSP header from `sandboxResponseHeadersForUrl`, and its script built from src/apps.
 */
let sandboxScript;
async function buildSandboxScript() {
  if (!sandboxScript) {
    const { build } = await import('esbuild');
    const out = await build({ entryPoints: [path.join(here, 'src/apps/sandbox-proxy-main.ts')], bundle: true, format: 'esm', write: false, target: 'es2022' });
    sandboxScript = out.outputFiles[0].contents;
  }
  return sandboxScript;
}
async function serveSandbox(url, res) {
  try {
    if (url.pathname === '/sandbox/sandbox-proxy.html') {
      const { sandboxResponseHeadersForUrl } = await tsImport('./src/apps/sandbox-headers.ts', import.meta.url);
      const body = await readFile(path.join(here, 'src/apps/sandbox-proxy.html'));
      res.writeHead(200, sandboxResponseHeadersForUrl(url)).end(body);
      return;
    }
    if (url.pathname === '/sandbox/sandbox-proxy.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(await buildSandboxScript());
      return;
    }
    res.writeHead(404).end('not found');
  } catch (error) {
    res.writeHead(500).end(String(error?.stack ?? error));
  }
}

/** Serves test/fixtures on http://127.0.0.1:<random port>; the page runs on http://localhost:<port>. */
function secondOriginPlugin({ root = path.join(here, 'test/fixtures') } = {}) {
  let server;
  let origin;
  let sandbox2;
  let sandboxOrigin2;
  return {
    name: 'second-origin',
    async serverStart() {
      server = http.createServer(async (req, res) => {
        const url = new URL(req.url, 'http://x');
        if (url.pathname.startsWith('/sandbox/')) {
          await serveSandbox(url, res);
          return;
        }
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
      // A second sandbox origin (another port): MCP Apps of two servers must not share storage.
      sandbox2 = http.createServer((req, res) => void serveSandbox(new URL(req.url, 'http://x'), res));
      await new Promise((resolve, reject) => sandbox2.once('error', reject).listen(0, '127.0.0.1', resolve));
      sandboxOrigin2 = `http://127.0.0.1:${sandbox2.address().port}`;
    },
    async serverStop() {
      await new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await new Promise((resolve) => (sandbox2 ? sandbox2.close(() => resolve()) : resolve()));
    },
    serve(context) {
      if (context.path === '/__test/env.json') {
        return { body: JSON.stringify({ otherOrigin: origin, sandboxOrigin2 }), type: 'application/json' };
      }
      if (context.path === '/__test/same-origin-sandbox.html') {
        // The proxy page wrongly served on the page's own origin: it must refuse to run.
        return readFile(path.join(here, 'src/apps/sandbox-proxy.html'), 'utf8').then((body) => ({ body: body.replace('./sandbox-proxy.js', '/__test/sandbox-proxy.js'), type: 'text/html' }));
      }
      if (context.path === '/__test/sandbox-proxy.js') {
        return buildSandboxScript().then((body) => ({ body: Buffer.from(body).toString('utf8'), type: 'text/javascript' }));
      }
      if (context.path === '/__test/slow.js') {
        // A script that takes its time (?ms=, at most 10 s): a View's deferred script from a slow CDN.
        const ms = Math.min(Number(new URL(context.url, 'http://x').searchParams.get('ms')) || 0, 10_000);
        return new Promise((resolve) => setTimeout(() => resolve({ body: '', type: 'text/javascript', headers: { 'access-control-allow-origin': '*' } }), ms));
      }
      if (context.path === '/__test/cors.json') {
        // Readable from any origin, so only a CSP can keep a sandboxed View from fetching it.
        return { body: '{"ok":true}', type: 'application/json', headers: { 'access-control-allow-origin': '*' } };
      }
    },
  };
}

const AHP_DEFAULT_SESSION = 'ahp-session:/wtr';

/** A session with a couple of MCP servers (one in a plugin container). */
const seededSession = (title) => ({
  provider: 'test',
  title,
  status: 1,
  lifecycle: 'ready',
  activeClients: [],
  chats: [],
  customizations: [
    { type: 'mcpServer', id: 'alpha', uri: 'mcp-config:/alpha', name: 'Alpha', state: { kind: 'ready' } },
    { type: 'mcpServer', id: 'beta', uri: 'mcp-config:/beta', name: 'Beta', state: { kind: 'stopped' } },
    {
      type: 'plugin',
      id: 'tools',
      uri: 'plugin:/tools',
      name: 'Tools',
      children: [{ type: 'mcpServer', id: 'gamma', uri: 'mcp-config:/gamma', name: 'Gamma', state: { kind: 'ready' } }],
    },
  ],
});

/**
 * A real AHP host: `HostCore` (src/host, loaded through tsx) over a `ws` WebSocketServer on
 * 127.0.0.1:<ephemeral>. `GET /__test/ahp.json` → `{ url, session, sockets, openSockets, state }` for the
 * default session, `?session=<uri>` for another, `?fresh` creates a new seeded session. `sockets` counts
 * the WebSockets that ever subscribed to that session (`openSockets`: still open).
 * `GET /__test/ahp-action.json?session=<uri>&action=<json>` dispatches a server action;
 * `GET /__test/ahp-drop.json?session=<uri>` cuts the open WebSockets of that session (clients reconnect).
 */
function ahpHostPlugin() {
  let host;
  let wss;
  let url;
  let created = 0;
  const sockets = new Set();
  const tokens = [];
  let startError;
  const json = (value) => ({ body: JSON.stringify(value), type: 'application/json' });
  const startHost = async () => {
    const { HostCore, attachWebSocket } = await tsImport('./src/host.ts', import.meta.url);
    const core = new HostCore({ log: () => {} });
    core.createSession(AHP_DEFAULT_SESSION, seededSession('Default test session'));
    // `authenticate`: the tokens clients hand over, listed at /__test/ahp.json (`tokens`).
    core.handleRequest('authenticate', (params) => {
      tokens.push({ resource: params?.resource, token: params?.token });
      return {};
    });
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve, reject) => wss.once('error', reject).once('listening', resolve));
    url = `ws://127.0.0.1:${wss.address().port}/`;
    wss.on('connection', (socket) => {
      const info = { socket, channels: new Set(), open: true };
      sockets.add(info);
      socket.on('message', (data) => {
        try {
          const msg = JSON.parse(String(data));
          if (msg.method === 'subscribe' && typeof msg.params?.channel === 'string') info.channels.add(msg.params.channel);
          if (msg.method === 'reconnect' && Array.isArray(msg.params?.subscriptions)) {
            for (const s of msg.params.subscriptions) info.channels.add(typeof s === 'string' ? s : s?.channel);
          }
        } catch {
          // The host reports malformed frames itself.
        }
      });
      socket.on('close', () => (info.open = false));
      attachWebSocket(core, socket);
    });
    host = core;
  };
  return {
    name: 'ahp-host',
    async serverStart() {
      try {
        await startHost();
      } catch (error) {
        // Only the tests that need the host should fail: its routes answer with this error.
        startError = error;
        console.error(`[ahp-host] the test AHP host did not start: ${error?.stack ?? error}`);
      }
    },
    async serverStop() {
      host?.close();
      for (const client of wss?.clients ?? []) client.terminate();
      await new Promise((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
    },
    serve(context) {
      if (context.path.startsWith('/__test/ahp') && !host) {
        return json({ error: `the test AHP host did not start: ${startError}` });
      }
      if (context.path === '/__test/ahp.json') {
        let session = typeof context.query.session === 'string' ? context.query.session : AHP_DEFAULT_SESSION;
        if ('fresh' in context.query) {
          session = `ahp-session:/wtr-${++created}`;
          host.createSession(session, seededSession(`Test session ${created}`));
        }
        const mine = [...sockets].filter((s) => s.channels.has(session));
        return json({ url, session, sockets: mine.length, openSockets: mine.filter((s) => s.open).length, state: host.getSessionState(session) ?? null, tokens });
      }
      if (context.path === '/__test/ahp-drop.json') {
        const mine = [...sockets].filter((s) => s.open && s.channels.has(String(context.query.session)));
        for (const s of mine) s.socket.terminate();
        return json({ dropped: mine.length });
      }
      if (context.path === '/__test/ahp-action.json') {
        try {
          return json(host.dispatchServerAction(String(context.query.session), JSON.parse(String(context.query.action))));
        } catch (error) {
          return json({ error: String(error) });
        }
      }
    },
  };
}

/**
 * A real OAuth authorization server (test/fixtures/auth/test-as.mjs) on 127.0.0.1:<ephemeral>, another origin than
 * the page. `GET /__test/auth-as.json` → `{ issuer, log }`; `?reset` clears the log and failure switches first;
 * `?behavior=<json>` sets failure switches (deny, tamperState, wrongIss, tokenError, authorizeDelayMs, …) and
 * `client` (a pre-registered client: `{ client_id, client_secret, redirect_uris }`, gone at the next reset).
 */
function authServerPlugin() {
  let as;
  let startError;
  return {
    name: 'auth-server',
    async serverStart() {
      try {
        const { startTestAuthServer } = await import('./test/fixtures/auth/test-as.mjs');
        as = await startTestAuthServer();
      } catch (error) {
        startError = error;
        console.error(`[auth-server] the test authorization server did not start: ${error?.stack ?? error}`);
      }
    },
    async serverStop() {
      await as?.close();
    },
    serve(context) {
      if (context.path !== '/__test/auth-as.json') return;
      if (!as) return { body: JSON.stringify({ error: String(startError) }), type: 'application/json' };
      if ('reset' in context.query) as.reset();
      if (typeof context.query.behavior === 'string') Object.assign(as.behavior, JSON.parse(context.query.behavior));
      return { body: JSON.stringify({ issuer: as.issuer, log: as.log }), type: 'application/json' };
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
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: path.join(here, 'tsconfig.json') }), secondOriginPlugin(), ahpHostPlugin(), authServerPlugin()],
  browsers: [chromeLauncher({ launchOptions: { executablePath, headless: true, args: CHROMIUM_ARGS } })],
};

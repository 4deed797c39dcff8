/** The playground's HTTP side: the demo page, the elements bundle, assets, config icons, `/playground.json`, the example pages (`/examples/`) and `/cdn/`. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './config.js';
import type { PageInfo } from './page-info.js';
import { imageContentType } from './session-state.js';
import { paletteCss } from './palette-css.js';
import { BUNDLED_PAGES, PAGES_DIR, buildExample } from './build-examples.mjs';
import { errorText } from '../../src/protocol/guards.js';

export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
const ASSETS_DIR = path.join(EXAMPLES_DIR, 'assets');
const CDN_DIR = path.join(REPO_ROOT, 'dist/cdn');

export interface RouteOptions {
  /** The bundled elements (ESM). */
  elementsBundle: string;
  /** The session worker for `<ahp-session worker>` (ESM; serves SharedWorker and Worker), bundled on first request. */
  workerBundle?: () => Promise<string>;
  /** URL path → icon file named by the config. */
  iconFiles: ReadonlyMap<string, string>;
  /** What the page needs to connect, and what it says about the running config. */
  playgroundInfo: { wsUrl: string; sessionUri: string } & PageInfo;
  /** Other page origins (`--allow-origin`) that may load the CDN file and the elements bundle (CORS). */
  corsOrigins?: ReadonlySet<string>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};
const typeOf = (file: string) => TYPES[path.extname(file).toLowerCase()] ?? imageContentType(file);

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });
  res.end(body);
}

async function sendFile(res: ServerResponse, file: string): Promise<void> {
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
  }
  // An SVG opened directly must not run script in the playground's origin.
  const extra: Record<string, string> = file.toLowerCase().endsWith('.svg') ? { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" } : {};
  send(res, 200, typeOf(file), body, extra);
}

/** Builds the request handler for the playground's HTTP server. */
export function createRequestHandler(options: RouteOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // A module script from another page origin is a CORS request: allow the configured ones.
    const origin = req.headers.origin;
    if (origin && options.corsOrigins?.has(origin)) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('vary', 'origin');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed\n', { allow: 'GET, HEAD' });
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://playground').pathname);
    } catch {
      return send(res, 400, 'text/plain; charset=utf-8', 'Bad request\n');
    }
    if (pathname === '/' || pathname === '/index.html') return void sendFile(res, path.join(EXAMPLES_DIR, 'index.html'));
    if (pathname === '/palette.css') return send(res, 200, TYPES['.css']!, paletteCss());
    if (pathname === '/ahp-elements.js') return send(res, 200, TYPES['.js']!, options.elementsBundle);
    if (pathname === '/ahp-session-worker.js' && options.workerBundle) {
      return void options.workerBundle().then(
        (js) => send(res, 200, TYPES['.js']!, js),
        (err: Error) => send(res, 500, 'text/plain; charset=utf-8', `${err.message}\n`),
      );
    }
    if (pathname === '/playground.json') return send(res, 200, TYPES['.json']!, JSON.stringify(options.playgroundInfo));
    if (pathname === '/favicon.ico') return void sendFile(res, path.join(ASSETS_DIR, 'ahp-logo.svg'));
    const icon = options.iconFiles.get(pathname);
    if (icon) return void sendFile(res, icon);
    if (pathname.startsWith('/assets/')) {
      const file = path.join(ASSETS_DIR, path.normalize(pathname.slice('/assets/'.length)));
      if (file.startsWith(ASSETS_DIR + path.sep)) return void sendFile(res, file);
    }
    if (pathname === '/examples' || pathname.startsWith('/examples/') || pathname.startsWith('/cdn/')) return void serveExamples(res, pathname, options.elementsBundle);
    send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
  };
}

const PAGE_NAMES = ['cdn', ...Object.keys(BUNDLED_PAGES)];
/** In-flight bundle builds by page; a finished build is re-checked (cheaply, by its inputs' mtimes) on the next request. */
const building = new Map<string, Promise<string>>();

function buildOnce(name: string): Promise<string> {
  let p = building.get(name);
  if (!p) {
    p = buildExample(name).finally(() => building.delete(name));
    building.set(name, p);
  }
  return p;
}

/**
 * The usage pages (examples/pages/<name>/ at /examples/<name>/, their bundles built with esbuild on first request) and
 * the CDN files (dist/cdn/ at /cdn/; before a rollup build, /cdn/ahp-elements.min.js is the esbuild bundle).
 */
async function serveExamples(res: ServerResponse, pathname: string, elementsBundle: string): Promise<void> {
  if (pathname.startsWith('/cdn/')) {
    const file = path.join(CDN_DIR, path.normalize(pathname.slice('/cdn/'.length)));
    if (!file.startsWith(CDN_DIR + path.sep)) return send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
    if (pathname === '/cdn/ahp-elements.min.js' && !existsSync(file)) return send(res, 200, TYPES['.js']!, elementsBundle, { 'x-ahp-elements-build': 'esbuild' });
    return sendFile(res, file);
  }
  if (pathname === '/examples' || pathname === '/examples/') {
    const links = PAGE_NAMES.map((n) => `<li><a href="/examples/${n}/">${n}</a></li>`).join('');
    return send(res, 200, TYPES['.html']!, `<!doctype html><meta charset="utf-8"><title>ahp-elements examples</title><h1>Examples</h1><ul>${links}</ul>\n`);
  }
  if (pathname === '/examples/page.css') return sendFile(res, path.join(PAGES_DIR, 'page.css'));
  const [, name = '', rest] = /^\/examples\/([a-z0-9-]+)(\/.*)?$/.exec(pathname) ?? [];
  if (!PAGE_NAMES.includes(name)) return send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
  if (rest === undefined) return send(res, 308, 'text/plain; charset=utf-8', '', { location: `/examples/${name}/` });
  if (rest === '/' || rest === '/index.html') return sendFile(res, path.join(PAGES_DIR, name, 'index.html'));
  if ((rest === '/main.js' || rest === '/main.js.map') && name in BUNDLED_PAGES) {
    let dir: string;
    try {
      dir = await buildOnce(name);
    } catch (err) {
      return send(res, 500, 'text/plain; charset=utf-8', `${errorText(err)}\n`);
    }
    return sendFile(res, path.join(dir, rest.slice(1)));
  }
  send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
}

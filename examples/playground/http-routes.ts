/** The playground's HTTP side: the demo page, the elements bundle, assets, config icons and `/playground.json`. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from './config.js';
import { imageContentType } from './session-state.js';

export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
const ASSETS_DIR = path.join(EXAMPLES_DIR, 'assets');

export interface RouteOptions {
  /** The bundled elements (ESM). */
  elementsBundle: string;
  /** URL path → icon file named by the config. */
  iconFiles: ReadonlyMap<string, string>;
  /** What the page needs to connect. */
  playgroundInfo: { wsUrl: string; sessionUri: string };
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
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed\n', { allow: 'GET, HEAD' });
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://playground').pathname);
    } catch {
      return send(res, 400, 'text/plain; charset=utf-8', 'Bad request\n');
    }
    if (pathname === '/' || pathname === '/index.html') return void sendFile(res, path.join(EXAMPLES_DIR, 'index.html'));
    if (pathname === '/ahp-elements.js') return send(res, 200, TYPES['.js']!, options.elementsBundle);
    if (pathname === '/playground.json') return send(res, 200, TYPES['.json']!, JSON.stringify(options.playgroundInfo));
    if (pathname === '/favicon.ico') return void sendFile(res, path.join(ASSETS_DIR, 'ahp-logo.svg'));
    const icon = options.iconFiles.get(pathname);
    if (icon) return void sendFile(res, icon);
    if (pathname.startsWith('/assets/')) {
      const file = path.join(ASSETS_DIR, path.normalize(pathname.slice('/assets/'.length)));
      if (file.startsWith(ASSETS_DIR + path.sep)) return void sendFile(res, file);
    }
    send(res, 404, 'text/plain; charset=utf-8', 'Not found\n');
  };
}

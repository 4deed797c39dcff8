/** Serves the OAuth callback page the package ships (src/auth/callback.html) next to /ahp-elements.js, as the driver expects. */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { REPO_ROOT } from '../config.js';
import { bundleElements } from '../elements-bundle.js';

const CALLBACK_HTML = path.join(REPO_ROOT, 'src/auth/callback.html');
const CALLBACK_SCRIPT = path.join(REPO_ROOT, 'src/auth/callback-page.ts');

/** Returns a handler that answers `/callback.html` and its script and returns false for anything else. */
export async function createAuthRoutes(): Promise<(req: IncomingMessage, res: ServerResponse) => boolean> {
  const [html, script] = await Promise.all([readFile(CALLBACK_HTML, 'utf8'), bundleElements(CALLBACK_SCRIPT)]);
  const page = html.replace('./callback-page.ts', './callback-page.js');
  const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
  return (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://playground').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (pathname === '/callback.html') {
      res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
      return true;
    }
    if (pathname === '/callback-page.js') {
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript; charset=utf-8' });
      res.end(script);
      return true;
    }
    return false;
  };
}

/** The sandbox proxy page shipped in src/apps, with its script bundled for the browser (once, in memory). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../config.js';
import { transform } from 'esbuild';
import { bundleElements } from '../elements-bundle.js';

export const SANDBOX_PROXY_HTML = path.join(REPO_ROOT, 'src/apps/sandbox-proxy.html');
export const SANDBOX_PROXY_ENTRY = path.join(REPO_ROOT, 'src/apps/sandbox-proxy-main.ts');
/** Where the page expects its script (`./sandbox-proxy.js` next to it). */
export const SANDBOX_PROXY_SCRIPT_PATH = '/sandbox-proxy.js';

export interface SandboxProxyAssets {
  html: string;
  script: string;
}

/** Reads the page and bundles its entry; rejects with a readable message when either is missing or broken. */
export async function loadSandboxProxyAssets(): Promise<SandboxProxyAssets> {
  const [html, script] = await Promise.all([
    readFile(SANDBOX_PROXY_HTML, 'utf8').catch((err: Error) => {
      throw new Error(`The sandbox proxy page ${path.relative(REPO_ROOT, SANDBOX_PROXY_HTML)} is missing: ${err.message}`);
    }),
    bundleElements(SANDBOX_PROXY_ENTRY),
  ]);
  return { html, script };
}

const SCRIPT_TAG = '<script type="module" src="./sandbox-proxy.js"></script>';

/**
 * The page with its script minified and inline, so a proxy load is one request instead of two (every App start
 * waits for one, on a cold origin for the whole page). The proxy's CSP allows inline scripts under every policy.
 * The script stays served on its own too.
 */
export async function inlineProxyScript(assets: SandboxProxyAssets): Promise<SandboxProxyAssets> {
  if (!assets.html.includes(SCRIPT_TAG)) return assets;
  const { code } = await transform(assets.script, { loader: 'js', format: 'esm', minify: true, target: 'es2022' });
  // `</script` cannot occur in the element's text; in JS source `<\/` means the same.
  const inline = `<script type="module">${code.replace(/<\/script/gi, '<\\/script')}</script>`;
  return { html: assets.html.replace(SCRIPT_TAG, () => inline), script: assets.script };
}

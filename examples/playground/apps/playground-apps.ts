/** MCP Apps in the playground: per-server sandbox origins, how the page learns them, and their lifetime. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlaygroundConfig } from '../config.js';
import type { ServerMeta } from '../session-state.js';
import { inlineProxyScript, loadSandboxProxyAssets, type SandboxProxyAssets } from './sandbox-proxy-assets.js';
import { startSandboxOrigins, type SandboxOrigins } from './sandbox-origins.js';

/** `_meta` key on each MCP server customization: `{ url, origin }` of its sandbox proxy. */
export const SANDBOX_META_KEY = 'ahp-elements/sandbox';
/**
 * Lists every server's sandbox: `{ sandboxes: { [serverId]: { url, origin, blankUrl, domainUrlTemplate } } }`;
 * in `domainUrlTemplate`, `{domain}` stands for a DNS label ([a-z0-9-], at most 63) derived from `_meta.ui.domain`.
 */
export const APPS_INFO_PATH = '/playground-apps.json';

export interface PlaygroundApps {
  sandboxes: SandboxOrigins;
  /** `_meta` for a server's customization (its sandbox URL). */
  serverMeta: ServerMeta;
  /** Serves `APPS_INFO_PATH`; returns false for every other request. */
  route(req: IncomingMessage, res: ServerResponse): boolean;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The origins the demo page may be opened at (loopback names are interchangeable). */
function pageOrigins(pageUrl: string): string[] {
  const page = new URL(pageUrl);
  const out = [page.origin];
  if (LOOPBACK.has(page.hostname)) for (const name of LOOPBACK) out.push(`${page.protocol}//${name}:${page.port}`);
  return [...new Set(out)];
}

/** Starts a sandbox origin per configured server. The proxy script is bundled on first use. */
export async function startPlaygroundApps(options: {
  config: PlaygroundConfig;
  bindHost: string;
  pageUrl: string;
  /** Other page origins (`--allow-origin`) whose pages may frame the sandboxes. */
  extraPageOrigins?: readonly string[];
}): Promise<PlaygroundApps> {
  let assets: Promise<SandboxProxyAssets> | undefined;
  const getAssets = () => {
    assets ??= loadSandboxProxyAssets().then(inlineProxyScript).catch((err: unknown) => {
      assets = undefined; // try again on the next request (the page may be fixed meanwhile)
      throw err;
    });
    return assets;
  };
  const sandboxes = await startSandboxOrigins({
    serverIds: options.config.servers.map((s) => s.id),
    bindHost: options.bindHost,
    pageOrigins: [...pageOrigins(options.pageUrl), ...(options.extraPageOrigins ?? [])],
    assets: getAssets,
  });
  return {
    sandboxes,
    serverMeta(serverId) {
      const s = sandboxes.get(serverId);
      return s ? { [SANDBOX_META_KEY]: { url: s.url, origin: s.origin } } : undefined;
    },
    route(req, res) {
      if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://playground').pathname !== APPS_INFO_PATH) return false;
      const info = Object.fromEntries(
        sandboxes.all().map((s) => [s.serverId, { url: s.url, origin: s.origin, blankUrl: s.blankUrl, domainUrlTemplate: s.domainUrlTemplate }]),
      );
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ sandboxes: info }));
      return true;
    },
    close: () => sandboxes.close(),
  };
}

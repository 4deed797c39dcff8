/**
 * One loopback HTTP origin per MCP server for its Apps' sandbox proxy, so Apps of different servers never
 * share an origin (storage, cookies, service workers). On loopback each origin has its own host name,
 * `http://<server label>.localhost:<port>` (browsers resolve every `*.localhost` to loopback): cookies ignore
 * ports, so origins that differed only by port would share cookies with each other and with the page. Each serves the proxy page with the View's CSP as an
 * HTTP header built from the request's `csp` query (a header cannot be tampered with from inside the frame).
 * A resource's `_meta.ui.domain` gets its own origin too: `http://<domain label>.localhost:<server's port>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxPolicyOf } from '../../../src/apps/csp.js';
import { sandboxResponseHeaders } from '../../../src/apps/sandbox-headers.js';
import { SANDBOX_PROXY_SCRIPT_PATH, type SandboxProxyAssets } from './sandbox-proxy-assets.js';
import { errorText } from '../../../src/protocol/guards.js';

/** Where one server's Apps are sandboxed. */
export interface SandboxOrigin {
  serverId: string;
  /** `http://<server label>.localhost:<port>` on loopback, else `http://<bindHost>:<port>` */
  origin: string;
  /** The sandbox proxy page (the element appends `csp`, `parent` and its own parameters). */
  url: string;
  /** A blank page on the same origin under the same default CSP (benchmark baseline). */
  blankUrl: string;
  /** The proxy page for Apps whose resource declares `_meta.ui.domain` (a distinct origin per domain). */
  urlForDomain(domain: string): string;
  /** `urlForDomain` as a template for pages: `{domain}` stands for any DNS label ([a-z0-9-], at most 63). */
  domainUrlTemplate: string;
}

export interface SandboxOriginsOptions {
  serverIds: readonly string[];
  /** Interface to bind; default 127.0.0.1. */
  bindHost?: string;
  /**
   * Page origins allowed to frame the proxy (`frame-ancestors`): the request's `parent` when it is one of
   * them, else the first. Empty → any (not recommended).
   */
  pageOrigins?: readonly string[];
  /** The proxy page and its script (called per request; cache inside). */
  assets: () => Promise<SandboxProxyAssets>;
}

export interface SandboxOrigins {
  get(serverId: string): SandboxOrigin | undefined;
  all(): SandboxOrigin[];
  close(): Promise<void>;
}

export const SANDBOX_PATH = '/sandbox.html';
export const BLANK_PATH = '/blank.html';
const BLANK_PAGE = '<!doctype html><meta charset="utf-8"><title>blank</title>';

/** A DNS label for `_meta.ui.domain` (its format is host-defined; anything else maps onto [a-z0-9-]). */
export function domainLabel(domain: string): string {
  const label = domain.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
  return label || 'app';
}

function originOf(value: string | null): string | undefined {
  try {
    return value ? new URL(value).origin : undefined;
  } catch {
    return undefined;
  }
}

function handler(options: SandboxOriginsOptions, allowedHosts: (host: string) => boolean): http.RequestListener {
  const pageOrigins = options.pageOrigins ?? [];
  return (req, res) => {
    const plain = (status: number, text: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra });
      res.end(text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(405, 'Method not allowed\n', { allow: 'GET, HEAD' });
    // A foreign Host means DNS rebinding or a misdirected request: nothing here is for it.
    if (!allowedHosts(String(req.headers.host ?? '').toLowerCase())) return plain(421, 'Misdirected request\n');
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const parent = originOf(url.searchParams.get('parent'));
    const ancestor = parent && pageOrigins.includes(parent) ? parent : pageOrigins[0];
    const frame = { ...(ancestor && { frameAncestors: ancestor }), policy: sandboxPolicyOf(url.searchParams.get('policy')) };
    const body = (text: string) => res.end(req.method === 'HEAD' ? undefined : text);
    if (url.pathname === BLANK_PATH) {
      res.writeHead(200, sandboxResponseHeaders(null, { ...frame, policy: 'strict' }));
      return body(BLANK_PAGE);
    }
    if (url.pathname !== SANDBOX_PATH && url.pathname !== SANDBOX_PROXY_SCRIPT_PATH) return plain(404, 'Not found\n');
    options.assets().then(
      ({ html, script }) => {
        if (url.pathname === SANDBOX_PATH) {
          res.writeHead(200, sandboxResponseHeaders(url.searchParams.get('csp'), frame));
          return body(html);
        }
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
        body(script);
      },
      (err: unknown) => plain(500, `Sandbox proxy unavailable: ${errorText(err)}\n`),
    );
  };
}

async function listen(server: http.Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Starts one sandbox origin per server id (ephemeral ports on `bindHost`). */
export async function startSandboxOrigins(options: SandboxOriginsOptions): Promise<SandboxOrigins> {
  const bindHost = options.bindHost ?? '127.0.0.1';
  const hostPart = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(bindHost);
  const servers: http.Server[] = [];
  const origins = new Map<string, SandboxOrigin>();
  try {
    for (const serverId of options.serverIds) {
      let port = 0;
      const allowed = (host: string) => {
        const suffix = `:${port}`;
        if (!host.endsWith(suffix)) return false;
        const name = host.slice(0, -suffix.length);
        return name === hostPart || name === 'localhost' || /^[a-z0-9-]{1,63}\.localhost$/.test(name);
      };
      const server = http.createServer(handler(options, allowed));
      servers.push(server);
      port = await listen(server, bindHost);
      const origin = loopback ? `http://${domainLabel(serverId)}.localhost:${port}` : `http://${hostPart}:${port}`;
      origins.set(serverId, {
        serverId,
        origin,
        url: `${origin}${SANDBOX_PATH}`,
        blankUrl: `${origin}${BLANK_PATH}`,
        urlForDomain: (domain) => `http://${domainLabel(domain)}.localhost:${port}${SANDBOX_PATH}`,
        domainUrlTemplate: `http://{domain}.localhost:${port}${SANDBOX_PATH}`,
      });
    }
  } catch (err) {
    for (const s of servers) s.close();
    throw err;
  }
  return {
    get: (serverId) => origins.get(serverId),
    all: () => [...origins.values()],
    async close() {
      await Promise.all(
        servers.map((s) => {
          s.closeAllConnections();
          return new Promise<void>((resolve) => s.close(() => resolve()));
        }),
      );
    },
  };
}

/** The playground: one Node process with the AHP host core over WebSocket, real MCP servers and the demo page. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { HostCore, attachWebSocket } from '../../src/host/index.js';
import { DEFAULT_CONFIG_PATH, loadConfig, type PlaygroundConfig } from './config.js';
import { bundleElements } from './elements-bundle.js';
import { createRequestHandler } from './http-routes.js';
import { McpServerRuntime } from './mcp-runtime.js';
import { driveServers, type ServerLifecycle } from './server-lifecycle.js';
import { iconFiles, playgroundSessionState } from './session-state.js';

export interface PlaygroundOptions {
  /** Port to listen on; 0 picks a free one. Default 4173. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Server config file. Default examples/playground/servers.json. */
  configPath?: string;
  /** An already loaded config (wins over `configPath`). */
  config?: PlaygroundConfig;
  /** Start the enabled servers right away (default true); otherwise call `startServers()`. */
  autoStart?: boolean;
  /** Progress and server stderr lines; default silent. */
  log?: (line: string) => void;
}

export interface Playground {
  /** The demo page. */
  url: string;
  /** The AHP WebSocket endpoint. */
  wsUrl: string;
  sessionUri: string;
  host: HostCore;
  /** One runtime per configured server, by id. */
  servers: Map<string, McpServerRuntime>;
  /** Starts every enabled server; resolves when each is ready or failed. */
  startServers(): Promise<void>;
  /** Stops every server (their processes exit), closes connections and the HTTP server. */
  close(): Promise<void>;
}

export const SESSION_URI = 'ahp-session:/playground';
const WS_PATH = '/ahp';
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Same-origin WebSocket upgrades only, so other web sites cannot drive the local servers. */
function allowedOrigin(req: http.IncomingMessage, bindHost: string): boolean {
  const origin = req.headers.origin;
  if (!origin) return true; // not a browser (Node clients, tests)
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.host !== req.headers.host) return false;
  return LOOPBACK_NAMES.has(parsed.hostname) || parsed.hostname === bindHost;
}

/** Starts the playground. */
export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const log = options.log ?? (() => {});
  const bindHost = options.host ?? '127.0.0.1';
  const [config, elementsBundle] = await Promise.all([
    options.config ?? loadConfig(options.configPath ?? DEFAULT_CONFIG_PATH),
    bundleElements(),
  ]);

  const httpServer = http.createServer();
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 4173, bindHost, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;
  const hostPart = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  const url = `http://${hostPart}:${port}/`;
  const wsUrl = `ws://${hostPart}:${port}${WS_PATH}`;

  const host = new HostCore({ serverInfo: { name: 'ahp-elements playground', version: '0.1.0' } });
  host.createSession(SESSION_URI, playgroundSessionState(config, url));
  httpServer.on(
    'request',
    createRequestHandler({ elementsBundle, iconFiles: iconFiles(config), playgroundInfo: { wsUrl, sessionUri: SESSION_URI } }),
  );
  const wss = new WebSocketServer({
    server: httpServer,
    path: WS_PATH,
    verifyClient: ({ req }: { req: http.IncomingMessage }) => allowedOrigin(req, bindHost),
  });
  wss.on('connection', (socket) => attachWebSocket(host, socket));

  const servers = new Map(
    config.servers.map((s) => [s.id, new McpServerRuntime(s, { onStderrLine: (line) => log(`[${s.id}] ${line}`) })] as const),
  );
  for (const rt of servers.values()) {
    rt.onStateChange((state) => log(`${rt.id}: ${state.kind}${state.kind === 'error' ? ` (${state.error.message.split('\n')[0]})` : ''}`));
  }
  const lifecycle: ServerLifecycle = driveServers(host, SESSION_URI, servers);
  if (options.autoStart !== false) void lifecycle.startEnabled();

  let closing: Promise<void> | undefined;
  return {
    url,
    wsUrl,
    sessionUri: SESSION_URI,
    host,
    servers,
    startServers: () => lifecycle.startEnabled(),
    close() {
      closing ??= (async () => {
        lifecycle.dispose();
        await Promise.all([...servers.values()].map((rt) => rt.stop()));
        host.close();
        for (const client of wss.clients) client.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      })();
      return closing;
    },
  };
}

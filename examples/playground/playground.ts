/** The playground: one Node process with the AHP host core over WebSocket, real MCP servers and the demo page. */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { HostCore, attachWebSocketServer, webSocketServerOptions, type ActionLimits } from '../../src/host.js';
import { DEFAULT_CONFIG_PATH, loadConfig, type PlaygroundConfig } from './config.js';
import { WORKER_ENTRY, bundleElements } from './elements-bundle.js';
import { createRequestHandler } from './http-routes.js';
import { McpServerRuntime } from './mcp-runtime.js';
import { driveServers, type ServerLifecycle } from './server-lifecycle.js';
import { serveMcpChannels } from './apps/mcp-channel-relay.js';
import { startPlaygroundApps, type PlaygroundApps } from './apps/playground-apps.js';
import { startAgent, type PlaygroundAgent } from './agent/agent.js';
import { startBuiltinServers } from './auth/builtin.js';
import { createAuthRoutes } from './auth/auth-routes.js';
import { installHostAuth, type HostAuth } from './auth/host-auth.js';
import type { ProtectedServer } from './auth/protected-server.js';
import { iconFiles, playgroundSessionState } from './session-state.js';
import { pageInfo } from './page-info.js';

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
  /**
   * Other page origins (`http://localhost:8080`) allowed to open the AHP WebSocket, frame the Apps' sandboxes and
   * load `/cdn/` (CORS). The playground's own origin (under any loopback name) is always allowed.
   */
  allowOrigins?: readonly string[];
  /** Envelopes the host keeps per channel for reconnect replay (HostCore default 1000); tiny values force snapshot recovery. */
  actionLogLimit?: number;
  /** Largest WebSocket frame the host accepts (bytes; default 16 MiB, see DEFAULT_MAX_FRAME_BYTES). */
  maxFrameBytes?: number;
  /** Size limits on client actions (defaults: DEFAULT_ACTION_LIMITS). */
  limits?: Partial<ActionLimits>;
}

export interface Playground {
  /** The demo page. */
  url: string;
  /** The AHP WebSocket endpoint. */
  wsUrl: string;
  sessionUri: string;
  /** The chat created at startup (`ahp-chat:/playground-main`, the session's default chat); the agent answers in every chat of the session. */
  chatUri: string;
  /** The scripted agent answering chat turns (see agent/). */
  agent: PlaygroundAgent;
  host: HostCore;
  /** MCP Apps: one sandbox origin per server (also in each server's `_meta` and at /playground-apps.json). */
  apps: PlaygroundApps;
  /** One runtime per configured server, by id. */
  servers: Map<string, McpServerRuntime>;
  /** The `authenticate` handler and tool-call auth pauses (auth/host-auth.ts). */
  auth: HostAuth;
  /** Built-in OAuth-protected servers (config `"builtin": "oauth-demo"`), by server id. */
  protectedServers: Map<string, ProtectedServer>;
  /** Starts every enabled server; resolves when each is ready or failed. */
  startServers(): Promise<void>;
  /**
   * Test/ops hook: terminates every AHP WebSocket and refuses new upgrades (their socket is destroyed)
   * until `restartWebSocket()`. HTTP keeps working. Resolves once every socket has closed.
   */
  killWebSocket(): Promise<void>;
  /** Test/ops hook: accepts WebSocket upgrades on the same URL again after `killWebSocket()`. */
  restartWebSocket(): void;
  /** Test hook: AHP WebSockets open now, and accepted since the start (e.g. one shared by every tab in worker mode). */
  webSockets(): { open: number; accepted: number };
  /** Stops every server (their processes exit), closes connections and the HTTP server. */
  close(): Promise<void>;
}

export const SESSION_URI = 'ahp-session:/playground';
export const CHAT_URI = 'ahp-chat:/playground-main';
const WS_PATH = '/ahp';
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Same-origin WebSocket upgrades, plus the origins named with `--allow-origin`, so other web sites cannot drive the
 * local servers.
 */
function allowedOrigin(req: http.IncomingMessage, bindHost: string, extra: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (!origin) return true; // not a browser (Node clients, tests)
  if (extra.has(origin)) return true;
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
  const extraOrigins = new Set((options.allowOrigins ?? []).map((o) => new URL(o).origin));
  log('Bundling the elements for the page (esbuild)…');
  const [loadedConfig, elementsBundle] = await Promise.all([
    options.config ?? loadConfig(options.configPath ?? DEFAULT_CONFIG_PATH),
    bundleElements(),
  ]);
  const builtins = await startBuiltinServers(loadedConfig);
  const config = builtins.config;

  const httpServer = http.createServer();
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 4173, bindHost, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  httpServer.on('error', (err) => log(`[http] server error: ${err.message}`));
  const { port } = httpServer.address() as AddressInfo;
  const hostPart = bindHost.includes(':') ? `[${bindHost}]` : bindHost;
  const url = `http://${hostPart}:${port}/`;
  const wsUrl = `ws://${hostPart}:${port}${WS_PATH}`;

  const host = new HostCore({
    serverInfo: { name: 'ahp-elements playground', version: '0.1.0' },
    // The root channel: what other AHP tools discover, and what <ahp-session url> without a session opens.
    agents: [{ provider: 'ahp-elements-playground', displayName: 'Playground agent', description: 'A scripted agent that calls the configured MCP servers', models: [] }],
    defaultSession: SESSION_URI,
    ...(options.actionLogLimit !== undefined && { actionLogLimit: options.actionLogLimit }),
    ...(options.limits !== undefined && { limits: options.limits }),
    ...(options.log !== undefined && { log: (message: string, detail?: unknown) => log(`[ahp host] ${message}${detail === undefined ? '' : ` ${String(detail)}`}`) }),
  });
  const apps = await startPlaygroundApps({ config, bindHost, pageUrl: url, extraPageOrigins: [...extraOrigins] }).catch(async (err: unknown) => {
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    throw err;
  });
  host.createSession(SESSION_URI, playgroundSessionState(config, url, apps.serverMeta));
  host.createChat(SESSION_URI, CHAT_URI, { title: 'Main chat' });
  host.dispatchServerAction(SESSION_URI, { type: 'session/defaultChatChanged', defaultChat: CHAT_URI });
  let workerBundle: Promise<string> | undefined;
  const routes = createRequestHandler({
    elementsBundle,
    workerBundle: () => (workerBundle ??= bundleElements(WORKER_ENTRY)),
    iconFiles: iconFiles(config),
    playgroundInfo: { wsUrl, sessionUri: SESSION_URI, ...pageInfo(config) },
    corsOrigins: extraOrigins,
  });
  const authRoutes = await createAuthRoutes();
  httpServer.on('request', (req, res) => apps.route(req, res) || authRoutes(req, res) || routes(req, res));
  const frameLimit = options.maxFrameBytes !== undefined ? { maxFrameBytes: options.maxFrameBytes } : {};
  const wss = new WebSocketServer({
    ...webSocketServerOptions(frameLimit),
    noServer: true,
    path: WS_PATH,
    verifyClient: ({ req }: { req: http.IncomingMessage }) => allowedOrigin(req, bindHost, extraOrigins),
  });
  attachWebSocketServer(host, wss, { ...frameLimit, log: (line) => log(`[ahp] ${line}`) });
  // Upgrades are routed by hand so killWebSocket() can refuse them while the HTTP side stays up.
  let acceptingUpgrades = true;
  let acceptedSockets = 0;
  httpServer.on('upgrade', (req, socket, head) => {
    // A reset during the handshake must not take the process down.
    socket.on('error', (err) => log(`[ahp] upgrade socket error: ${err.message}`));
    if (!acceptingUpgrades) return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      acceptedSockets++;
      wss.emit('connection', ws, req);
    });
  });

  const servers = new Map(
    config.servers.map((s) => [s.id, new McpServerRuntime(s, { onStderrLine: (line) => log(`[${s.id}] ${line}`) })] as const),
  );
  for (const rt of servers.values()) {
    rt.onStateChange((state) => log(`${rt.id}: ${state.kind}${state.kind === 'error' ? ` (${state.error.message.split('\n')[0]})` : ''}`));
  }
  const lifecycle: ServerLifecycle = driveServers(host, SESSION_URI, servers);
  const stopMcpChannels = serveMcpChannels(host, servers);
  const auth = installHostAuth(host, SESSION_URI, servers);
  const agent = startAgent({ host, sessionUri: SESSION_URI, servers, log, toolAuth: auth });
  if (options.autoStart !== false) {
    const enabled = config.servers.filter((s) => s.enabled).length;
    log(`Starting ${enabled} MCP server${enabled === 1 ? '' : 's'}…`);
    void lifecycle.startEnabled();
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    wsUrl,
    sessionUri: SESSION_URI,
    chatUri: CHAT_URI,
    agent,
    host,
    apps,
    servers,
    auth,
    protectedServers: builtins.protectedServers,
    startServers: () => lifecycle.startEnabled(),
    webSockets: () => ({ open: [...wss.clients].filter((ws) => ws.readyState === ws.OPEN).length, accepted: acceptedSockets }),
    async killWebSocket() {
      acceptingUpgrades = false;
      const sockets = [...wss.clients];
      const closed = sockets.map((ws) => (ws.readyState === ws.CLOSED ? undefined : once(ws, 'close')));
      for (const ws of sockets) ws.terminate();
      await Promise.all(closed);
    },
    restartWebSocket() {
      acceptingUpgrades = true;
    },
    close() {
      closing ??= (async () => {
        lifecycle.dispose();
        stopMcpChannels();
        agent.dispose();
        auth.dispose();
        await Promise.all([...servers.values()].map((rt) => rt.stop()));
        host.close();
        acceptingUpgrades = false;
        for (const client of wss.clients) client.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        httpServer.closeAllConnections();
        await Promise.all([new Promise<void>((resolve) => httpServer.close(() => resolve())), apps.close(), builtins.close()]);
      })();
      return closing;
    },
  };
}

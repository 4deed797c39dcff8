// The client under test for `@modelcontextprotocol/conformance client` auth scenarios (run with `node --import tsx`).
// Host side: the playground's host pieces (HostCore, McpServerRuntime over Streamable HTTP, server lifecycle, the
// host auth mapping, the scripted agent) with the scenario's server as one http server. Client side: an AHP client over
// WebSocket that reacts to authRequired / toolAuthentication state with the browser OAuth driver (src/auth `authorize`)
// in popup mode, the popup being a headless stand-in that follows the authorization server's redirects.
// Usage (by the conformance CLI): node --import tsx test/conformance/client.mjs <server-url>
import { randomUUID } from 'node:crypto';
import WebSocket, { WebSocketServer } from 'ws';
import { HostCore, attachWebSocket } from '../../src/host.ts';
import { connectSession } from '../../src/connection/connect-session.ts';
import { selectMcpServer } from '../../src/store/index.ts';
import { authorize } from '../../src/auth/authorize.ts';
import { CALLBACK_MESSAGE } from '../../src/auth/callback.ts';
import { memoryRegistrationStore, memoryTokenStore } from '../../src/auth/stores.ts';
import { parseConfig } from '../../examples/playground/config.ts';
import { McpServerRuntime } from '../../examples/playground/mcp-runtime.ts';
import { driveServers } from '../../examples/playground/server-lifecycle.ts';
import { playgroundSessionState } from '../../examples/playground/session-state.ts';
import { installHostAuth } from '../../examples/playground/auth/host-auth.ts';
import { completeAuthorizationHeadlessly } from '../fixtures/auth/headless-browser.ts';
import { startAgent } from '../../examples/playground/agent/agent.ts';

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const SESSION = 'ahp-session:/conformance';
const CHAT = 'ahp-chat:/conformance';
const REDIRECT_URI = 'http://127.0.0.1:1/oauth/callback';
/** The scenario for Client ID Metadata Documents expects this URL as client_id. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Authorization attempts per resource before the client gives up (scope-retry-limit). */
const MAX_ATTEMPTS = 3;
const log = (line) => process.stderr.write(`[ahp-conformance] ${line}\n`);

// The driver's popup flow listens for window messages; give Node a global event target for them.
if (typeof globalThis.addEventListener !== 'function') {
  const target = new EventTarget();
  globalThis.addEventListener = target.addEventListener.bind(target);
  globalThis.removeEventListener = target.removeEventListener.bind(target);
  globalThis.dispatchEvent = target.dispatchEvent.bind(target);
}

/** A stand-in for the popup window: navigating it walks the authorization request and posts the callback like callback.html. */
function headlessPopup() {
  const popup = {
    closed: false,
    close() {
      popup.closed = true;
    },
    location: {},
  };
  Object.defineProperty(popup.location, 'href', {
    set(url) {
      completeAuthorizationHeadlessly(url, { redirectUri: REDIRECT_URI }).then(
        (params) => {
          const event = new Event('message');
          Object.assign(event, { source: popup, origin: new URL(REDIRECT_URI).origin, data: { type: CALLBACK_MESSAGE, ...Object.fromEntries(params) } });
          globalThis.dispatchEvent(event);
        },
        (err) => {
          log(`authorization page failed: ${err.message}`);
          popup.closed = true;
        },
      );
    },
  });
  return popup;
}

function until(what, read, ms = 20_000) {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms;
    const tick = () => {
      const v = read();
      if (v) return resolve(v);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

async function main() {
  // ---- host side (the playground's pieces) ----
  // Pre-registered credentials (scenario context) are host configuration: the host advertises them as `oauthClient`.
  const oauthClient = context.client_id ? { clientId: context.client_id, ...(context.client_secret && { clientSecret: context.client_secret }) } : undefined;
  const config = parseConfig({ servers: [{ id: 'server', name: 'Conformance server', transport: 'http', url: serverUrl, ...(oauthClient && { oauthClient }) }] });
  const host = new HostCore({ serverInfo: { name: 'ahp-elements conformance host', version: '0.1.0' } });
  host.createSession(SESSION, playgroundSessionState(config, 'http://127.0.0.1/'));
  host.createChat(SESSION, CHAT, { title: 'Conformance' });
  const servers = new Map(config.servers.map((s) => [s.id, new McpServerRuntime(s)]));
  const lifecycle = driveServers(host, SESSION, servers);
  const auth = installHostAuth(host, SESSION, servers);
  const agent = startAgent({ host, sessionUri: SESSION, servers, toolAuth: auth, delayMs: 0, log });
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (socket) => attachWebSocket(host, socket));
  await new Promise((r) => wss.once('listening', r));

  // ---- client side (what a page with <ahp-session> does) ----
  const conn = connectSession({ url: `ws://127.0.0.1:${wss.address().port}`, session: SESSION, WebSocket });
  await conn.ready;
  conn.store.watchChat(CHAT);
  const tokenStore = memoryTokenStore();
  const registrationStore = memoryRegistrationStore();
  const attempts = new Map();
  let gaveUp;
  const running = new Set();
  const signIn = (requirement, key) => {
    if (running.has(key)) return;
    const resource = requirement.resource.resource;
    const n = (attempts.get(resource) ?? 0) + 1;
    if (n > MAX_ATTEMPTS) {
      gaveUp ??= `gave up after ${MAX_ATTEMPTS} authorization attempts for ${resource}`;
      return;
    }
    attempts.set(resource, n);
    running.add(key);
    log(`authorize #${n} (${requirement.reason}, scopes ${requirement.requiredScopes?.join(' ') ?? '-'}${requirement.oauthClient ? ', pre-registered client' : ''})`);
    authorize(requirement, {
      client: conn.client,
      redirectUri: REDIRECT_URI,
      popup: headlessPopup(),
      clientName: 'ahp-elements conformance client',
      clientMetadataUrl: CLIENT_METADATA_URL,
      tokenStore,
      registrationStore,
    })
      .catch((err) => {
        gaveUp ??= `authorization failed: ${err.code ?? ''} ${err.message}`;
      })
      .finally(() => running.delete(key));
  };
  let lastServerState;
  let lastEntries;
  const react = () => {
    const state = conn.store.getState();
    const server = selectMcpServer(state, 'server')?.server.state;
    if (server !== lastServerState) {
      lastServerState = server;
      if (server?.kind === 'authRequired') signIn(server, `server:${JSON.stringify(server)}`);
    }
    if (state?.inputNeeded !== lastEntries) {
      lastEntries = state?.inputNeeded;
      for (const entry of state?.inputNeeded ?? []) {
        if (entry.kind !== 'toolAuthentication') continue;
        if ((attempts.get(entry.toolCall.auth.resource.resource) ?? 0) >= MAX_ATTEMPTS) {
          conn.store.dispatch(
            { type: 'chat/toolCallComplete', turnId: entry.turnId, toolCallId: entry.toolCall.toolCallId, result: { success: false, pastTenseMessage: 'Cancelled', error: { message: 'too many authorization attempts', code: 'cancelled' } } },
            entry.chat,
          );
          gaveUp ??= 'cancelled the tool call after too many authorization attempts';
        } else signIn(entry.toolCall.auth, `tool:${entry.id}:${JSON.stringify(entry.toolCall.auth)}`);
      }
    }
  };
  conn.store.subscribe(react);
  react();

  const close = async () => {
    conn.close();
    agent.dispose();
    auth.dispose();
    lifecycle.dispose();
    await Promise.all([...servers.values()].map((rt) => rt.stop()));
    host.close();
    await new Promise((r) => wss.close(() => r()));
  };

  try {
    void lifecycle.startEnabled();
    const serverState = () => selectMcpServer(conn.store.getState(), 'server')?.server.state;
    const ready = () => until('the server to be ready', () => gaveUp ?? (serverState()?.kind === 'ready' || serverState()?.kind === 'error'));
    const failIfDone = (what) => {
      if (gaveUp) throw new Error(gaveUp);
      if (serverState()?.kind === 'error') throw new Error(`server error: ${serverState().error.message}`);
      return what;
    };
    // A tool call through the agent, as a user would type it; tools/list and tools/call may each need (more) auth.
    for (let round = 0; ; round++) {
      await ready();
      failIfDone();
      const turnId = randomUUID();
      conn.store.dispatch({ type: 'chat/turnStarted', turnId, startedAt: new Date().toISOString(), message: { text: '/call server test-tool {}', origin: { kind: 'user' } } }, CHAT);
      const turn = await until('the turn to end', () => conn.store.getChatState(CHAT)?.turns.find((t) => t.id === turnId));
      const call = turn.responseParts.find((p) => p.kind === 'toolCall')?.toolCall;
      if (call?.status === 'completed' && call.success) {
        log(`test-tool answered: ${JSON.stringify(call.content)}`);
        break;
      }
      failIfDone();
      // Listing the tools met an auth challenge: the server is (or was) in authRequired; try again once it is ready.
      if (round >= MAX_ATTEMPTS) throw new Error(`the tool call did not succeed: ${JSON.stringify(turn.responseParts).slice(0, 500)}`);
    }
  } finally {
    await close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    log(`${scenario}: ${err.message}`);
    process.exit(1);
  },
);

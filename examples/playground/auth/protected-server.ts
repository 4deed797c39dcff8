/**
 * The playground's OAuth-protected MCP server (Streamable HTTP) and its own authorization server, each on its own
 * loopback port: RFC 9728 protected-resource metadata, RFC 8414 discovery, RFC 7591 registration, a consent page,
 * authorization code + PKCE, refresh tokens, short-lived tokens, and a tool that needs an extra scope.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { PlaygroundOAuthProvider } from './oauth-provider.js';

/** Scope every token carries; enough for `whoami`. */
export const BASE_SCOPE = 'tools:read';
/** The extra scope `secret` needs (step-up). */
export const SECRET_SCOPE = 'secrets:read';

export interface ProtectedServerOptions {
  /** Access token lifetime in seconds; default 60. */
  tokenLifetimeSeconds?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
}

export interface ProtectedServer {
  /** The MCP endpoint (Streamable HTTP); also the canonical resource identifier. */
  mcpUrl: string;
  /** The authorization server's issuer. */
  issuer: string;
  /** The RFC 9728 metadata URL named in `WWW-Authenticate`. */
  resourceMetadataUrl: string;
  provider: PlaygroundOAuthProvider;
  close(): Promise<void>;
}

const MCP_PATH = '/mcp';
const CONSENT_PATH = '/consent';

async function listen(app: express.Express, host: string): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const cors = (_req: Request, res: Response, next: NextFunction) => {
  res.set('Access-Control-Allow-Origin', '*');
  res.set('Access-Control-Allow-Headers', 'authorization, content-type, mcp-protocol-version, mcp-session-id');
  res.set('Access-Control-Expose-Headers', 'www-authenticate, mcp-session-id');
  if (_req.method === 'OPTIONS') return void res.status(204).end();
  next();
};

/** Names of the tools a JSON-RPC body (single or batch) calls. */
function calledTools(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    const msg = m as { method?: unknown; params?: { name?: unknown } } | null;
    return msg?.method === 'tools/call' && typeof msg.params?.name === 'string' ? [msg.params.name] : [];
  });
}

function mcpServerFor(auth: AuthInfo | undefined): McpServer {
  const server = new McpServer({ name: 'playground-protected', version: '0.1.0' });
  server.registerTool('whoami', { title: 'Who am I', description: `Tells which client and scopes the token carries (needs ${BASE_SCOPE}).` }, async () => ({
    content: [{ type: 'text', text: `client ${auth?.clientId ?? '?'} with scopes: ${auth?.scopes.join(' ') ?? ''}` }],
    structuredContent: { clientId: auth?.clientId ?? null, scopes: auth?.scopes ?? [] },
  }));
  server.registerTool('secret', { title: 'Read the secret', description: `Reads a secret (needs ${SECRET_SCOPE}).` }, async () => ({
    content: [{ type: 'text', text: 'The secret is: swordfish' }],
  }));
  return server;
}

/** Starts both servers on free loopback ports. */
export async function startProtectedServer(options: ProtectedServerOptions = {}): Promise<ProtectedServer> {
  const bindHost = options.host ?? '127.0.0.1';
  const provider = new PlaygroundOAuthProvider({
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 60,
    scopesSupported: [BASE_SCOPE, SECRET_SCOPE],
    defaultScopes: [BASE_SCOPE],
    consentPath: CONSENT_PATH,
  });

  // Authorization server: the SDK's router (metadata, register, authorize, token, revoke) + our consent form.
  const asApp = express();
  asApp.disable('x-powered-by');
  const as = await listen(asApp, bindHost);
  const noLimit = { rateLimit: false as const };
  asApp.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(`${as.origin}/`),
      scopesSupported: [BASE_SCOPE, SECRET_SCOPE],
      authorizationOptions: noLimit,
      tokenOptions: noLimit,
      clientRegistrationOptions: noLimit,
      revocationOptions: noLimit,
    }),
  );
  asApp.post(CONSENT_PATH, express.urlencoded({ extended: false }), (req, res) => {
    const body = req.body as { consent?: unknown; decision?: unknown };
    const target = typeof body.consent === 'string' ? provider.decide(body.consent, body.decision === 'allow') : undefined;
    if (!target) return void res.status(400).type('text').send('This consent request is unknown or has expired. Start the sign-in again.');
    res.redirect(303, target);
  });

  // Resource server: protected-resource metadata + the MCP endpoint behind bearer auth.
  const rsApp = express();
  rsApp.disable('x-powered-by');
  const rs = await listen(rsApp, bindHost);
  const mcpUrl = `${rs.origin}${MCP_PATH}`;
  const resourceMetadataUrl = `${rs.origin}/.well-known/oauth-protected-resource${MCP_PATH}`;
  const metadata = {
    resource: mcpUrl,
    resource_name: 'Playground protected MCP server',
    authorization_servers: [`${as.origin}/`],
    scopes_supported: [BASE_SCOPE, SECRET_SCOPE],
    bearer_methods_supported: ['header'],
  };
  rsApp.use(cors);
  for (const p of ['/.well-known/oauth-protected-resource', `/.well-known/oauth-protected-resource${MCP_PATH}`]) {
    rsApp.get(p, (_req, res) => void res.json(metadata));
  }
  const bearer = requireBearerAuth({ verifier: provider, requiredScopes: [BASE_SCOPE], resourceMetadataUrl, expectedResource: new URL(mcpUrl) });
  const stepUp = (req: Request, res: Response, next: NextFunction) => {
    const scopes = req.auth?.scopes ?? [];
    if (calledTools(req.body).includes('secret') && !scopes.includes(SECRET_SCOPE)) {
      const description = `The secret tool needs the ${SECRET_SCOPE} scope`;
      res.set(
        'WWW-Authenticate',
        `Bearer error="insufficient_scope", scope="${BASE_SCOPE} ${SECRET_SCOPE}", resource_metadata="${resourceMetadataUrl}", error_description="${description}"`,
      );
      return void res.status(403).json({ error: 'insufficient_scope', error_description: description });
    }
    next();
  };
  rsApp.all(MCP_PATH, express.json(), bearer, stepUp, async (req, res) => {
    // Stateless: one server + transport per request.
    const server = mcpServerFor(req.auth);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  return {
    mcpUrl,
    issuer: `${as.origin}/`,
    resourceMetadataUrl,
    provider,
    close: async () => {
      await Promise.all([closeServer(as.server), closeServer(rs.server)]);
    },
  };
}

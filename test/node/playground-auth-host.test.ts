// AHP authentication through the playground host: a client over the WebSocket sees authRequired / auth-required
// state, runs OAuth headlessly against the playground's own authorization server (plain fetch), and authenticates.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { connectSession, type SessionConnection } from '../../src/connection/connect-session.js';
import {
  SessionStatus,
  type ChatState,
  type McpAuthRequirement,
  type McpServerState,
  type ResponsePart,
  type ToolCallState,
  type Turn,
} from '../../src/protocol/index.js';
import { selectMcpServer } from '../../src/store/index.js';
import { parseConfig } from '../../examples/playground/config.js';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import { completeAuthorizationHeadlessly } from '../fixtures/auth/headless-browser.js';

const WAIT_MS = 15_000;
const REDIRECT = 'http://127.0.0.1:9/callback';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const b64url = (b: Buffer) => b.toString('base64url');

async function until<T>(what: string, read: () => T | undefined | false, now: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; now: ${now()}`);
    await sleep(15);
  }
}

const toolCalls = (parts: readonly ResponsePart[] | undefined): ToolCallState[] => (parts ?? []).flatMap((p) => (p.kind === 'toolCall' ? [p.toolCall] : []));
const textOf = (tc: ToolCallState | undefined): string =>
  ((tc as { content?: { type: string; text?: string }[] } | undefined)?.content ?? []).flatMap((c) => (c.type === 'text' ? [c.text ?? ''] : [])).join('\n');

interface Tokens {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
}

/** A headless OAuth client for the playground's AS: DCR once, then code + PKCE flows and refreshes. */
class HeadlessOAuth {
  private clientId: string | undefined;
  private meta: Record<string, string> | undefined;
  refreshToken: string | undefined;

  private async metadata(req: McpAuthRequirement) {
    const issuer = req.resource.authorization_servers?.[0];
    assert.ok(issuer, 'the requirement names an authorization server');
    this.meta ??= (await (await fetch(new URL('/.well-known/oauth-authorization-server', issuer))).json()) as Record<string, string>;
    if (!this.clientId) {
      const res = await fetch(this.meta.registration_endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'host test' }),
      });
      this.clientId = ((await res.json()) as { client_id: string }).client_id;
    }
    return { meta: this.meta, clientId: this.clientId };
  }

  async signIn(req: McpAuthRequirement, scopes = req.requiredScopes): Promise<Tokens> {
    const { meta, clientId } = await this.metadata(req);
    const verifier = b64url(randomBytes(32));
    const url = new URL(meta.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: b64url(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
      state: 's',
      resource: req.resource.resource,
      ...(scopes && { scope: scopes.join(' ') }),
    }).toString();
    const params = await completeAuthorizationHeadlessly(url.href, { redirectUri: REDIRECT });
    return this.token({ grant_type: 'authorization_code', code: params.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, resource: req.resource.resource });
  }

  async refresh(req: McpAuthRequirement): Promise<Tokens> {
    const { clientId } = await this.metadata(req);
    return this.token({ grant_type: 'refresh_token', refresh_token: this.refreshToken!, client_id: clientId });
  }

  private async token(body: Record<string, string>): Promise<Tokens> {
    const res = await fetch(this.meta!.token_endpoint!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });
    assert.equal(res.status, 200, await res.clone().text());
    const tokens = (await res.json()) as Tokens;
    this.refreshToken = tokens.refresh_token;
    return tokens;
  }
}

describe('playground host auth mapping (authRequired, authenticate, step-up, expiry)', () => {
  let playground: Playground;
  let conn: SessionConnection;
  const oauth = new HeadlessOAuth();
  const seen: McpServerState['kind'][] = [];

  const server = () => selectMcpServer(conn.store.getState(), 'protected')?.server;
  const chatState = (): ChatState | undefined => conn.store.getChatState(playground.chatUri);
  const describeChat = () => JSON.stringify(chatState()?.activeTurn ?? chatState()?.turns.at(-1)).slice(0, 1200);
  const authenticate = (resource: string, t: Tokens) =>
    conn.client.authenticate({ resource, token: t.access_token, ...(t.expires_in && { expiresIn: t.expires_in }), ...(t.scope && { scopes: t.scope.split(' ') }) });
  const send = (text: string) => {
    const turnId = randomUUID();
    conn.store.dispatch({ type: 'chat/turnStarted', turnId, startedAt: new Date().toISOString(), message: { text, origin: { kind: 'user' } } }, playground.chatUri);
    return turnId;
  };
  const ended = (turnId: string): Promise<Turn> => until(`turn ${turnId} to end`, () => chatState()?.turns.find((t) => t.id === turnId), describeChat);
  const authRequiredCall = (turnId: string) =>
    until('a tool call in auth-required', () => {
      const turn = chatState()?.activeTurn;
      return turn?.id === turnId ? toolCalls(turn.responseParts).find((tc) => tc.status === 'auth-required') : undefined;
    }, describeChat);

  before(async () => {
    const config = parseConfig({ servers: [{ id: 'protected', name: 'Protected', transport: 'http', builtin: 'oauth-demo', tokenLifetimeSeconds: 60 }] });
    playground = await startPlayground({ port: 0, config });
    conn = connectSession({ url: playground.wsUrl, session: playground.sessionUri, WebSocket: WebSocket as never });
    await conn.ready;
    conn.store.subscribeMcpServer('protected', () => {
      const kind = server()?.state.kind;
      if (kind && seen.at(-1) !== kind) seen.push(kind);
    });
    conn.store.watchChat(playground.chatUri);
    await until('the main chat', () => chatState());
  });
  after(async () => {
    conn?.close();
    await playground?.close();
  });

  it('a 401 at initialize becomes authRequired (required) with the fetched protected-resource metadata and the challenge scopes', async () => {
    const state = await until('authRequired', () => (server()?.state.kind === 'authRequired' ? server()!.state : undefined), () => JSON.stringify(server()?.state));
    assert.equal(state.kind, 'authRequired');
    if (state.kind !== 'authRequired') return;
    const ps = playground.protectedServers.get('protected')!;
    assert.equal(state.reason, 'required');
    assert.equal(state.resource.resource, ps.mcpUrl);
    assert.deepEqual(state.resource.authorization_servers, [ps.issuer]);
    assert.deepEqual(state.resource.scopes_supported, ['tools:read', 'secrets:read']);
    assert.deepEqual(state.requiredScopes, ['tools:read']);
    // The demo server explains itself and its token lifetime instead of the raw "Missing Authorization header".
    assert.match(state.description ?? '', /demo OAuth server.*\d+ s/);
  });

  it('authenticate with an unknown resource fails with -32602 and says why', async () => {
    await assert.rejects(conn.client.authenticate({ resource: 'https://elsewhere.example/mcp', token: 't' }), (err: Error & { code?: number }) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /Unknown resource "https:\/\/elsewhere\.example\/mcp".*advertised: http:\/\/127\.0\.0\.1:\d+\/mcp/);
      return true;
    });
  });

  it('a token the server turns down: -32007 with the resource it still wants; the server stays in authRequired (required)', async () => {
    const state = server()!.state as McpAuthRequirement & { kind: 'authRequired' };
    await assert.rejects(conn.client.authenticate({ resource: state.resource.resource, token: 'not-a-token' }), (err: Error & { code?: number; data?: { resources?: { resource?: string }[] } }) => {
      assert.equal(err.code, -32007);
      assert.match(err.message, /refused the token/);
      assert.equal(err.data?.resources?.[0]?.resource, state.resource.resource);
      return true;
    });
    const after = await until('authRequired again', () => (server()?.state.kind === 'authRequired' ? server()!.state : undefined));
    assert.equal(after.kind === 'authRequired' && after.reason, 'required', 'a token that never worked did not expire');
  });

  it('authenticate applies the token: authRequired → starting → ready, and tools work', async () => {
    const state = server()!.state as McpAuthRequirement & { kind: 'authRequired' };
    seen.length = 0;
    await authenticate(state.resource.resource, await oauth.signIn(state));
    await until('ready', () => server()?.state.kind === 'ready', () => JSON.stringify(server()?.state));
    assert.deepEqual(seen, ['starting', 'ready']);
    const turn = await ended(send('/call protected whoami {}'));
    const [tc] = toolCalls(turn.responseParts);
    assert.equal(tc?.status, 'completed', describeChat());
    assert.match(textOf(tc), /scopes: tools:read/);
  });

  it('a 403 insufficient_scope pauses the call in auth-required with an inputNeeded entry; authenticate resumes it to a real result', async () => {
    const turnId = send('/call protected secret {}');
    const tc = await authRequiredCall(turnId);
    if (tc.status !== 'auth-required') return;
    assert.equal(tc.auth.reason, 'insufficientScope');
    assert.deepEqual(tc.auth.requiredScopes, ['tools:read', 'secrets:read']);
    assert.deepEqual(tc.contributor, { kind: 'mcp', customizationId: 'protected' });
    const entry = await until('the toolAuthentication entry', () => conn.store.getState()?.inputNeeded?.find((e) => e.kind === 'toolAuthentication'));
    assert.equal(entry.chat, playground.chatUri);
    assert.equal(entry.kind === 'toolAuthentication' && entry.toolCall.toolCallId, tc.toolCallId);
    assert.equal(conn.store.getState()!.status & SessionStatus.InputNeeded, SessionStatus.InputNeeded, 'the session shows InputNeeded');
    assert.equal(server()?.state.kind, 'ready', 'a step-up does not block the server');

    await authenticate(tc.auth.resource.resource, await oauth.signIn(tc.auth));
    const turn = await ended(turnId);
    const done = toolCalls(turn.responseParts)[0];
    assert.equal(done?.status, 'completed', describeChat());
    assert.equal((done as { success?: boolean }).success, true);
    assert.match(textOf(done), /swordfish/);
    assert.equal(conn.store.getState()?.inputNeeded?.length ?? 0, 0, 'the entry is gone');
    assert.notEqual(conn.store.getState()!.status & SessionStatus.InputNeeded, SessionStatus.InputNeeded, 'InputNeeded cleared');
  });

  it('cancelling a paused call (failed toolCallComplete) completes it with the failure and the turn ends', async () => {
    // Back to a token without secrets:read so the step-up happens again.
    const ps = playground.protectedServers.get('protected')!;
    const req = { reason: 'required', resource: { resource: ps.mcpUrl, authorization_servers: [ps.issuer] }, requiredScopes: ['tools:read'] } as McpAuthRequirement;
    await authenticate(req.resource.resource, await oauth.signIn(req));
    const turnId = send('/call protected secret {}');
    const tc = await authRequiredCall(turnId);
    conn.store.dispatch(
      { type: 'chat/toolCallComplete', turnId, toolCallId: tc.toolCallId, result: { success: false, pastTenseMessage: 'Cancelled', error: { message: 'The user cancelled the sign-in', code: 'cancelled' } } },
      playground.chatUri,
    );
    const turn = await ended(turnId);
    assert.equal(turn.state, 'complete');
    const done = toolCalls(turn.responseParts)[0] as ToolCallState & { success?: boolean; error?: { code?: string } };
    assert.equal(done.status, 'completed');
    assert.equal(done.success, false);
    assert.equal(done.error?.code, 'cancelled');
    await until('the entry removed', () => (conn.store.getState()?.inputNeeded?.length ?? 0) === 0);
  });

  it('an expired token moves the ready server to authRequired (expired) on its own; a refreshed token makes it ready again', async () => {
    const ps = playground.protectedServers.get('protected')!;
    const req = { reason: 'required', resource: { resource: ps.mcpUrl, authorization_servers: [ps.issuer] }, requiredScopes: ['tools:read'] } as McpAuthRequirement;
    const tokens = await oauth.signIn(req);
    // Tell the host the token has one second left; the AS forgets it at the same time.
    await conn.client.authenticate({ resource: ps.mcpUrl, token: tokens.access_token, expiresIn: 1, scopes: ['tools:read'] });
    await until('ready', () => server()?.state.kind === 'ready');
    ps.provider.expireAccessTokens();
    const state = await until('authRequired expired', () => (server()?.state.kind === 'authRequired' ? server()!.state : undefined), () => JSON.stringify(server()?.state));
    assert.equal(state.kind === 'authRequired' && state.reason, 'expired');
    assert.equal(state.kind === 'authRequired' && state.resource.resource, ps.mcpUrl);

    await authenticate(ps.mcpUrl, await oauth.refresh(req));
    await until('ready after refresh', () => server()?.state.kind === 'ready', () => JSON.stringify(server()?.state));
  });

  it('stopping the server ends a paused call: the entry goes and the turn does not hang', async () => {
    const turnId = send('/call protected secret {}');
    await authRequiredCall(turnId);
    await until('the toolAuthentication entry', () => conn.store.getState()?.inputNeeded?.find((e) => e.kind === 'toolAuthentication'));
    conn.store.dispatch({ type: 'session/mcpServerStopRequested', id: 'protected' });
    const turn = await ended(turnId);
    assert.equal(turn.state, 'complete');
    assert.notEqual(toolCalls(turn.responseParts)[0]?.status, 'auth-required');
    await until('the entry removed', () => (conn.store.getState()?.inputNeeded?.length ?? 0) === 0);
    conn.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'protected' });
    await until('ready again (the token is kept)', () => server()?.state.kind === 'ready', () => JSON.stringify(server()?.state));
  });

  it('an empty token revokes: the server goes back to authRequired (required)', async () => {
    const ps = playground.protectedServers.get('protected')!;
    await conn.client.authenticate({ resource: ps.mcpUrl, token: '' });
    const state = await until('authRequired', () => (server()?.state.kind === 'authRequired' ? server()!.state : undefined));
    assert.equal(state.kind === 'authRequired' && state.reason, 'required');
  });
});

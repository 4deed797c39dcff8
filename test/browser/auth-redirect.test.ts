import { expect } from '@open-wc/testing';

const asInfo = async (query = ''): Promise<{ issuer: string; log: { path: string }[] }> => (await fetch(`/__test/auth-as.json${query}`, { cache: 'no-store' })).json();
const PAGE = new URL('/test/fixtures/auth/redirect-page.html', location.href).href;
const CALLBACK = new URL('/src/auth/callback.html', location.href).href;
const RESOURCE = 'http://127.0.0.1:2/mcp';

interface PageMessage {
  source: 'redirect-page';
  type: 'authenticate' | 'resumed' | 'error' | 'idle';
  [key: string]: unknown;
}

/** Loads the test page in an iframe and collects what it reports until `until` matches. */
function run(redirectUri: string, issuer: string, until: (m: PageMessage) => boolean): Promise<PageMessage[]> {
  const frame = document.createElement('iframe');
  const messages: PageMessage[] = [];
  const requirement = { reason: 'required', resource: { resource: RESOURCE, authorization_servers: [issuer] }, requiredScopes: ['read'] };
  return new Promise<PageMessage[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out: ${JSON.stringify(messages)}`)), 8000);
    const onMessage = (e: MessageEvent) => {
      if (e.source !== frame.contentWindow || e.data?.source !== 'redirect-page') return;
      messages.push(e.data);
      if (until(e.data)) {
        clearTimeout(timer);
        removeEventListener('message', onMessage);
        resolve(messages);
      }
    };
    addEventListener('message', onMessage);
    frame.src = `${PAGE}#start=${encodeURIComponent(JSON.stringify({ requirement, redirectUri }))}`;
    document.body.append(frame);
  }).finally(() => frame.remove());
}

const done = (m: PageMessage) => m.type === 'resumed' || m.type === 'error';

describe('OAuth full-page redirect flow (in an iframe) against a real authorization server', () => {
  it('resumes after the redirect back to the page itself: token handed over, code removed from the URL, nothing left pending', async () => {
    const { issuer } = await asInfo('?reset');
    const messages = await run(PAGE, issuer, done);
    const auth = messages.find((m) => m.type === 'authenticate')?.params as { resource: string; token: string; scopes: string[]; expiresIn: number };
    expect(auth, JSON.stringify(messages)).to.exist;
    expect(auth.resource).to.equal(RESOURCE);
    expect(auth.token).to.match(/^at-/);
    expect(auth.scopes).to.deep.equal(['read']);
    const resumed = messages.find((m) => m.type === 'resumed')!;
    expect(resumed.url).to.equal(PAGE);
    expect(resumed.pending).to.equal(0);
  });

  it('resumes through the shipped callback page, which returns to the page that started', async () => {
    const { issuer } = await asInfo('?reset');
    const messages = await run(CALLBACK, issuer, done);
    expect(messages.map((m) => m.type), JSON.stringify(messages)).to.deep.equal(['authenticate', 'resumed']);
    expect((messages[1]!.url as string).startsWith(PAGE)).to.be.true;
  });

  it('refuses a tampered state after the redirect and exchanges nothing', async () => {
    const { issuer } = await asInfo(`?reset&behavior=${encodeURIComponent(JSON.stringify({ tamperState: true }))}`);
    const messages = await run(PAGE, issuer, done);
    expect(messages.map((m) => m.type)).to.deep.equal(['error']);
    expect(messages[0]!.code).to.equal('state_mismatch');
    expect((await asInfo()).log.map((l) => l.path)).not.to.include('/token');
    await asInfo('?reset');
  });
});

/** Loads a test page in a frame and collects what it posts (tagged `source`) until it reports `complete` or `error`. */
async function framePageMessages(src: string, source: string, timeoutMs: number): Promise<Record<string, unknown>[]> {
  const frame = document.createElement('iframe');
  const messages: Record<string, unknown>[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out: ${JSON.stringify(messages)}`)), timeoutMs);
    addEventListener('message', function onMessage(e: MessageEvent) {
      if (e.source !== frame.contentWindow || e.data?.source !== source) return;
      messages.push(e.data);
      if (e.data.type === 'complete' || e.data.type === 'error') {
        clearTimeout(timer);
        removeEventListener('message', onMessage);
        resolve();
      }
    });
    frame.src = src;
    document.body.append(frame);
  }).finally(() => frame.remove());
  return messages;
}

describe('<ahp-session auth-mode="redirect">', () => {
  it('leaves for the authorization server and, back on the page, resumes the sign-in by itself', async () => {
    const { issuer } = await asInfo('?reset');
    const messages = await framePageMessages(`/test/fixtures/auth/session-redirect-page.html#issuer=${encodeURIComponent(issuer)}`, 'session-redirect-page', 8000);
    expect(messages.map((m) => m.type), JSON.stringify(messages)).to.deep.equal(['authenticate', 'complete']);
    const params = messages[0]!.params as { resource: string; token: string };
    expect(params.resource).to.equal('http://127.0.0.1:6/mcp');
    expect(params.token).to.match(/^at-/);
    expect(messages[0]!.url).to.equal(new URL('/test/fixtures/auth/session-redirect-page.html', location.href).href);
  });

  it('a confidential oauthClient in the server state: the code is exchanged with its secret after the redirect, and the secret never went to sessionStorage', async () => {
    const page = new URL('/test/fixtures/auth/session-redirect-page.html', location.href).href;
    const oauthClient = { clientId: 'confidential-test-client', clientSecret: 'cs-only-in-the-state' };
    // The authorization server knows the client and refuses its token requests without that secret.
    const { issuer } = await asInfo(`?reset&behavior=${encodeURIComponent(JSON.stringify({ client: { client_id: oauthClient.clientId, client_secret: oauthClient.clientSecret, redirect_uris: [page] } }))}`);
    try {
      const messages = await framePageMessages(`${page}#issuer=${encodeURIComponent(issuer)}&confidential=${encodeURIComponent(JSON.stringify(oauthClient))}`, 'session-redirect-page', 8000);
      expect(messages.map((m) => m.type), JSON.stringify(messages)).to.deep.equal(['authenticate', 'complete']);
      expect((messages[0]!.params as { token: string }).token).to.match(/^at-/);
      const kept = messages[0]!.kept as string;
      expect(kept, 'the pending flow was kept across the redirect').to.contain(oauthClient.clientId);
      expect(kept).not.to.contain(oauthClient.clientSecret);
      const { log } = await asInfo();
      expect(log.map((l) => l.path).filter((p) => !p.includes('well-known'))).to.include('/token');
      expect(log.map((l) => l.path)).not.to.include('/register');
    } finally {
      localStorage.removeItem('test-confidential');
      await asInfo('?reset');
    }
  });
});

describe('<ahp-session worker="shared" auth-mode="redirect">', () => {
  it('leaves for the authorization server and, back on the page, resumes the sign-in: the token reaches the host through the worker', async () => {
    const { issuer } = await asInfo('?reset');
    const info = (await (await fetch('/__test/ahp.json?fresh', { cache: 'no-store' })).json()) as { url: string; session: string; tokens: { resource: string; token: string }[] };
    const resource = 'http://127.0.0.1:7/mcp';
    const action = { type: 'session/mcpServerStateChanged', id: 'alpha', state: { kind: 'authRequired', reason: 'required', resource: { resource, authorization_servers: [issuer] } } };
    await fetch(`/__test/ahp-action.json?session=${encodeURIComponent(info.session)}&action=${encodeURIComponent(JSON.stringify(action))}`);
    const before = info.tokens.length;
    const messages = await framePageMessages(
      `/test/fixtures/auth/session-redirect-worker-page.html#${new URLSearchParams({ url: info.url, session: info.session, click: '' })}`,
      'session-redirect-worker-page',
      15000,
    );
    expect(messages.map((m) => m.type), JSON.stringify(messages)).to.deep.equal(['leaving', 'complete']);
    expect(messages.map((m) => m.mode)).to.deep.equal(['shared', 'shared']);
    const after = (await (await fetch(`/__test/ahp.json?session=${encodeURIComponent(info.session)}`, { cache: 'no-store' })).json()) as typeof info;
    const handed = after.tokens.slice(before);
    expect(handed.map((t) => t.resource)).to.deep.equal([resource]);
    expect(handed[0]!.token).to.match(/^at-/);
  });
});

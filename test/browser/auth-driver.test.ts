import { expect } from '@open-wc/testing';
import { AuthError, authorize, memoryRegistrationStore, memoryTokenStore } from '../../src/auth.js';
import type { McpAuthRequirement } from '../../src/auth.js';
import { withPopupBlocker } from './fixtures/popup-blocker.js';

interface AsInfo {
  issuer: string;
  log: { method: string; path: string; query: Record<string, string>; body: string }[];
}
const asInfo = async (query = ''): Promise<AsInfo> => (await fetch(`/__test/auth-as.json${query}`, { cache: 'no-store' })).json();
const reset = (behavior?: Record<string, unknown>) =>
  asInfo(`?reset${behavior ? `&behavior=${encodeURIComponent(JSON.stringify(behavior))}` : ''}`);

const CALLBACK = new URL('/src/auth/callback.html', location.href).href;
const RESOURCE = 'http://127.0.0.1:1/mcp';

const requirement = (issuer: string, over: Partial<McpAuthRequirement> = {}): McpAuthRequirement => ({
  reason: 'required',
  resource: { resource: RESOURCE, authorization_servers: [issuer], scopes_supported: ['read', 'write'] },
  requiredScopes: ['write'],
  ...over,
});

function recorder() {
  const calls: { resource: string; token: string; expiresIn?: number; scopes?: string[] }[] = [];
  return { calls, client: { authenticate: async (p: (typeof calls)[number]) => void calls.push(p) } };
}

/** Starts the flow from a real click so the popup counts as user-initiated. */
function onClick<T>(run: () => Promise<T>): Promise<T> {
  const button = document.createElement('button');
  document.body.append(button);
  return new Promise<T>((resolve, reject) => {
    button.addEventListener('click', () => run().then(resolve, reject), { once: true });
    button.click();
  }).finally(() => button.remove());
}

async function expectAuthError(p: Promise<unknown>, code: string): Promise<AuthError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(AuthError);
    expect((e as AuthError).code).to.equal(code);
    expect((e as AuthError).message).to.have.length.greaterThan(10);
    return e as AuthError;
  }
  throw new Error(`expected AuthError ${code}, the flow succeeded`);
}

describe('OAuth driver in Chromium against a real authorization server', () => {
  it('popup flow end to end: discovery, registration, PKCE, resource, scopes, callback page, token, authenticate', async () => {
    const { issuer } = await reset();
    const { calls, client } = recorder();
    const tokenStore = memoryTokenStore();
    const opened: Window[] = [];
    const realOpen = window.open;
    window.open = (...args) => {
      const w = realOpen.apply(window, args);
      if (w) opened.push(w);
      return w;
    };
    let result;
    try {
      result = await onClick(() =>
        authorize(requirement(issuer), { client, redirectUri: CALLBACK, registrationStore: memoryRegistrationStore(), tokenStore, clientName: 'wtr' }),
      );
    } finally {
      window.open = realOpen;
    }
    expect(calls).to.have.length(1);
    expect(calls[0]!.resource).to.equal(RESOURCE);
    expect(calls[0]!.token).to.match(/^at-/);
    expect(calls[0]!.scopes).to.deep.equal(['write']);
    expect(Number.isInteger(calls[0]!.expiresIn) && calls[0]!.expiresIn! >= 1 && calls[0]!.expiresIn! <= 60).to.be.true;
    expect(result).to.deep.equal({ resource: RESOURCE, expiresIn: calls[0]!.expiresIn, scopes: ['write'] });
    expect((await tokenStore.get(RESOURCE))?.accessToken).to.equal(calls[0]!.token);

    const { log } = await asInfo();
    const authz = log.find((l) => l.path === '/authorize')!;
    expect(authz.query.code_challenge_method).to.equal('S256');
    expect(authz.query.code_challenge).to.have.length(43);
    expect(authz.query.resource).to.equal(RESOURCE);
    expect(authz.query.scope).to.equal('write');
    expect(authz.query.redirect_uri).to.equal(CALLBACK);
    expect(authz.query.state).to.have.length(43);
    const register = JSON.parse(log.find((l) => l.path === '/register')!.body);
    expect(register.client_name).to.equal('wtr');
    expect(register.token_endpoint_auth_method).to.equal('none');
    const tokenReq = new URLSearchParams(log.find((l) => l.path === '/token')!.body);
    expect(tokenReq.get('code_verifier')).to.have.length(43);
    expect(tokenReq.get('resource')).to.equal(RESOURCE);
    expect(opened).to.have.length(1);
    expect(opened[0]!.closed).to.be.true;
  });

  it('refuses a tampered state: typed error, no token exchange, popup closed', async () => {
    const { issuer } = await reset({ tamperState: true });
    const { calls, client } = recorder();
    await expectAuthError(onClick(() => authorize(requirement(issuer), { client, redirectUri: CALLBACK })), 'state_mismatch');
    expect(calls).to.have.length(0);
    const paths = (await asInfo()).log.map((l) => `${l.method} ${l.path} ${l.body}`);
    expect(paths.filter((p) => p.includes('/token')), paths.join(' | ')).to.deep.equal([]);
  });

  it('an authorization server error becomes a typed error carrying the OAuth error', async () => {
    const { issuer } = await reset({ deny: true });
    const { calls, client } = recorder();
    const err = await expectAuthError(onClick(() => authorize(requirement(issuer), { client, redirectUri: CALLBACK })), 'authorization_denied');
    expect(err.oauthError).to.equal('access_denied');
    expect(err.message).to.contain('The user said no');
    expect(calls).to.have.length(0);
  });

  it('an iss parameter from another issuer is refused', async () => {
    const { issuer } = await reset({ wrongIss: true });
    await expectAuthError(onClick(() => authorize(requirement(issuer), { client: recorder().client, redirectUri: CALLBACK })), 'issuer_mismatch');
  });

  it('a token endpoint error is typed', async () => {
    const { issuer } = await reset({ tokenError: true });
    const err = await expectAuthError(onClick(() => authorize(requirement(issuer), { client: recorder().client, redirectUri: CALLBACK })), 'token_error');
    expect(err.oauthError).to.equal('invalid_grant');
  });

  it('the user closing the popup rejects with popup_closed', async () => {
    const { issuer } = await reset({ authorizeDelayMs: 5000 });
    const { calls, client } = recorder();
    const flow = onClick(() => {
      const popup = window.open('', '_blank', 'popup')!;
      setTimeout(() => popup.close(), 300);
      return authorize(requirement(issuer), { client, redirectUri: CALLBACK, popup });
    });
    await expectAuthError(flow, 'popup_closed');
    expect(calls).to.have.length(0);
    await reset();
  });

  it('discovery against an issuer without metadata fails typed and closes the popup', async () => {
    const { issuer } = await reset();
    let popup: Window | null = null;
    const flow = onClick(() => {
      popup = window.open('', '_blank', 'popup');
      return authorize(requirement(`${issuer}/nowhere`), { client: recorder().client, redirectUri: CALLBACK, popup: popup! });
    });
    await expectAuthError(flow, 'discovery_failed');
    expect(popup!.closed).to.be.true;
  });

  it('a blocked popup is a typed error, and the next attempt is not stuck behind it', async () => {
    const { issuer } = await reset();
    const realOpen = window.open;
    window.open = () => null;
    try {
      await expectAuthError(authorize(requirement(issuer), { client: recorder().client, redirectUri: CALLBACK }), 'popup_blocked');
    } finally {
      window.open = realOpen;
    }
    const { calls, client } = recorder();
    await onClick(() => authorize(requirement(issuer), { client, redirectUri: CALLBACK }));
    expect(calls).to.have.length(1);
  });

  it('expired: the window opens before the first await (under a popup blocker); closed unused when the refresh works, used when it is refused', async () => {
    const { issuer } = await reset();
    const { calls, client } = recorder();
    const opts = { client, redirectUri: CALLBACK, tokenStore: memoryTokenStore(), registrationStore: memoryRegistrationStore() };
    await onClick(() => authorize(requirement(issuer), opts));
    const expired = requirement(issuer, { reason: 'expired' });
    /** authorize() for the expired token from a click, as under a popup blocker; what it opened and refused. */
    const clicked = () =>
      withPopupBlocker(async (blocker) => {
        const button = document.createElement('button');
        document.body.append(button);
        let flow: Promise<unknown> | undefined;
        button.addEventListener('click', () => (flow = authorize(expired, opts)), { once: true });
        blocker.click(button);
        button.remove();
        const openedInClick = blocker.opened.length;
        // Settled before any assertion, so a failure here leaves no flow running into the next test.
        await flow;
        expect(openedInClick, 'windows opened in the click handler').to.equal(1);
        expect(blocker.opened).to.have.length(1);
        expect(blocker.opened[0]!.closed).to.be.true;
        expect(blocker.blocked).to.equal(0);
      });
    await reset();
    await clicked();
    expect(calls).to.have.length(2);
    let { log } = await asInfo();
    expect(log.filter((l) => l.path === '/token').map((l) => new URLSearchParams(l.body).get('grant_type'))).to.deep.equal(['refresh_token']);
    expect(log.some((l) => l.path === '/authorize'), 'the window was never sent to the authorization server').to.be.false;
    await reset({ refreshError: true });
    await clicked();
    expect(calls).to.have.length(3);
    ({ log } = await asInfo());
    expect(log.filter((l) => l.path === '/token').map((l) => new URLSearchParams(l.body).get('grant_type'))).to.deep.equal(['refresh_token', 'authorization_code']);
    expect(log.filter((l) => l.path === '/authorize')).to.have.length(1);
    await reset();
  });

  it('expired, outside any click (a background refresh): no window is tried, so no "pop-up blocked" notice and no blank flash; the refresh works', async () => {
    const { issuer } = await reset();
    const { client } = recorder();
    const opts = { client, redirectUri: CALLBACK, tokenStore: memoryTokenStore(), registrationStore: memoryRegistrationStore() };
    await onClick(() => authorize(requirement(issuer), opts));
    await reset();
    await withPopupBlocker(async (blocker) => {
      await authorize(requirement(issuer, { reason: 'expired' }), opts);
      expect(blocker.blocked, 'window.open calls the blocker refused').to.equal(0);
      expect(blocker.opened).to.have.length(0);
    });
    const { log } = await asInfo();
    expect(log.filter((l) => l.path === '/token').map((l) => new URLSearchParams(l.body).get('grant_type'))).to.deep.equal(['refresh_token']);
    await reset();
  });

  it('a redirect URI on another origin is refused before anything opens', async () => {
    const { issuer } = await reset();
    const elsewhere = new URL('/src/auth/callback.html', (await (await fetch('/__test/env.json')).json()).otherOrigin).href;
    await expectAuthError(onClick(() => authorize(requirement(issuer), { client: recorder().client, redirectUri: elsewhere })), 'bad_redirect_uri');
    expect((await asInfo()).log).to.deep.equal([]);
  });

  it('concurrent requests for one resource share one flow', async () => {
    const { issuer } = await reset();
    const { calls, client } = recorder();
    const [a, b] = await onClick(() => {
      const opts = { client, redirectUri: CALLBACK };
      return Promise.all([authorize(requirement(issuer), opts), authorize(requirement(issuer), opts)]);
    });
    expect(a).to.equal(b);
    expect(calls).to.have.length(1);
  });

  it('concurrent requests for one resource from two clients (two hosts): one flow, each client gets the token, each store keeps it', async () => {
    const { issuer } = await reset();
    const first = recorder();
    const second = recorder();
    const stores = [memoryTokenStore(), memoryTokenStore()];
    const [a, b] = await onClick(() =>
      Promise.all([
        authorize(requirement(issuer), { client: first.client, redirectUri: CALLBACK, tokenStore: stores[0] }),
        authorize(requirement(issuer), { client: second.client, redirectUri: CALLBACK, tokenStore: stores[1] }),
      ]),
    );
    expect(a.resource).to.equal(RESOURCE);
    expect(b.resource).to.equal(RESOURCE);
    expect(first.calls).to.have.length(1);
    expect(second.calls, 'the second client was handed the token too').to.have.length(1);
    expect(second.calls[0]!.token).to.equal(first.calls[0]!.token);
    expect((await stores[1]!.get(RESOURCE))?.accessToken).to.equal(first.calls[0]!.token);
    const { log } = await asInfo();
    expect(log.filter((l) => l.path === '/authorize'), 'one sign-in').to.have.length(1);
  });

  it('a window passed in for a resource whose flow already runs is closed at once (that flow has its own popup)', async () => {
    const { issuer } = await reset();
    const { calls, client } = recorder();
    const opts = { client, redirectUri: CALLBACK };
    let extra: Window | null = null;
    const [a, b] = await onClick(() => {
      const first = authorize(requirement(issuer), opts);
      extra = window.open('', '_blank', 'popup');
      const second = authorize(requirement(issuer), { ...opts, popup: extra! });
      expect(extra!.closed).to.be.true;
      return Promise.all([first, second]);
    });
    expect(a).to.equal(b);
    expect(calls).to.have.length(1);
  });
});

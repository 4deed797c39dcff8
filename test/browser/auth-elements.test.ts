import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../elements/mcp-server/define.js';
import '../../elements/session/define.js';
import type { AhpMcpServer } from '../../elements/mcp-server/mcp-server.js';
import type { AhpSession } from '../../elements/session/session.js';
import type { AhpAuthErrorEvent } from '../../elements/session/events.js';
import type { AhpMcpServerAuthRequestEvent } from '../../elements/mcp-server/events.js';
import type { McpServerAuthRequiredState } from '../../src/protocol/customizations.js';
import { authorize } from '../../src/auth/authorize.js';
import { defaultCallbackUrl } from '../../src/auth/callback-url.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { withPopupBlocker } from './fixtures/popup-blocker.js';
import { FakeStore } from './fixtures/fake-store.js';
import { mcpServer, session } from './fixtures/sessions.js';

type AuthParams = { resource: string; token: string; expiresIn?: number; scopes?: string[] };

/** A FakeStore with a handle that can reach a host: the handle records what `authenticate` receives. */
class AuthStore extends FakeStore {
  readonly handle = new FakeHandle();
  get authenticated(): AuthParams[] {
    return this.handle.authenticated;
  }
}

const asInfo = async (query = ''): Promise<{ issuer: string; log: { path: string; body: string }[] }> => (await fetch(`/__test/auth-as.json${query}`, { cache: 'no-store' })).json();
const RESOURCE = 'http://127.0.0.1:3/mcp';

const authState = (reason: string, issuer = 'https://as.example', extra: Partial<McpServerAuthRequiredState> = {}): McpServerAuthRequiredState => ({
  kind: 'authRequired',
  reason,
  resource: { resource: RESOURCE, authorization_servers: [issuer], scopes_supported: ['read'] },
  ...extra,
});

const part = (el: HTMLElement, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const signIn = (el: AhpMcpServer) => el.shadowRoot!.querySelector<HTMLButtonElement>('button[data-auth]')!;

const CASES = [
  { reason: 'required', heading: 'Sign-in required', button: 'Sign in' },
  { reason: 'expired', heading: 'Session expired', button: 'Sign in again' },
  { reason: 'insufficientScope', heading: 'More access needed', button: 'Grant access' },
  { reason: 'somethingNew', heading: 'Authentication needed', button: 'Sign in' },
];

describe('<ahp-mcp-server> in authRequired', () => {
  for (const c of CASES) {
    it(`${c.reason}: says why, shows description and scopes, one "${c.button}" button that fires ahp-auth-request; accessible`, async () => {
      const state = authState(c.reason, 'https://as.example', { description: 'Token lacks <b>scope</b>', requiredScopes: ['files:write', 'mail'] });
      const store = new FakeStore(session([mcpServer('a', state)]));
      const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>`);
      const panel = part(el, 'auth')!;
      expect(panel.dataset.reason).to.equal(c.reason);
      expect(panel.dataset.known).to.equal(String(c.reason !== 'somethingNew'));
      expect(panel.querySelector('.auth-reason')!.textContent).to.equal(c.heading);
      expect(part(el, 'auth-description')!.textContent).to.equal('Token lacks <b>scope</b>');
      expect([...part(el, 'auth-scopes')!.querySelectorAll('code')].map((x) => x.textContent)).to.deep.equal(['files:write', 'mail']);
      const button = signIn(el);
      expect(button.textContent!.trim()).to.equal(c.button);
      expect(button.getAttribute('aria-label')).to.equal(`${c.button} to Server a`);
      await expect(el).to.be.accessible();

      setTimeout(() => button.click());
      const event = (await oneEvent(el, 'ahp-auth-request')) as unknown as AhpMcpServerAuthRequestEvent;
      expect(event.cancelable && event.bubbles && event.composed).to.be.true;
      const { kind: _kind, ...auth } = state;
      expect(event.detail).to.deep.equal({ kind: 'mcpServer', customizationId: 'a', auth });
      expect(store.dispatched).to.deep.equal([]);
    });
  }

  it('falls back to the resource scopes and leaves out what is missing; no panel in other states', async () => {
    const store = new FakeStore(session([mcpServer('a', authState('required'))]));
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>`);
    expect(part(el, 'auth-description')).to.equal(null);
    expect(part(el, 'auth-scopes')!.textContent).to.equal('read');
    store.setState(session([mcpServer('a', { kind: 'ready' })]));
    await el.updateComplete;
    expect(part(el, 'auth')).to.equal(null);
  });
});

/** One `<ahp-mcp-server>` in `auth` state inside an `<ahp-session>` over an AuthStore (which records authenticate calls). */
async function serverInSession(auth: Parameters<typeof authState>[0], issuer: string) {
  const store = new AuthStore(session([mcpServer('a', authState(auth, issuer))]));
  const root = await fixture<AhpSession>(html`<ahp-session .store=${store} .handle=${store.handle}><ahp-mcp-server server-id="a"></ahp-mcp-server></ahp-session>`);
  const el = root.querySelector('ahp-mcp-server')!;
  await el.updateComplete;
  return { store, root, el };
}

describe('<ahp-session> default ahp-auth-request handler (real popup flow, real authorization server)', () => {
  it('signs in from the server button with the shipped callback page by default: pending, then token to the host', async () => {
    const { issuer } = await asInfo('?reset');
    const { store, root, el } = await serverInSession('required', issuer);
    const started = oneEvent(el, 'ahp-auth-start');
    const completed = oneEvent(el, 'ahp-auth-complete');
    signIn(el).click();
    await started;
    await el.updateComplete;
    expect(signIn(el).getAttribute('aria-disabled')).to.equal('true');
    expect(part(el, 'auth-status')!.dataset.status).to.equal('pending');
    await completed;
    await el.updateComplete;
    expect(store.authenticated).to.have.length(1);
    expect(store.authenticated[0]!.resource).to.equal(RESOURCE);
    expect(store.authenticated[0]!.token).to.match(/^at-/);
    expect(store.authenticated[0]!.scopes).to.deep.equal(['read']);
    expect(part(el, 'auth-status')!.dataset.status).to.equal('idle');
  });

  it('reports a failure as ahp-auth-error at the element that asked (bubbling) and in its status line', async () => {
    const { issuer } = await asInfo(`?reset&behavior=${encodeURIComponent(JSON.stringify({ deny: true }))}`);
    const { store, root, el } = await serverInSession('required', issuer);
    const atSession = oneEvent(root, 'ahp-auth-error');
    signIn(el).click();
    const event = (await atSession) as unknown as AhpAuthErrorEvent;
    expect(event.target).to.equal(el);
    expect(event.detail.error?.code).to.equal('authorization_denied');
    await el.updateComplete;
    const status = part(el, 'auth-status')!;
    expect(status.dataset.status).to.equal('error');
    expect(status.getAttribute('role')).to.equal('status');
    expect(status.textContent).to.contain('The user said no');
    expect(store.authenticated).to.have.length(0);
    await expect(el).to.be.accessible();
    await asInfo('?reset');
  });

  it('expired: the window opens in the click\'s task (a refresh can outlast the user activation); the refresh works, so it is closed unused', async () => {
    // The first test of this block left a token (with a refresh token) for RESOURCE in the default in-memory store.
    const { issuer } = await asInfo('?reset');
    const { store, el } = await serverInSession('expired', issuer);
    await withPopupBlocker(async (blocker) => {
      const completed = oneEvent(el, 'ahp-auth-complete');
      blocker.click(signIn(el));
      await null;
      expect(blocker.opened).to.have.length(1);
      await completed;
      expect(blocker.opened[0]!.closed).to.be.true;
      expect(blocker.blocked).to.equal(0);
    });
    expect(store.authenticated).to.have.length(1);
    expect(store.authenticated[0]!.token).to.match(/^at-/);
    const log: { path: string; body: string }[] = (await (await fetch('/__test/auth-as.json', { cache: 'no-store' })).json()).log;
    expect(log.filter((l) => l.path === '/token').map((l) => new URLSearchParams(l.body).get('grant_type'))).to.deep.equal(['refresh_token']);
    // Never sent to the authorization server: the window stayed blank until it was closed.
    expect(log.some((l) => l.path === '/authorize')).to.be.false;
  });

  it('expired, the refresh token refused: the window opened on the click carries the interactive sign-in (under a popup blocker)', async () => {
    // The test before left a rotated refresh token for RESOURCE; the authorization server now refuses it.
    const { issuer } = await asInfo(`?reset&behavior=${encodeURIComponent(JSON.stringify({ refreshError: true }))}`);
    const { store, el } = await serverInSession('expired', issuer);
    await withPopupBlocker(async (blocker) => {
      const done = Promise.race([oneEvent(el, 'ahp-auth-complete'), oneEvent(el, 'ahp-auth-error')]);
      blocker.click(signIn(el));
      const event = (await done) as unknown as AhpAuthErrorEvent;
      expect(event.type, event.detail.error?.message).to.equal('ahp-auth-complete');
      expect(blocker.opened).to.have.length(1);
      expect(blocker.opened[0]!.closed).to.be.true;
      expect(blocker.blocked).to.equal(0);
    });
    expect(store.authenticated).to.have.length(1);
    const { log } = await asInfo();
    await asInfo('?reset');
    expect(log.filter((l) => l.path === '/token').map((l) => new URLSearchParams(l.body).get('grant_type'))).to.deep.equal(['refresh_token', 'authorization_code']);
    expect(log.filter((l) => l.path === '/authorize')).to.have.length(1);
  });

  it('expired, asked for without a click (the page fires ahp-auth-request itself): no window is tried; the refresh works', async () => {
    // The test before left a token with a refresh token for RESOURCE.
    const { issuer } = await asInfo('?reset');
    const { store, el } = await serverInSession('expired', issuer);
    await withPopupBlocker(async (blocker) => {
      const completed = oneEvent(el, 'ahp-auth-complete');
      signIn(el).click(); // a script's click: no user activation
      await completed;
      expect(blocker.blocked, 'window.open calls the blocker refused').to.equal(0);
      expect(blocker.opened).to.have.length(0);
    });
    expect(store.authenticated).to.have.length(1);
    const { log } = await asInfo();
    expect(log.filter((l) => l.path === '/token').map((l) => new URLSearchParams(l.body).get('grant_type'))).to.deep.equal(['refresh_token']);
  });

  it('nested sessions: only the nearest one runs the flow, with its own store', async () => {
    const { issuer } = await asInfo('?reset');
    const state = session([mcpServer('a', authState('required', issuer, { resource: { resource: 'http://127.0.0.1:5/mcp', authorization_servers: [issuer] } }))]);
    const outer = new AuthStore(state);
    const inner = new AuthStore(state);
    const root = await fixture<AhpSession>(
      html`<ahp-session .store=${outer} .handle=${outer.handle}><ahp-session .store=${inner} .handle=${inner.handle}><ahp-mcp-server server-id="a"></ahp-mcp-server></ahp-session></ahp-session>`,
    );
    const el = root.querySelector('ahp-mcp-server')!;
    await el.updateComplete;
    let starts = 0;
    el.addEventListener('ahp-auth-start', () => starts++);
    const completed = oneEvent(el, 'ahp-auth-complete');
    signIn(el).click();
    await completed;
    await new Promise((r) => setTimeout(r, 50));
    expect(starts).to.equal(1);
    expect(inner.authenticated).to.have.length(1);
    expect(outer.authenticated).to.have.length(0);
  });

  it('does nothing when a listener above the session cancels the request', async () => {
    const store = new AuthStore(session([mcpServer('a', authState('required'))]));
    const root = await fixture<AhpSession>(html`<ahp-session .store=${store} .handle=${store.handle}><ahp-mcp-server server-id="a"></ahp-mcp-server></ahp-session>`);
    const el = root.querySelector('ahp-mcp-server')!;
    await el.updateComplete;
    const cancel = (e: Event) => e.preventDefault();
    document.addEventListener('ahp-auth-request', cancel);
    let started = false;
    el.addEventListener('ahp-auth-start', () => (started = true));
    try {
      signIn(el).click();
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      document.removeEventListener('ahp-auth-request', cancel);
    }
    expect(started).to.be.false;
    expect(part(el, 'auth-status')!.dataset.status).to.equal('idle');
  });

  it('runs the same flow for a tool call (requirement from the event, or from its server when the event has none)', async () => {
    const { issuer } = await asInfo('?reset');
    const store = new AuthStore(session([mcpServer('a', authState('insufficientScope', issuer, { requiredScopes: ['write'] }))]));
    const root = await fixture<AhpSession>(html`<ahp-session .store=${store} .handle=${store.handle} auth-redirect-uri=${new URL('/src/auth/callback.html', location.href).href}><div id="asker"></div></ahp-session>`);
    const asker = root.querySelector('#asker')!;
    const ask = (auth?: unknown) =>
      asker.dispatchEvent(
        new CustomEvent('ahp-auth-request', {
          bubbles: true,
          composed: true,
          cancelable: true,
          detail: { kind: 'toolCall', chat: 'ahp-chat:/c', turnId: 't1', toolCallId: 'tc1', customizationId: 'a', ...(auth ? { auth } : {}) },
        }),
      );
    let done = oneEvent(asker, 'ahp-auth-complete');
    ask();
    await done;
    expect(store.authenticated.map((p) => p.scopes)).to.deep.equal([['write']]);
    done = oneEvent(asker, 'ahp-auth-complete');
    ask({ reason: 'insufficientScope', resource: { resource: 'http://127.0.0.1:4/mcp', authorization_servers: [issuer] }, requiredScopes: ['read'] });
    await done;
    expect(store.authenticated[1]!.resource).to.equal('http://127.0.0.1:4/mcp');
    expect(store.authenticated[1]!.scopes).to.deep.equal(['read']);
  });

  it('a store that cannot reach the host, or a request with nothing to sign in to, ends in ahp-auth-error', async () => {
    const { issuer } = await asInfo('?reset');
    const store = new FakeStore(session([mcpServer('a', authState('required', issuer)), mcpServer('b', { kind: 'ready' })]));
    const root = await fixture<AhpSession>(html`<ahp-session .store=${store}><ahp-mcp-server server-id="a"></ahp-mcp-server><div id="b"></div></ahp-session>`);
    const el = root.querySelector('ahp-mcp-server')!;
    await el.updateComplete;
    let failed = oneEvent(el, 'ahp-auth-error');
    signIn(el).click();
    let error = ((await failed) as unknown as AhpAuthErrorEvent).detail.error;
    expect(error?.code).to.equal('authenticate_failed');
    expect(error?.message).to.contain('no handle');
    // A handle without the capability says why.
    root.handle = new FakeHandle({ unavailable: { authenticate: 'the host refused tokens from this tab' } });
    await root.updateComplete;
    failed = oneEvent(el, 'ahp-auth-error');
    signIn(el).click();
    error = ((await failed) as unknown as AhpAuthErrorEvent).detail.error;
    expect(error?.code).to.equal('authenticate_failed');
    expect(error?.message).to.contain('the host refused tokens from this tab');
    const b = root.querySelector('#b')!;
    failed = oneEvent(b, 'ahp-auth-error');
    b.dispatchEvent(new CustomEvent('ahp-auth-request', { bubbles: true, cancelable: true, detail: { kind: 'mcpServer', customizationId: 'b' } }));
    expect(((await failed) as unknown as AhpAuthErrorEvent).detail.error?.message).to.contain('nothing to sign in to');
  });

  /** Runs `body` with window.open recording every window it opens. */
  async function recordingOpens<T>(body: (opened: Window[]) => Promise<T>): Promise<T> {
    const realOpen = window.open;
    const opened: Window[] = [];
    window.open = (...args) => {
      const w = realOpen.apply(window, args);
      if (w) opened.push(w);
      return w;
    };
    try {
      return await body(opened);
    } finally {
      window.open = realOpen;
    }
  }

  it('opens the popup in the click\'s task, before the sign-in code loads (a slow load would outlast the user activation)', async () => {
    const { issuer } = await asInfo('?reset');
    const { store, el } = await serverInSession('required', issuer);
    await recordingOpens(async (opened) => {
      const completed = oneEvent(el, 'ahp-auth-complete');
      signIn(el).click();
      // Only the microtasks of the click have run here: no task, so no module could have loaded yet.
      await null;
      expect(opened).to.have.length(1);
      await completed;
      expect(opened[0]!.closed).to.be.true;
    });
    expect(store.authenticated).to.have.length(1);
  });

  it('closes the popup it opened when the flow cannot start (a redirect URI on another origin)', async () => {
    await asInfo('?reset');
    const elsewhere = new URL('/src/auth/callback.html', (await (await fetch('/__test/env.json')).json()).otherOrigin).href;
    const { issuer } = await asInfo();
    const { store, root, el } = await serverInSession('required', issuer);
    root.setAttribute('auth-redirect-uri', elsewhere);
    await root.updateComplete;
    await recordingOpens(async (opened) => {
      const failed = oneEvent(el, 'ahp-auth-error');
      signIn(el).click();
      expect(((await failed) as unknown as AhpAuthErrorEvent).detail.error?.code).to.equal('bad_redirect_uri');
      expect(opened).to.have.length(1);
      expect(opened[0]!.closed).to.be.true;
    });
    expect(store.authenticated).to.have.length(0);
    expect((await asInfo()).log).to.deep.equal([]);
  });

  it('a second request for a resource being signed in shares its flow and opens no window of its own', async () => {
    const { issuer } = await asInfo('?reset');
    const state = authState('required', issuer);
    const store = new AuthStore(session([mcpServer('a', state)]));
    const root = await fixture<AhpSession>(html`<ahp-session .store=${store} .handle=${store.handle}><ahp-mcp-server server-id="a"></ahp-mcp-server><div id="asker"></div></ahp-session>`);
    const el = root.querySelector('ahp-mcp-server')!;
    const asker = root.querySelector('#asker')!;
    await el.updateComplete;
    const { kind: _kind, ...auth } = state;
    await withPopupBlocker(async (blocker) => {
      const done = [oneEvent(el, 'ahp-auth-complete'), oneEvent(asker, 'ahp-auth-complete')];
      blocker.click(signIn(el));
      asker.dispatchEvent(new CustomEvent('ahp-auth-request', { bubbles: true, composed: true, cancelable: true, detail: { kind: 'toolCall', chat: 'ahp-chat:/c', turnId: 't1', toolCallId: 'tc1', customizationId: 'a', auth } }));
      await Promise.all(done);
      // The second request joined the running flow without trying to open a window (no flash, nothing blocked).
      expect(blocker.opened).to.have.length(1);
      expect(blocker.blocked).to.equal(0);
      expect(blocker.opened[0]!.closed).to.be.true;
    });
    expect(store.authenticated).to.have.length(1);
    expect((await asInfo()).log.filter((l) => l.path === '/authorize')).to.have.length(1);
  });

  it('a request for a resource the page is signing in to with authorize() joins that flow: no second window, the host gets the token', async () => {
    const { issuer } = await asInfo('?reset');
    const { store, root, el } = await serverInSession('required', issuer);
    const pageGot: AuthParams[] = [];
    const pageButton = document.createElement('button');
    let pageFlow: Promise<unknown> | undefined;
    pageButton.onclick = () => {
      pageFlow = authorize(authState('required', issuer), { client: { authenticate: async (p) => void pageGot.push(p) }, redirectUri: defaultCallbackUrl() });
    };
    root.append(pageButton);
    await withPopupBlocker(async (blocker) => {
      const done = oneEvent(el, 'ahp-auth-complete');
      blocker.click(pageButton);
      blocker.click(signIn(el));
      await Promise.all([done, pageFlow]);
      expect(blocker.opened, 'only the page\'s authorize() opened a window').to.have.length(1);
      expect(blocker.blocked).to.equal(0);
    });
    expect(pageGot).to.have.length(1);
    expect(store.authenticated).to.have.length(1);
    expect(store.authenticated[0]!.token).to.equal(pageGot[0]!.token);
    expect((await asInfo()).log.filter((l) => l.path === '/authorize')).to.have.length(1);
  });

  it('two sessions on one page (two hosts) sign in to the same resource at once: one flow, one window, each host gets the token', async () => {
    const { issuer } = await asInfo('?reset');
    const stores = [new AuthStore(session([mcpServer('a', authState('required', issuer))])), new AuthStore(session([mcpServer('a', authState('required', issuer))]))] as const;
    const root = await fixture(html`<div>${stores.map((s) => html`<ahp-session .store=${s} .handle=${s.handle}><ahp-mcp-server server-id="a"></ahp-mcp-server></ahp-session>`)}</div>`);
    const [one, two] = [...root.querySelectorAll('ahp-mcp-server')];
    await Promise.all([one!.updateComplete, two!.updateComplete]);
    await withPopupBlocker(async (blocker) => {
      const done = [oneEvent(one!, 'ahp-auth-complete'), oneEvent(two!, 'ahp-auth-complete')];
      blocker.click(signIn(one!));
      blocker.click(signIn(two!));
      await Promise.all(done);
      expect(blocker.opened).to.have.length(1);
      expect(blocker.blocked).to.equal(0);
    });
    expect(stores[0].authenticated).to.have.length(1);
    expect(stores[1].authenticated, 'the second session\'s host was handed the token too').to.have.length(1);
    expect(stores[1].authenticated[0]!.token).to.equal(stores[0].authenticated[0]!.token);
    expect((await asInfo()).log.filter((l) => l.path === '/authorize')).to.have.length(1);
  });
});

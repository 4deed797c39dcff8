// End to end: sign-in, step-up, expiry, cancel and a forged callback in Chromium, against the playground's own
// OAuth-protected MCP server and authorization server (consent clicked in the real popup).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type ElementHandle, type Page, type Target } from 'puppeteer-core';
import { parseConfig } from '../../examples/playground/config.js';
import { startPlayground, type Playground } from '../../examples/playground/playground.js';
import type { ResponsePart, ToolCallState } from '../../src/protocol/index.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/find-chromium.mjs';
import { answerConsent, clickUntil } from '../fixtures/playground-page.js';

const WAIT_MS = 20_000;
const SERVER = 'protected';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, read: () => Promise<T | undefined | false> | T | undefined | false, now: () => unknown = () => ''): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; now: ${JSON.stringify(await now())}`);
    await sleep(50);
  }
}

describe('auth end to end (Chromium, popup sign-in, step-up, expiry, cancel, forged state, popup blocker on)', () => {
  let playground: Playground;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  let turnCount = 0;

  /** The server element's state, the text of its auth button and its auth status, through the shadow roots. */
  const serverView = () =>
    page.evaluate((id) => {
      const el = document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelector(`ahp-mcp-server[server-id="${id}"]`);
      const root = el?.shadowRoot;
      if (!el || !root) return null;
      const kinds = ['starting', 'ready', 'authRequired', 'error', 'stopped'];
      const status = root.querySelector('[part~="auth-status"]');
      return {
        kind: kinds.find((k) => el.matches(`:state(${k})`)) ?? null,
        button: root.querySelector('button[data-auth]')?.textContent?.trim() ?? null,
        authStatus: status?.getAttribute('data-status') ?? null,
        authMessage: status?.textContent?.trim() ?? '',
      };
    }, SERVER);
  const hostState = () => playground.servers.get(SERVER)!.state;

  async function shadowButton(selector: string, within: 'server' | 'tool-call'): Promise<ElementHandle<HTMLButtonElement>> {
    const handle = await until(`button ${selector}`, async () => {
      const h = await page.evaluateHandle(
        (sel, within, id) => {
          if (within === 'server') {
            return document.querySelector('ahp-mcp-server-list')?.shadowRoot?.querySelector(`ahp-mcp-server[server-id="${id}"]`)?.shadowRoot?.querySelector(sel) ?? null;
          }
          const calls = [...(document.querySelector('ahp-chat')?.shadowRoot?.querySelectorAll('ahp-tool-call') ?? [])];
          return calls.at(-1)?.shadowRoot?.querySelector(sel) ?? null;
        },
        selector,
        within,
        SERVER,
      );
      return h.asElement() as ElementHandle<HTMLButtonElement> | null;
    }, serverView);
    return handle as ElementHandle<HTMLButtonElement>;
  }

  /** The ahp-auth-* events the page has seen so far (recorded from the start), with their error messages. */
  const authEvents = () => page.evaluate(() => (window as unknown as { __auth?: string[] }).__auth ?? []);
  /** What a failed step says: the server card, the last tool call on the host, the auth events and page errors. */
  const diagnostics = async () => ({ server: await serverView().catch((e: Error) => e.message), toolCall: lastToolCall()?.status, auth: await authEvents().catch((e: Error) => e.message), pageErrors });

  /**
   * Clicks a sign-in button (found afresh, a real click: the popup needs the user's activation) until the page reports
   * `ahp-auth-start`: the chat or the server card may move or re-render between puppeteer's aim and the click.
   */
  async function startSignIn(find: () => Promise<ElementHandle<HTMLButtonElement>>): Promise<void> {
    const starts = (await authEvents()).filter((e) => e === 'ahp-auth-start').length;
    await clickUntil('the sign-in to start (ahp-auth-start)', async () => (await find()).click(), async () => (await authEvents()).filter((e) => e === 'ahp-auth-start').length > starts, diagnostics, WAIT_MS);
  }

  /** Starts a sign-in that opens the popup (see startSignIn); resolves with the popup page. */
  async function openPopup(find: () => Promise<ElementHandle<HTMLButtonElement>>): Promise<Page> {
    const known = new Set(browser.targets());
    const opened = browser.waitForTarget((t: Target) => t.opener() === page.target() && t.type() === 'page' && !known.has(t), { timeout: WAIT_MS });
    opened.catch(() => undefined);
    await startSignIn(find);
    const target = await opened.catch(async (err: Error) => {
      throw new Error(`no sign-in popup (${err.message}); now: ${JSON.stringify(await diagnostics())}`);
    });
    const popup = await target.page();
    assert.ok(popup, 'the popup is a page');
    return popup;
  }

  const consent = (popup: Page, decision: 'allow' | 'deny') => answerConsent(popup, decision, diagnostics, WAIT_MS);

  /** The popups `p` opens from now on: each one's URLs in order and whether it is closed; `stop` stops watching. */
  function watchPopups(b: Browser, p: Page) {
    const popups = new Map<Target, { urls: string[]; closed: boolean }>();
    const created = (t: Target) => void (t.opener() === p.target() && popups.set(t, { urls: [t.url()], closed: false }));
    const changed = (t: Target) => {
      const seen = popups.get(t);
      if (seen && seen.urls.at(-1) !== t.url()) seen.urls.push(t.url());
    };
    const destroyed = (t: Target) => void (popups.get(t) && (popups.get(t)!.closed = true));
    b.on('targetcreated', created).on('targetchanged', changed).on('targetdestroyed', destroyed);
    return {
      popups: () => [...popups.values()],
      stop: () => void b.off('targetcreated', created).off('targetchanged', changed).off('targetdestroyed', destroyed),
    };
  }

  /**
   * Holds `p`'s refresh-token requests until the page's user activation (from the click) is gone, then lets them on to
   * the real authorization server: a refresh slower than the activation, as on a slow network. Counts what it held.
   * Careful: every `page.evaluate` gives the page a new activation (puppeteer sends it as a user gesture), so the test
   * must not evaluate in the page between the click and the end of the refresh; this check itself is no gesture.
   */
  async function holdRefreshesPastActivation(p: Page) {
    const cdp = await p.createCDPSession();
    const problems: string[] = [];
    let held = 0;
    const activationGone = async () =>
      (await cdp.send('Runtime.evaluate', { expression: '!navigator.userActivation.isActive', returnByValue: true, userGesture: false })).result.value === true;
    cdp.on('Fetch.requestPaused', (e) =>
      void (async () => {
        try {
          if ((e.request.postData ?? '').includes('grant_type=refresh_token')) {
            held++;
            await until('the click\'s user activation to be gone', activationGone);
          }
        } catch (err) {
          problems.push((err as Error).message);
        }
        await cdp.send('Fetch.continueRequest', { requestId: e.requestId }).catch((err: Error) => problems.push(err.message));
      })(),
    );
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/token', requestStage: 'Request' }] });
    return { held: () => held, problems, stop: () => cdp.detach() };
  }

  /**
   * Runs `body` with `browser` and `page` on a second Chromium with its popup blocker on, as for users (puppeteer turns
   * it off), showing the demo page; checks first that the blocker is on.
   */
  async function withPopupBlocker(body: () => Promise<void>): Promise<void> {
    const usual = { browser, page };
    const strict = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--disable-popup-blocking'] });
    try {
      browser = strict;
      page = await openDemoPage(strict);
      // The blocker is on: one user activation lets one window open, not two.
      const opens = await page.evaluate(() => {
        const a = open('about:blank', '_blank', 'popup');
        const b = open('about:blank', '_blank', 'popup');
        a?.close();
        b?.close();
        return [!!a, !!b];
      });
      assert.deepEqual(opens, [true, false], 'Chromium blocks a second popup on one activation');
      await body();
    } finally {
      ({ browser, page } = usual);
      await strict.close();
    }
  }

  /** Types a message into the chat composer and sends it, like a user. */
  async function send(text: string): Promise<number> {
    const input = await page.evaluateHandle(() => document.querySelector('ahp-chat')?.shadowRoot?.querySelector('textarea') ?? null);
    const el = input.asElement() as ElementHandle<HTMLTextAreaElement> | null;
    assert.ok(el, 'the chat composer is there');
    await el.type(text);
    await page.keyboard.press('Enter');
    return ++turnCount;
  }

  /** The last tool call of the chat on the host (authoritative). */
  const lastToolCall = (): ToolCallState | undefined => {
    const chat = playground.host.getChatState(playground.chatUri);
    const parts: ResponsePart[] = [...(chat?.turns.flatMap((t) => t.responseParts) ?? []), ...(chat?.activeTurn?.responseParts ?? [])];
    return parts.flatMap((p) => (p.kind === 'toolCall' ? [p.toolCall] : [])).at(-1);
  };
  const textOf = (tc: ToolCallState | undefined) =>
    ((tc as { content?: { type: string; text?: string }[] } | undefined)?.content ?? []).map((c) => c.text ?? '').join('\n');

  /** The demo page in a new tab of `b`, recording the ahp-auth-* events, with the main chat added. */
  async function openDemoPage(b: Browser): Promise<Page> {
    const p = await b.newPage();
    p.on('pageerror', (err) => pageErrors.push(err instanceof Error ? err.message : String(err)));
    await p.evaluateOnNewDocument(() => {
      const w = window as unknown as { __auth: string[] };
      w.__auth = [];
      for (const type of ['ahp-auth-start', 'ahp-auth-complete', 'ahp-auth-error']) {
        document.addEventListener(type, (e) => w.__auth.push(`${type}${(e as CustomEvent).detail?.error ? `: ${(e as CustomEvent).detail.error.message}` : ''}`), true);
      }
    });
    await p.goto(playground.url, { waitUntil: 'load' });
    // The demo page shows the servers; add the main chat so tool calls are visible too.
    await p.waitForFunction(() => !!document.querySelector('ahp-session'));
    await p.evaluate((chat) => {
      const el = document.createElement('ahp-chat');
      el.setAttribute('chat', chat);
      document.querySelector('ahp-session')!.append(el);
    }, playground.chatUri);
    return p;
  }

  before(async () => {
    const config = parseConfig({ servers: [{ id: SERVER, name: 'Protected', transport: 'http', builtin: 'oauth-demo', tokenLifetimeSeconds: 60 }] });
    playground = await startPlayground({ port: 0, config });
    browser = await puppeteer.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    page = await openDemoPage(browser);
  });
  after(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('a server that starts in authRequired becomes ready after the popup flow (Allow in the consent page)', async () => {
    const v = await until('authRequired on the page', async () => ((await serverView())?.kind === 'authRequired' ? serverView() : undefined), serverView);
    assert.equal(v?.button, 'Sign in');
    const popup = await openPopup(() => shadowButton('button[data-auth]', 'server'));
    await consent(popup, 'allow');
    await until('ready on the page', async () => (await serverView())?.kind === 'ready', serverView);
    assert.equal(hostState().kind, 'ready');
    assert.deepEqual(pageErrors, []);
  });

  it('a tool that needs the extra scope pauses in auth-required; the inline "Grant access" resumes it to a real result', async () => {
    await send('/call protected secret {}');
    await until('auth-required on the host', () => lastToolCall()?.status === 'auth-required', lastToolCall);
    const popup = await openPopup(() => shadowButton('button[data-action="grant-access"]', 'tool-call'));
    await consent(popup, 'allow');
    const done = await until('the call to complete', () => (lastToolCall()?.status === 'completed' ? lastToolCall() : undefined), lastToolCall);
    assert.equal((done as { success?: boolean }).success, true);
    assert.match(textOf(done), /swordfish/);
    await until('the page to show the result', () =>
      page.evaluate(() => {
        const call = [...(document.querySelector('ahp-chat')?.shadowRoot?.querySelectorAll('ahp-tool-call') ?? [])].at(-1);
        return !!call?.matches(':state(completed)') && (call.shadowRoot?.textContent ?? '').includes('swordfish');
      }),
    );
  });

  it('denying in the popup leaves the call waiting; Cancel completes it with a failure and the turn ends', async () => {
    // Back to a token without secrets:read: revoke, then sign in again (base scope only).
    const rt = playground.servers.get(SERVER)!;
    rt.auth.setToken('');
    await rt.reconnect();
    await until('authRequired on the page', async () => (await serverView())?.kind === 'authRequired', serverView);
    await consent(await openPopup(() => shadowButton('button[data-auth]', 'server')), 'allow');
    await until('ready on the page', async () => (await serverView())?.kind === 'ready', serverView);

    await send('/call protected secret {}');
    await until('auth-required on the host', () => lastToolCall()?.status === 'auth-required', lastToolCall);
    await consent(await openPopup(() => shadowButton('button[data-action="grant-access"]', 'tool-call')), 'deny');
    await sleep(300);
    assert.equal(lastToolCall()?.status, 'auth-required', 'a denied grant changes nothing on the host');
    // Clicked again until the host has it: the transcript may move between puppeteer's aim and the click.
    await clickUntil('the cancelled call completed on the host', async () => (await shadowButton('button[data-action="cancel"]', 'tool-call')).click(), () => lastToolCall()?.status === 'completed', diagnostics, WAIT_MS);
    const done = await until('the call to complete', () => (lastToolCall()?.status === 'completed' ? lastToolCall() : undefined), lastToolCall);
    assert.equal((done as { success?: boolean }).success, false);
    await until('the turn to end', () => !playground.host.getChatState(playground.chatUri)?.activeTurn);
    assert.equal(playground.host.getSessionState(playground.sessionUri)?.inputNeeded?.length ?? 0, 0);
  });

  it('an expired token leads to re-authentication ("Sign in again", refreshed without a popup)', async () => {
    playground.protectedServers.get(SERVER)!.provider.expireAccessTokens();
    await playground.servers.get(SERVER)!.request('ping').catch(() => {});
    const v = await until('expired on the page', async () => {
      const now = await serverView();
      return now?.kind === 'authRequired' && now.button === 'Sign in again' ? now : undefined;
    }, serverView);
    const state = hostState();
    assert.equal(state.kind === 'authRequired' && state.reason, 'expired');
    const watch = watchPopups(browser, page);
    try {
      await startSignIn(() => shadowButton('button[data-auth]', 'server'));
      await until('ready again', async () => (await serverView())?.kind === 'ready', serverView);
      // The click opened its window (a refresh may outlast the click's user activation); the refresh token did it, so
      // the window stayed blank and was closed.
      await until('the window opened on the click to close', () => watch.popups().length > 0 && watch.popups().every((w) => w.closed), watch.popups);
      assert.deepEqual(watch.popups().map((w) => w.urls), [['about:blank']], 'the refresh token did it: nothing was shown in the window');
    } finally {
      watch.stop();
    }
    assert.ok(v);
  });

  it('a callback with a forged state is refused: the page reports it and the server stays in authRequired', async () => {
    const rt = playground.servers.get(SERVER)!;
    rt.auth.setToken('');
    await rt.reconnect();
    await until('authRequired on the page', async () => (await serverView())?.kind === 'authRequired', serverView);
    const popup = await openPopup(() => shadowButton('button[data-auth]', 'server'));
    await popup.waitForSelector('#allow', { timeout: WAIT_MS });
    // An attacker's redirect: a code with a state this page never issued.
    await popup.goto(new URL('/callback.html?code=stolen&state=forged', playground.url).href).catch(() => {});
    const v = await until('the error on the page', async () => ((await serverView())?.authStatus === 'error' ? serverView() : undefined), serverView);
    assert.match(v?.authMessage ?? '', /did not match this request/i);
    assert.equal(hostState().kind, 'authRequired');
  });

  it('with Chromium\'s popup blocker on, as for users (puppeteer turns it off), a click on "Sign in" opens the popup and signs in', async () => {
    assert.equal(hostState().kind, 'authRequired', 'the server still waits for a sign-in (previous test)');
    await withPopupBlocker(async () => {
      await until('authRequired on the page', async () => (await serverView())?.kind === 'authRequired', serverView);
      await consent(await openPopup(() => shadowButton('button[data-auth]', 'server')), 'allow');
      await until('ready on the page', async () => (await serverView())?.kind === 'ready', diagnostics);
      assert.ok(!(await authEvents()).some((e) => e.includes('popup')), `no popup error: ${JSON.stringify(await authEvents())}`);
      assert.equal(hostState().kind, 'ready');
    });
  });

  it('with the popup blocker on, "Sign in again" whose refresh answers after the click\'s activation: the click\'s window carries the sign-in when the refresh is refused, and is closed unused when it works', async () => {
    const rt = playground.servers.get(SERVER)!;
    const provider = playground.protectedServers.get(SERVER)!.provider;
    await withPopupBlocker(async () => {
      // This browser's page holds no token yet: sign in once, which leaves it a refresh token.
      rt.auth.setToken('');
      await rt.reconnect();
      await until('authRequired on the page', async () => (await serverView())?.kind === 'authRequired', serverView);
      await consent(await openPopup(() => shadowButton('button[data-auth]', 'server')), 'allow');
      await until('ready on the page', async () => (await serverView())?.kind === 'ready', diagnostics);
      const hold = await holdRefreshesPastActivation(page);
      try {
        // Refused first: on code that opens the window only after the refresh, this is where the window is blocked.
        for (const refused of [true, false]) {
          provider.expireAccessTokens();
          if (refused) provider.revokeRefreshTokens();
          await rt.request('ping').catch(() => {});
          await until('expired on the page', async () => (await serverView())?.button === 'Sign in again', serverView);
          const held = hold.held();
          const watch = watchPopups(browser, page);
          try {
            const find = () => shadowButton('button[data-auth]', 'server');
            if (refused) await consent(await openPopup(find), 'allow');
            else await startSignIn(find);
            // Waited for on the host, not in the page (see holdRefreshesPastActivation).
            await until('ready on the host', () => hostState().kind === 'ready', () => ({ held: hold.held() - held, popups: watch.popups() }));
            await until('ready again', async () => (await serverView())?.kind === 'ready', diagnostics);
            await until('the window opened on the click to close', () => watch.popups().length > 0 && watch.popups().every((w) => w.closed), watch.popups);
            const urls = watch.popups().map((w) => w.urls);
            assert.equal(urls.length, 1, `one window, opened on the click: ${JSON.stringify(urls)}`);
            if (refused) assert.ok(urls[0]!.some((u) => new URL(u).pathname === '/authorize'), `the sign-in ran in it: ${JSON.stringify(urls)}`);
            else assert.deepEqual(urls[0], ['about:blank'], 'closed unused: nothing was shown in it');
          } finally {
            watch.stop();
          }
          assert.equal(hold.held() - held, 1, 'the refresh request was held until the click\'s activation was gone');
          assert.deepEqual(hold.problems, []);
          assert.ok(!(await authEvents()).some((e) => e.startsWith('ahp-auth-error')), `no sign-in error: ${JSON.stringify(await authEvents())}`);
          assert.equal(hostState().kind, 'ready');
        }
      } finally {
        await hold.stop();
      }
    });
  });
});

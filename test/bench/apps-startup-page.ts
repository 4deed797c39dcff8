// The page side of the MCP App start-up benches (apps-startup.ts, apps-startup-ab.ts): the Apps they start, the
// playground config that runs their servers, and what they do in a playground page with one connected
// `<ahp-session id="bench-session">`: the channel wrapping that times the listing and the read, an App's start with
// its phases, and the warmed condition's set-up. apps-startup.ts says what each condition is.
import type { Page } from 'puppeteer-core';

export interface BenchApp {
  serverId: string;
  uri: string;
  module: string;
  kind: 'test View' | 'published';
}

export const ALL_APPS: BenchApp[] = [
  { serverId: 'basic-vanillajs', uri: 'ui://get-time/mcp-app.html', module: 'server-basic-vanillajs', kind: 'test View' },
  { serverId: 'debug', uri: 'ui://debug-tool/mcp-app.html', module: 'server-debug', kind: 'test View' },
  { serverId: 'system-monitor', uri: 'ui://system-monitor/mcp-app.html', module: 'server-system-monitor', kind: 'published' },
  { serverId: 'threejs', uri: 'ui://threejs/mcp-app.html', module: 'server-threejs', kind: 'published' },
  { serverId: 'pdf', uri: 'ui://pdf-viewer/mcp-app.html', module: 'server-pdf', kind: 'published' },
];

/** The Apps named in a comma-separated list of server ids (all of them without one). */
export const appsNamed = (only: string | undefined): BenchApp[] => (only ? ALL_APPS.filter((a) => only.split(',').includes(a.serverId)) : ALL_APPS);

/** The playground config (before `parseConfig`) that runs the servers of `apps` over stdio. */
export const serversConfig = (apps: BenchApp[]) => ({
  servers: apps.map((a) => ({ id: a.serverId, name: a.serverId, transport: 'stdio', command: 'node', args: [`node_modules/@modelcontextprotocol/${a.module}/dist/index.js`, '--stdio'] })),
});

export interface Phases {
  listed?: number;
  read?: number;
  proxyReady?: number;
  initialize?: number;
  initialized: number;
  /** The App runs in the frame the warmed condition's set-up marked (its warmed proxy). */
  inWarmedFrame?: boolean;
}

/**
 * Readies a page that `openSessionPage` opened: takes away the page's `AhpMcpApp.sandboxUrlFor` and its warmed
 * proxies, and records when each request on the Apps' channels is answered.
 */
export async function instrumentPage(page: Page): Promise<void> {
  // The playground page sets AhpMcpApp.sandboxUrlFor for every server, and with it each ready server gets a warmed
  // proxy. Only the warmed condition sets one (for its own server): wait for the page's, then take it away, so
  // nothing is warmed outside that condition (the other conditions name their sandbox with `sandbox-url`).
  await page.waitForFunction(() => (customElements.get('ahp-mcp-app') as unknown as { sandboxUrlFor?: unknown }).sandboxUrlFor !== undefined, { timeout: 10_000 });
  await page.evaluate(() => {
    const App = customElements.get('ahp-mcp-app') as unknown as { sandboxUrlFor: unknown; warmer: { clear(): void } };
    App.sandboxUrlFor = undefined;
    App.warmer.clear();
  });
  // When the listing and the read of an App's resource answer (the channel is the one the element uses).
  await page.evaluate(() => {
    const w = window as unknown as { __benchAnswers: Record<string, number>; __benchPending: { n: number } };
    w.__benchAnswers = {};
    // Requests on the Apps' channels not answered yet (the warmed condition starts once none is).
    const pending = (w.__benchPending = { n: 0 });
    const session = document.getElementById('bench-session') as unknown as { currentHandle: { mcpChannel(id: string): { request(m: string, p: unknown): Promise<unknown> } } };
    const wrapped = new Set<unknown>();
    const channelOf = session.currentHandle.mcpChannel.bind(session.currentHandle);
    session.currentHandle.mcpChannel = (id: string) => {
      const channel = channelOf(id);
      if (!wrapped.has(channel)) {
        wrapped.add(channel);
        const request = channel.request.bind(channel);
        channel.request = (method: string, params: unknown) => {
          const answer = request(method, params);
          pending.n++;
          void answer.then(() => (w.__benchAnswers[method] = performance.now()), () => {}).finally(() => pending.n--);
          return answer;
        };
      }
      return channel;
    };
  });
}

/** Leaves the sandbox origins without a frame for a second (the next load is on a cold origin). */
export async function originIdle(page: Page): Promise<void> {
  await page.evaluate(() => (customElements.get('ahp-mcp-app') as unknown as { warmer: { clear(): void } }).warmer.clear());
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/**
 * Connects an `<ahp-mcp-app>` for `app` and times it up to the View's `ui/notifications/initialized` reaching the
 * page, with the phases on the way. Cold: the resource cache and spare proxies are cleared first. Without
 * `sandboxUrl` the element resolves it through `AhpMcpApp.sandboxUrlFor`.
 */
export const appStart = (page: Page, app: BenchApp, sandboxUrl: string | null, sandboxOrigin: string, cold: boolean) =>
  page.evaluate(
    (serverId: string, uri: string, sandboxUrl: string | null, sandboxOrigin: string, cold: boolean) =>
      new Promise<Phases>((resolve, reject) => {
        // Cold: as for the first App of a server start (nothing read yet, no proxy warmed).
        const App = customElements.get('ahp-mcp-app') as unknown as { resources: { clear(): void }; warmer: { clear(): void; settled(): Promise<void> } };
        if (cold) (App.resources.clear(), App.warmer.clear());
        const answers = (window as unknown as { __benchAnswers: Record<string, number> }).__benchAnswers;
        for (const key of Object.keys(answers)) delete answers[key];
        const host = document.getElementById('bench-session')!;
        const el = document.createElement('ahp-mcp-app');
        el.setAttribute('server-id', serverId);
        el.setAttribute('resource-uri', uri);
        // Without one (the warmed condition) the element resolves it through AhpMcpApp.sandboxUrlFor.
        if (sandboxUrl) el.setAttribute('sandbox-url', sandboxUrl);
        const seen: Record<string, number> = {};
        const timer = setTimeout(() => done(new Error(`${serverId}: no initialized within 30 s (${el.shadowRoot?.textContent?.trim()})`)), 30_000);
        // Added before the element's bridge listens: the time the View's messages reach the page. They come as window
        // messages from the proxy frame, or (since the port relay) on the MessagePort the App hands its proxy: every
        // MessageChannel made while this App starts gets the same listener on the end the page keeps, added before
        // the bridge's own.
        const NativeChannel = window.MessageChannel;
        window.MessageChannel = class extends NativeChannel {
          constructor() {
            super();
            this.port1.addEventListener('message', onMessage);
          }
        };
        const onMessage = (event: MessageEvent) => {
          if (event.target === window && event.origin !== sandboxOrigin) return;
          const method = (event.data as { method?: unknown })?.method;
          if (typeof method !== 'string' || seen[method] !== undefined) return;
          seen[method] = performance.now() - start;
          if (method !== 'ui/notifications/initialized') return;
          // The element turns ready in this same message task (its bridge listens after this listener).
          setTimeout(() => done(el.matches(':state(ready)') ? undefined : new Error(`${serverId}: initialized but the element is not ready`)));
        };
        const done = (error?: Error) => {
          clearTimeout(timer);
          removeEventListener('message', onMessage);
          window.MessageChannel = NativeChannel;
          // Read before the element goes (its frame goes with it).
          const inWarmedFrame = (el.shadowRoot?.querySelector('iframe') as unknown as { __benchWarmed?: boolean } | null)?.__benchWarmed === true;
          el.remove();
          if (error) return reject(error);
          const since = (t: number | undefined) => (t === undefined ? undefined : t - start);
          const phases = {
            listed: since(answers['resources/list']),
            read: since(answers['resources/read']),
            proxyReady: seen['ui/notifications/sandbox-proxy-ready'],
            initialize: seen['ui/initialize'],
            initialized: seen['ui/notifications/initialized']!,
            inWarmedFrame,
          };
          // The spare proxy this App warms for the next one loads before anything else is measured.
          void App.warmer.settled().then(() => resolve(phases));
        };
        addEventListener('message', onMessage);
        const start = performance.now();
        host.append(el);
        const poll = () => (el.matches(':state(error)') ? done(new Error(`${serverId}: ${el.shadowRoot?.textContent?.trim()}`)) : el.isConnected && setTimeout(poll, 50));
        poll();
      }),
    app.serverId,
    app.uri,
    sandboxUrl,
    sandboxOrigin,
    cold,
  );

/**
 * The warmed condition's set-up (not timed): the server "becomes ready" for the warm-up and its spare proxy has
 * announced itself; nothing of it is pending when the App is connected.
 */
const warmUp = (page: Page, app: BenchApp, sandboxUrl: string, sandboxOrigin: string) =>
  page.evaluate(
    async (serverId: string, sandboxUrl: string, sandboxOrigin: string) => {
      const App = customElements.get('ahp-mcp-app') as unknown as {
        resources: { clear(keepGuesses?: boolean): void };
        warmer: { clear(): void; settled(): Promise<void> };
        sandboxUrlFor: ((app: { serverId: string }) => string | undefined) | undefined;
      };
      App.resources.clear(true);
      App.warmer.clear();
      App.sandboxUrlFor = (a) => (a.serverId === serverId ? sandboxUrl : undefined);
      const pending = (window as unknown as { __benchPending: { n: number } }).__benchPending;
      const spare = () => [...document.querySelectorAll<HTMLIFrameElement>('body > iframe[aria-hidden="true"]')].find((f) => f.src.startsWith(sandboxOrigin));
      const t0 = performance.now();
      while (!spare() || pending.n > 0) {
        if (performance.now() - t0 > 30_000) throw new Error(`${serverId}: no warmed proxy within 30 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await App.warmer.settled();
      const frame = spare();
      if (!frame) throw new Error(`${serverId}: the warmed proxy failed`);
      (frame as unknown as { __benchWarmed: boolean }).__benchWarmed = true;
    },
    app.serverId,
    sandboxUrl,
    sandboxOrigin,
  );

/**
 * The warmed first App: after the set-up above, connected without `sandbox-url` (resolved through the
 * `AhpMcpApp.sandboxUrlFor` the set-up set, which is taken away again afterwards).
 */
export async function warmedStart(page: Page, app: BenchApp, sandboxUrl: string, sandboxOrigin: string): Promise<Phases> {
  await warmUp(page, app, sandboxUrl, sandboxOrigin);
  const phases = await appStart(page, app, null, sandboxOrigin, false);
  await page.evaluate(() => void ((customElements.get('ahp-mcp-app') as unknown as { sandboxUrlFor: unknown }).sandboxUrlFor = undefined));
  return phases;
}

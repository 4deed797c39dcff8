import { expect, waitUntil } from '@open-wc/testing';
import { connectSessionInWorker, type WorkerSessionConnection } from '../../src/worker/worker-store.js';
import type { McpServerCustomization } from '../../src/protocol/customizations.js';
import { DEDICATED_ENTRY, SHARED_ENTRY, dropSockets, freshSession, hostInfo, serverAction, serverKind, type AhpHostInfo } from './fixtures/worker-host.js';

type FrameWindow = Window & { ahpFrame?: WorkerSessionConnection };

/** Opens the second page (a same-origin iframe) connected to the same session in worker mode. */
async function openFrame(info: AhpHostInfo, mode: 'shared' | 'dedicated' = 'shared'): Promise<{ frame: HTMLIFrameElement; conn: WorkerSessionConnection }> {
  const frame = document.createElement('iframe');
  const query = new URLSearchParams({ url: info.url, session: info.session, mode });
  frame.src = new URL(`./fixtures/worker-frame.html?${query}`, import.meta.url).href;
  document.body.append(frame);
  await waitUntil(() => (frame.contentWindow as FrameWindow | null)?.ahpFrame, 'the second page did not connect', { timeout: 5000 });
  const conn = (frame.contentWindow as FrameWindow).ahpFrame!;
  await conn.ready;
  return { frame, conn };
}

describe('connectSessionInWorker: shared worker with a real host over a real WebSocket', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const fn of cleanup.splice(0).reverse()) fn();
  });
  /** A page of the session in the shared worker, closed after the test; resolves once it has the session. */
  async function openPage(info: AhpHostInfo): Promise<WorkerSessionConnection> {
    const page = connectSessionInWorker({ url: info.url, session: info.session, workerUrl: SHARED_ENTRY });
    cleanup.push(() => page.close());
    await page.ready;
    return page;
  }
  /** A second page (a frame on the same origin), removed after the test. */
  async function openOther(info: AhpHostInfo): Promise<WorkerSessionConnection> {
    const { frame, conn } = await openFrame(info);
    cleanup.push(() => frame.remove());
    return conn;
  }

  it('two pages share one WebSocket and see the same state', async () => {
    const info = await freshSession();
    const page = connectSessionInWorker({ url: info.url, session: info.session, mode: 'shared', workerUrl: SHARED_ENTRY });
    cleanup.push(() => page.close());
    await page.ready;
    expect(page.mode).to.equal('shared');

    const other = await openOther(info);
    expect(other.mode).to.equal('shared');

    const host = await hostInfo(info.session);
    expect(host.sockets, 'sockets that subscribed to the session').to.equal(1);
    expect(host.openSockets).to.equal(1);
    expect(page.store.getState()).to.deep.equal(host.state);
    expect(other.store.getState()).to.deep.equal(host.state);
    expect(page.handle.getConnectionState()).to.deep.equal({ kind: 'open' });
    expect(other.handle.getConnectionState()).to.deep.equal({ kind: 'open' });
  });

  it('an action dispatched on one page is seen by the other, waking only that server', async () => {
    const info = await freshSession();
    const page = await openPage(info);
    const other = await openOther(info);

    const woken: string[] = [];
    const seen: (McpServerCustomization | undefined)[] = [];
    for (const id of ['alpha', 'beta', 'gamma']) cleanup.push(page.store.subscribeMcpServer(id, (s) => (woken.push(id), seen.push(s))));

    // Optimistic in the dispatching page at once, before any worker round trip.
    const localId = other.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'beta' });
    expect(localId).to.be.a('number');
    expect(serverKind(other.store.getState(), 'beta')).to.equal('starting');

    await waitUntil(() => serverKind(page.store.getState(), 'beta') === 'starting', 'the other page did not see the action');
    await waitUntil(async () => serverKind((await hostInfo(info.session)).state, 'beta') === 'starting', 'the host did not apply it');
    expect(woken).to.deep.equal(['beta']);
    expect(seen[0]!.state).to.deep.equal({ kind: 'starting' });

    // And the other way round, for a server inside a container.
    page.store.dispatch({ type: 'session/customizationToggled', id: 'gamma', enabled: false });
    await waitUntil(() => JSON.stringify(other.store.getState()).includes('"enabled":false'), 'the first page’s action did not reach the second');
    await waitUntil(async () => JSON.stringify((await hostInfo(info.session)).state).includes('"enabled":false'));
    expect(woken).to.deep.equal(['beta', 'gamma']);
    expect((await hostInfo(info.session)).sockets).to.equal(1);
  });

  it('server-side changes reach both pages', async () => {
    const info = await freshSession();
    const page = await openPage(info);
    const other = await openOther(info);

    await serverAction(info.session, { type: 'session/mcpServerStateChanged', id: 'alpha', state: { kind: 'error', error: { errorType: 'exit', message: 'boom' } } });
    await waitUntil(() => serverKind(page.store.getState(), 'alpha') === 'error' && serverKind(other.store.getState(), 'alpha') === 'error');
    expect(page.store.getState()).to.deep.equal((await hostInfo(info.session)).state);
  });

  it('a page that goes away without close() is detached; the last close() closes the WebSocket', async () => {
    const info = await freshSession();
    const page = await openPage(info);
    const { frame } = await openFrame(info);
    frame.remove(); // no close(): the worker learns through the page's Web Lock

    await serverAction(info.session, { type: 'session/mcpServerStopRequested', id: 'alpha' });
    await waitUntil(() => serverKind(page.store.getState(), 'alpha') === 'stopped', 'the remaining page stopped getting updates');
    expect((await hostInfo(info.session)).openSockets).to.equal(1);

    page.close();
    expect(page.handle.getConnectionState()).to.deep.equal({ kind: 'closed', reason: 'closed by client' });
    await waitUntil(async () => (await hostInfo(info.session)).openSockets === 0, 'the shared WebSocket stayed open after the last page left', { timeout: 5000 });
    expect((await hostInfo(info.session)).sockets).to.equal(1);
  });

  it('after a drop the worker reconnects once for both pages, which see reconnecting and then the host state', async () => {
    const info = await freshSession();
    const page = await openPage(info);
    const other = await openOther(info);
    const kinds: string[][] = [[], []];
    cleanup.push(page.handle.subscribeConnection((s) => kinds[0]!.push(s.kind)));
    cleanup.push(other.handle.subscribeConnection((s) => kinds[1]!.push(s.kind)));

    expect(await dropSockets(info.session)).to.equal(1);
    await serverAction(info.session, { type: 'session/mcpServerStartRequested', id: 'beta' });
    await waitUntil(() => kinds.every((k) => k.at(-1) === 'open'), 'both pages did not come back', { timeout: 5000 });
    for (const k of kinds) expect(k[0]).to.equal('reconnecting');
    const host = await hostInfo(info.session);
    expect(serverKind(host.state, 'beta')).to.equal('starting');
    expect(page.store.getState()).to.deep.equal(host.state);
    expect(other.store.getState()).to.deep.equal(host.state);
    expect([host.sockets, host.openSockets]).to.deep.equal([2, 1]);
  });

  it('a page that joins an open connection gets the current state at once and never opens a second socket', async () => {
    const info = await freshSession();
    const page = await openPage(info);
    page.store.dispatch({ type: 'session/mcpServerStartRequested', id: 'beta' });
    await waitUntil(async () => serverKind((await hostInfo(info.session)).state, 'beta') === 'starting');

    const late = await openPage(info);
    expect(serverKind(late.store.getState(), 'beta')).to.equal('starting');
    expect((await hostInfo(info.session)).sockets).to.equal(1);
  });
});

describe('connectSessionInWorker fallbacks', () => {
  const g = globalThis as { SharedWorker?: unknown; Worker?: unknown };
  const { SharedWorker: savedShared, Worker: savedWorker } = g;
  let conn: WorkerSessionConnection | undefined;
  afterEach(() => {
    conn?.close();
    conn = undefined;
    g.SharedWorker = savedShared;
    g.Worker = savedWorker;
  });

  it('uses a dedicated Worker when SharedWorker is missing', async () => {
    delete g.SharedWorker;
    expect('SharedWorker' in window).to.be.false;
    const info = await freshSession();
    conn = connectSessionInWorker({ url: info.url, session: info.session, mode: 'shared', workerUrl: SHARED_ENTRY });
    expect(conn.mode).to.equal('dedicated');
    await conn.ready;
    expect(conn.store.getState()).to.deep.equal((await hostInfo(info.session)).state);

    conn.store.dispatch({ type: 'session/mcpServerStopRequested', id: 'gamma' });
    await waitUntil(async () => serverKind((await hostInfo(info.session)).state, 'gamma') === 'stopped', 'the dispatch did not reach the host');
    expect((await hostInfo(info.session)).openSockets).to.equal(1);
    conn.close();
    await waitUntil(async () => (await hostInfo(info.session)).openSockets === 0, 'terminating the worker did not close its socket');
  });

  it('gives every dedicated worker its own WebSocket', async () => {
    const info = await freshSession();
    conn = connectSessionInWorker({ url: info.url, session: info.session, mode: 'dedicated', workerUrl: DEDICATED_ENTRY });
    const second = connectSessionInWorker({ url: info.url, session: info.session, mode: 'dedicated', workerUrl: DEDICATED_ENTRY });
    try {
      await Promise.all([conn.ready, second.ready]);
      expect([conn.mode, second.mode]).to.deep.equal(['dedicated', 'dedicated']);
      expect((await hostInfo(info.session)).sockets).to.equal(2);
    } finally {
      second.close();
    }
  });

  it('runs in the page when neither SharedWorker nor Worker exists', async () => {
    delete g.SharedWorker;
    delete g.Worker;
    const info = await freshSession();
    conn = connectSessionInWorker({ url: info.url, session: info.session, workerUrl: SHARED_ENTRY });
    expect(conn.mode).to.equal('page');
    await conn.ready;
    expect(serverKind(conn.store.getState(), 'gamma')).to.equal('ready');
  });

  it('falls back past a cross-origin worker URL, which the browser refuses, to the page', async () => {
    const { otherOrigin } = (await (await fetch('/__test/env.json')).json()) as { otherOrigin: string };
    const info = await freshSession();
    conn = connectSessionInWorker({ url: info.url, session: info.session, workerUrl: `${otherOrigin}/shared-worker-entry.js` });
    expect(conn.mode).to.equal('page');
    await conn.ready;
    expect(serverKind(conn.store.getState(), 'alpha')).to.equal('ready');
  });

  it('fails ready with the reason when the worker script cannot load', async () => {
    const info = await freshSession();
    conn = connectSessionInWorker({ url: info.url, session: info.session, mode: 'dedicated', workerUrl: '/no-such-worker.js' });
    let error: unknown;
    await conn.ready.catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('/no-such-worker.js');
    expect(conn.handle.getConnectionState().kind).to.equal('closed');
  });
});

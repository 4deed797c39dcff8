import { proxy, releaseProxy, wrap, type Endpoint } from 'comlink';
import { connectionStateHub } from '../client/connection-state.js';
import { createMcpChannel } from '../client/mcp-channel.js';
import { buildSessionHandle, type SessionHandle } from '../client/session-handle.js';
import { connectSession } from '../connection/connect-session.js';
import { findMcpServer } from '../reducers/customizations.js';
import type { SessionStoreLike } from '../store/types.js';
import type { ActionSizeLimits } from '../store/channel-routing.js';
import { workerChannelClient } from './worker-channel-client.js';
import type { SessionWorkerApi, WorkerEvent } from './worker-messages.js';
import { WorkerSessionStore } from './worker-session-store.js';
import { errorText } from '../protocol/guards.js';
import { randomId } from '../protocol/random-id.js';

/** Where the store runs: a SharedWorker (one WebSocket for every same-origin page), a dedicated Worker, or the page itself. */
export type WorkerMode = 'shared' | 'dedicated' | 'page';

export interface WorkerSessionOptions {
  /** Host WebSocket URL (`ws://…`). */
  url: string;
  /** Session channel URI (`ahp-session:/…`). */
  session: string;
  /** Client id; pages that share a worker and a clientId share one connection. */
  clientId?: string;
  /** Preferred mode (default `shared`); falls back shared → dedicated → page when the browser lacks one (or refuses `workerUrl`). */
  mode?: 'shared' | 'dedicated';
  /**
   * The worker module (ESM, same origin as the page for SharedWorker). Default: `./shared-worker-entry.js`
   * or `./dedicated-worker-entry.js` next to this module (`new URL(…, import.meta.url)`), which is right for
   * the npm build under a bundler and for the dev server; either entry serves both worker kinds.
   */
  workerUrl?: string | URL;
  /** How long a dispatched action may wait for its echo. */
  pendingTimeoutMs?: number;
  /** Size limits checked before sending, on the page and in the worker (as `connectSession`'s `limits`). */
  limits?: ActionSizeLimits;
}

export interface WorkerSessionConnection {
  /** The store elements use: synchronous reads over a mirror of the store in the worker. */
  store: SessionStoreLike;
  /** Connection state, authenticate, `mcp://` channels and createChat, forwarded to the worker's connection. */
  handle: SessionHandle;
  /** Resolves once the session snapshot is loaded; rejects when connecting (or the worker) failed. */
  ready: Promise<void>;
  /** Detaches this page (the worker closes the WebSocket when no page uses it); the store stays readable, `closed`. */
  close(): void;
  /** Skips the backoff wait of a pending reconnect. */
  reconnectNow(): void;
  /** The mode actually in use after fallbacks. */
  readonly mode: WorkerMode;
}

/** Options for serving a session from a worker you created yourself. */
export interface EndpointSessionOptions extends Omit<WorkerSessionOptions, 'mode' | 'workerUrl'> {
  /**
   * The name of a Web Lock this page holds until it closes (attaching waits for it); the worker asks for
   * the same lock and detaches the page once it gets it, i.e. once the page is gone.
   */
  lockName?: string | Promise<string | undefined>;
  /** Called after `close()` detached the page (e.g. to terminate a dedicated worker). */
  onClose?: () => void;
  /** Reported as `mode`. */
  mode?: WorkerMode;
}

/** Result of a connection over an endpoint, with a hook to fail it when the worker itself fails. */
interface EndpointConnection extends WorkerSessionConnection {
  fail(reason: string): void;
}


interface LockManagerLike {
  request(name: string, callback: () => Promise<void>): Promise<unknown>;
}

/** Holds a Web Lock for this page until the returned release is called; resolves once it is held (undefined without Web Locks). */
async function holdPageLock(): Promise<{ name: string; release(): void } | undefined> {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (!locks) return undefined;
  const name = `ahp-elements-page-${randomId()}`;
  let release!: () => void;
  const held = new Promise<void>((resolve, reject) => {
    locks
      .request(name, () => {
        resolve();
        return new Promise<void>((r) => (release = r));
      })
      .catch(reject);
  });
  await held;
  return { name, release };
}

/**
 * Attaches to a session worker reachable through a comlink endpoint (a SharedWorker's port, a Worker,
 * a MessagePort) and returns a synchronous store mirroring the worker's store.
 */
export function connectSessionOverEndpoint(endpoint: Endpoint, options: EndpointSessionOptions): EndpointConnection {
  const remote = wrap<SessionWorkerApi>(endpoint);
  let closed = false;
  let settled = false;
  let resolveReady!: () => void;
  let rejectReady!: (err: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // Callers that never await `ready` must not see an unhandled rejection.
  ready.catch(() => {});
  const settle = (error?: string): void => {
    if (settled) return;
    settled = true;
    if (error === undefined) resolveReady();
    else rejectReady(new Error(error));
  };

  let attachment: Promise<number> | undefined;
  /** Runs a call once attached, in call order; `onError` hears about calls that could not be delivered. */
  const call = (fn: (id: number) => unknown, onError?: (err: unknown) => void): void => {
    void attachment!
      .then((id) => fn(id))
      .catch((err: unknown) => {
        if (!closed) onError?.(err);
      });
  };

  const store = new WorkerSessionStore({
    channel: options.session,
    ...(options.limits && { limits: options.limits }),
    bridge: {
      dispatch: (localId, action, channel) =>
        call(
          (id) => remote.dispatch(id, localId, action, channel),
          (err) => {
            const reason = `could not reach the worker: ${errorText(err)}`;
            store.receive([{ type: 'failure', localId, failure: { kind: 'dropped', channel: channel ?? options.session, clientSeq: 0, action, reason } }]);
          },
        ),
      watchChat: (uri) => call((id) => remote.watchChat(id, uri)),
      releaseChat: (uri) => call((id) => remote.releaseChat(id, uri)),
      resync: () => call((id) => remote.resync(id)),
    },
  });

  const connection = connectionStateHub();
  /** Runs a call that answers, once attached; it rejects when this page closes first. */
  const ask = <T>(fn: (id: number) => Promise<T>): Promise<T> => channels.track(attachment!.then(fn));
  const channels = workerChannelClient({
    request: (method, params, timeoutMs) => ask((id) => remote.mcpRequest(id, method, params, timeoutMs)),
    notify: (method, params) => call((id) => remote.mcpNotify(id, method, params)),
    listen: (method) => call((id) => remote.listenMcp(id, method)),
    unlisten: (method) => call((id) => remote.unlistenMcp(id, method)),
  });
  const mode = options.mode ?? 'shared';
  const handle = buildSessionHandle({
    session: options.session,
    mode: mode === 'page' ? 'custom' : mode,
    connection,
    authenticate: (params) => ask((id) => remote.authenticate(id, params)),
    createChat: (params) => ask((id) => remote.createChat(id, params)),
    mcpChannel: (serverId) => createMcpChannel({ client: channels.client, getServer: () => findMcpServer(store.getState(), serverId) }),
    reconnectNow: () => {
      if (!closed) call((id) => remote.reconnectNow(id));
    },
  });

  const sink = proxy((events: WorkerEvent[]) => {
    if (closed || !Array.isArray(events)) return;
    store.receive(events);
    for (const event of events) {
      if (event?.type === 'ready') settle(event.error);
      else if (event?.type === 'connection') connection.set(event.state);
      else if (event?.type === 'notification') channels.deliver(event.method, event.params);
    }
  });

  const shut = (reason: string): void => {
    closed = true;
    store.close(reason);
    channels.close(reason);
    connection.set({ kind: 'closed', reason });
    settle(reason);
  };

  const fail = (reason: string): void => {
    if (closed) return;
    shut(reason);
    remote[releaseProxy]();
  };

  attachment = (async () => {
    const lockName = await options.lockName;
    return remote.attach(
      {
        url: options.url,
        session: options.session,
        ...(options.clientId !== undefined && { clientId: options.clientId }),
        ...(options.pendingTimeoutMs !== undefined && { pendingTimeoutMs: options.pendingTimeoutMs }),
        ...(options.limits && { limits: options.limits }),
        ...(lockName !== undefined && { lockName }),
      },
      sink,
    );
  })();
  attachment.catch((err: unknown) => fail(`could not attach to the session worker: ${errorText(err)}`));

  return {
    store,
    handle,
    ready,
    mode,
    fail,
    reconnectNow: () => handle.reconnectNow(),
    close: () => {
      if (closed) return;
      shut('closed by client');
      void attachment!
        .then((id) => remote.detach(id))
        .catch(() => {})
        .finally(() => {
          remote[releaseProxy]();
          options.onClose?.();
        });
    },
  };
}

function spawnShared(workerUrl: string | URL | undefined): SharedWorker {
  // Literal `new URL(…, import.meta.url)` so bundlers (Vite, webpack) emit the worker next to the app.
  return workerUrl === undefined
    ? new SharedWorker(new URL('./shared-worker-entry.js', import.meta.url), { type: 'module', name: 'ahp-elements-session' })
    : new SharedWorker(workerUrl, { type: 'module', name: 'ahp-elements-session' });
}

function spawnDedicated(workerUrl: string | URL | undefined): Worker {
  return workerUrl === undefined
    ? new Worker(new URL('./dedicated-worker-entry.js', import.meta.url), { type: 'module' })
    : new Worker(workerUrl, { type: 'module' });
}

/** Fails the connection if the worker script does not load (404, syntax error) before it attached. */
function watchWorkerErrors(target: { addEventListener(type: 'error', l: (e: Event) => void): void }, conn: EndpointConnection, url: string | URL | undefined): void {
  target.addEventListener('error', (e) => {
    const message = (e as ErrorEvent).message;
    conn.fail(`the session worker failed${url === undefined ? '' : ` (${String(url)})`}${message ? `: ${message}` : ''}`);
  });
}

/**
 * Connects to an AHP session with the client and store running in a worker: `shared` (default) puts
 * one WebSocket per (url, session, clientId) in a SharedWorker for every same-origin page that asks;
 * `dedicated` uses a Worker of this page. Falls back to a dedicated Worker when SharedWorker is missing,
 * and to an in-page `connectSession` when Worker is missing too. The returned store is synchronous
 * (a mirror kept current by the worker); see `WorkerSessionStore` for how `dispatch` works.
 */
export function connectSessionInWorker(options: WorkerSessionOptions): WorkerSessionConnection {
  const g = globalThis as { SharedWorker?: unknown; Worker?: unknown };
  const { workerUrl } = options;
  const base = {
    url: options.url,
    session: options.session,
    ...(options.clientId !== undefined && { clientId: options.clientId }),
    ...(options.pendingTimeoutMs !== undefined && { pendingTimeoutMs: options.pendingTimeoutMs }),
    ...(options.limits && { limits: options.limits }),
  };

  if ((options.mode ?? 'shared') === 'shared' && typeof g.SharedWorker === 'function') {
    let worker: SharedWorker | undefined;
    try {
      worker = spawnShared(workerUrl);
    } catch {
      // e.g. SecurityError for a cross-origin workerUrl: try a dedicated Worker instead.
    }
    if (worker) {
      const port = worker.port;
      // The page lock lets the worker notice a page that went away without calling close().
      const lock = holdPageLock().catch(() => undefined);
      const conn = connectSessionOverEndpoint(port, {
        ...base,
        mode: 'shared',
        lockName: lock.then((l) => l?.name),
        onClose: () => {
          void lock.then((l) => l?.release());
          port.close();
        },
      });
      watchWorkerErrors(worker, conn, workerUrl);
      return conn;
    }
  }

  if (typeof g.Worker === 'function') {
    let worker: Worker | undefined;
    try {
      worker = spawnDedicated(workerUrl);
    } catch {
      // Fall through to the page.
    }
    if (worker) {
      const w = worker;
      const conn = connectSessionOverEndpoint(w, { ...base, mode: 'dedicated', onClose: () => w.terminate() });
      watchWorkerErrors(w, conn, workerUrl);
      return conn;
    }
  }

  const conn = connectSession({ ...base, createMcpChannel });
  return { store: conn.store, handle: conn.handle, ready: conn.ready, close: () => conn.close(), reconnectNow: () => conn.reconnectNow(), mode: 'page' };
}

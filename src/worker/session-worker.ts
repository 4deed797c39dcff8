import { expose, releaseProxy } from 'comlink';
import { connectSession, type ConnectSessionOptions, type SessionConnection } from '../connection/connect-session.js';
import type { AnyAction } from '../protocol/actions.js';
import type { ChatState, SessionState } from '../protocol/session.js';
import type { ActionFailure } from '../store/types.js';
import { diffState } from './state-patch.js';
import type { AttachOptions, SessionWorkerApi, WorkerCallError, WorkerEvent } from './worker-messages.js';
import { errorText } from '../protocol/guards.js';

export interface SessionWorkerOptions {
  /** Opens a connection; defaults to `connectSession` (Node tests pass one with the `ws` WebSocket). */
  connect?: (options: ConnectSessionOptions) => SessionConnection;
  /** Diagnostics (a page that stopped answering, a throwing watch); default console.warn. */
  log?: (message: string, detail?: unknown) => void;
}

/** Wire clientSeqs remembered per connection to route failures back to the page that dispatched. */
const MAX_ORIGINS = 4096;
const UNSENT = Symbol('unsent');

interface Origin {
  att: Attachment;
  localId: number;
}

interface Entry {
  key: string;
  conn: SessionConnection;
  attachments: Set<Attachment>;
  ready?: Extract<WorkerEvent, { type: 'ready' }>;
  origins: Map<number, Origin>;
  /** The page action being dispatched right now: failures raised inside `store.dispatch` belong to it. */
  current?: Origin & { failed: boolean };
  stop(): void;
}

interface ChatWatch {
  release(): void;
  unsubscribe(): void;
  dirty: boolean;
  sent: ChatState | undefined | typeof UNSENT;
}

interface Attachment {
  id: number;
  entry: Entry;
  sink: (events: WorkerEvent[]) => unknown;
  queue: WorkerEvent[];
  stateDirty: boolean;
  sentState: SessionState | undefined | typeof UNSENT;
  chats: Map<string, ChatWatch>;
  /** Host notification methods the page listens to: count and the client listener's remover. */
  notifications: Map<string, { count: number; stop(): void }>;
  scheduled: boolean;
  detached: boolean;
}



const toCallError = (err: unknown): WorkerCallError => {
  const e = err as { name?: unknown; message?: unknown; code?: unknown; data?: unknown } | undefined;
  const out: WorkerCallError = { name: typeof e?.name === 'string' ? e.name : 'Error', message: errorText(err) };
  if (typeof e?.code === 'number') out.code = e.code;
  if (e?.data !== undefined) out.data = e.data;
  return out;
};

/** Runs a call for a page, turning any failure into a `WorkerCallError`. */
async function relay<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toCallError(err);
  }
}

const isMcpChannelParams = (params: unknown): params is Record<string, unknown> & { channel: string } =>
  typeof params === 'object' && params !== null && typeof (params as { channel?: unknown }).channel === 'string' && (params as { channel: string }).channel.startsWith('mcp:');

/**
 * The worker side of worker mode: one `connectSession` (client + SessionStore) per (url, session,
 * clientId), shared by every page attached to it. Each page gets its own ordered event stream: the
 * newest session view (sent only when it changed, coalesced per microtask), its watched chats,
 * connection state, acks and failures of its own dispatches.
 */
export function createSessionWorkerApi(options: SessionWorkerOptions = {}): SessionWorkerApi {
  const connect = options.connect ?? connectSession;
  const log = options.log ?? ((message: string, detail?: unknown) => console.warn(`[ahp worker] ${message}`, ...(detail === undefined ? [] : [detail])));
  const entries = new Map<string, Entry>();
  const attachments = new Map<number, Attachment>();
  let nextId = 0;

  const schedule = (att: Attachment): void => {
    if (att.scheduled || att.detached) return;
    att.scheduled = true;
    queueMicrotask(() => flush(att));
  };

  const push = (att: Attachment, event: WorkerEvent): void => {
    att.queue.push(event);
    schedule(att);
  };

  const flush = (att: Attachment): void => {
    att.scheduled = false;
    if (att.detached) return;
    const { store } = att.entry.conn;
    const batch: WorkerEvent[] = [];
    // Changes, not whole states: the diff walks only what the reducers copied since the view last sent.
    if (att.stateDirty) {
      att.stateDirty = false;
      const state = store.getState();
      if (state !== att.sentState) {
        const ops = att.sentState === UNSENT ? undefined : diffState(att.sentState, state);
        if (!ops) batch.push({ type: 'state', state });
        else if (ops.length > 0) batch.push({ type: 'patch', ops });
      }
      att.sentState = state;
    }
    for (const [uri, watch] of att.chats) {
      if (!watch.dirty) continue;
      watch.dirty = false;
      const state = store.getChatState(uri);
      if (state !== watch.sent) {
        const ops = watch.sent === UNSENT ? undefined : diffState(watch.sent, state);
        if (!ops) batch.push({ type: 'chat', uri, state });
        else if (ops.length > 0) batch.push({ type: 'chat-patch', uri, ops });
      }
      watch.sent = state;
    }
    batch.push(...att.queue);
    att.queue = [];
    if (batch.length === 0) return;
    try {
      void Promise.resolve(att.sink(batch)).catch((err: unknown) => log('a page did not take its events', err));
    } catch (err) {
      log('a page did not take its events', err);
    }
  };

  const remember = (entry: Entry, clientSeq: number, origin: Origin): void => {
    entry.origins.set(clientSeq, origin);
    if (entry.origins.size > MAX_ORIGINS) entry.origins.delete(entry.origins.keys().next().value as number);
  };

  const open = (key: string, attach: AttachOptions): Entry => {
    const conn = connect({
      url: attach.url,
      session: attach.session,
      ...(attach.clientId !== undefined && { clientId: attach.clientId }),
      ...(attach.pendingTimeoutMs !== undefined && { pendingTimeoutMs: attach.pendingTimeoutMs }),
      ...(attach.limits && { limits: attach.limits }),
    });
    const { store, handle } = conn;
    const entry: Entry = { key, conn, attachments: new Set(), origins: new Map(), stop: () => {} };
    const stops = [
      store.subscribe(() => {
        for (const att of entry.attachments) {
          att.stateDirty = true;
          schedule(att);
        }
      }),
      handle.subscribeConnection((state) => {
        for (const att of entry.attachments) push(att, { type: 'connection', state });
      }),
      store.onActionFailed((failure: ActionFailure) => {
        let origin: Origin | undefined = entry.origins.get(failure.clientSeq);
        if (origin) entry.origins.delete(failure.clientSeq);
        else if (entry.current) {
          origin = entry.current;
          entry.current.failed = true;
        }
        if (origin && !origin.att.detached) push(origin.att, { type: 'failure', localId: origin.localId, failure });
      }),
    ];
    entry.stop = () => stops.forEach((stop) => stop());
    const settle = (event: Extract<WorkerEvent, { type: 'ready' }>): void => {
      entry.ready = event;
      for (const att of entry.attachments) push(att, event);
    };
    conn.ready.then(
      () => settle({ type: 'ready' }),
      (err: unknown) => settle({ type: 'ready', error: errorText(err) }),
    );
    entries.set(key, entry);
    return entry;
  };

  const attached = (id: number): Attachment => {
    const att = attachments.get(id);
    if (!att) throw new Error('this page is not attached to the session worker (closed)');
    return att;
  };

  const releaseChat = (att: Attachment, uri: string): void => {
    const watch = att.chats.get(uri);
    if (!watch) return;
    att.chats.delete(uri);
    watch.unsubscribe();
    watch.release();
  };

  const api: SessionWorkerApi = {
    attach(attach, sink) {
      if (typeof attach?.url !== 'string' || typeof attach.session !== 'string') throw new TypeError('attach needs a url and a session');
      const key = JSON.stringify([attach.url, attach.session, attach.clientId ?? null]);
      // A connection that is closed for good (failed to connect, gave up reconnecting) is not reused.
      const known = entries.get(key);
      const entry = known && known.conn.handle.getConnectionState().kind !== 'closed' ? known : open(key, attach);
      const att: Attachment = {
        id: ++nextId,
        entry,
        sink,
        queue: [],
        stateDirty: true,
        sentState: UNSENT,
        chats: new Map(),
        notifications: new Map(),
        scheduled: false,
        detached: false,
      };
      entry.attachments.add(att);
      attachments.set(att.id, att);
      push(att, { type: 'connection', state: entry.conn.handle.getConnectionState() });
      if (entry.ready) push(att, entry.ready);
      const locks = (globalThis as { navigator?: { locks?: { request(name: string, cb: () => void): Promise<unknown> } } }).navigator?.locks;
      // Granted only once the page released it: closed, navigated away or crashed.
      if (attach.lockName && locks) locks.request(attach.lockName, () => api.detach(att.id)).catch((err: unknown) => log('could not watch the page lock', err));
      return att.id;
    },

    dispatch(id, localId, action: AnyAction, channel) {
      const att = attachments.get(id);
      if (!att) return;
      const entry = att.entry;
      const current = { att, localId, failed: false };
      entry.current = current;
      let clientSeq: number | undefined;
      try {
        clientSeq = entry.conn.store.dispatch(action, channel);
      } catch (err) {
        const failure: ActionFailure = { kind: 'dropped', channel: channel ?? entry.conn.store.channel, clientSeq: 0, action, reason: errorText(err) };
        push(att, { type: 'failure', localId, failure });
      } finally {
        entry.current = undefined;
      }
      if (clientSeq === undefined) return push(att, { type: 'ack', localId, clientSeq: 0 });
      if (!current.failed) remember(entry, clientSeq, { att, localId });
      push(att, { type: 'ack', localId, clientSeq });
    },

    watchChat(id, uri) {
      const att = attachments.get(id);
      if (!att || att.chats.has(uri)) return;
      const { store } = att.entry.conn;
      let release: () => void;
      try {
        release = store.watchChat(uri);
      } catch (err) {
        log(`could not watch ${String(uri)}`, err);
        return;
      }
      const watch: ChatWatch = {
        release,
        unsubscribe: store.subscribeChat(uri, () => {
          watch.dirty = true;
          schedule(att);
        }),
        dirty: true,
        sent: UNSENT,
      };
      att.chats.set(uri, watch);
      schedule(att);
    },

    releaseChat(id, uri) {
      const att = attachments.get(id);
      if (att) releaseChat(att, uri);
    },

    reconnectNow(id) {
      attachments.get(id)?.entry.conn.reconnectNow();
    },

    resync(id) {
      const att = attachments.get(id);
      if (!att) return;
      att.sentState = UNSENT;
      att.stateDirty = true;
      for (const watch of att.chats.values()) {
        watch.sent = UNSENT;
        watch.dirty = true;
      }
      schedule(att);
    },

    authenticate(id, params) {
      return relay(async () => {
        await attached(id).entry.conn.handle.authenticate(params);
      });
    },

    createChat(id, params) {
      return relay(async () => {
        const { conn } = attached(id).entry;
        if (typeof params !== 'object' || params === null) throw new TypeError('createChat needs params');
        await conn.client.request('createChat', { ...params, channel: conn.store.channel });
      });
    },

    mcpRequest(id, method, params, timeoutMs) {
      return relay(async () => {
        const { conn } = attached(id).entry;
        if (typeof method !== 'string' || !isMcpChannelParams(params)) throw new TypeError('mcpRequest needs a method and params.channel (an mcp:// URI)');
        return conn.client.request(method, params, typeof timeoutMs === 'number' ? { timeoutMs } : undefined);
      });
    },

    mcpNotify(id, method, params) {
      const att = attached(id);
      if (typeof method !== 'string' || !isMcpChannelParams(params)) throw new TypeError('mcpNotify needs a method and params.channel (an mcp:// URI)');
      att.entry.conn.client.notify(method, params);
    },

    listenMcp(id, method) {
      const att = attachments.get(id);
      if (!att || typeof method !== 'string') return;
      const known = att.notifications.get(method);
      if (known) {
        known.count++;
        return;
      }
      const stop = att.entry.conn.client.onNotification(method, (params) => push(att, { type: 'notification', method, params }));
      att.notifications.set(method, { count: 1, stop });
    },

    unlistenMcp(id, method) {
      const att = attachments.get(id);
      const known = att?.notifications.get(method);
      if (!att || !known || --known.count > 0) return;
      att.notifications.delete(method);
      known.stop();
    },

    detach(id) {
      const att = attachments.get(id);
      if (!att) return;
      attachments.delete(id);
      att.detached = true;
      for (const uri of [...att.chats.keys()]) releaseChat(att, uri);
      for (const n of att.notifications.values()) n.stop();
      att.notifications.clear();
      const entry = att.entry;
      entry.attachments.delete(att);
      for (const [seq, origin] of entry.origins) if (origin.att === att) entry.origins.delete(seq);
      (att.sink as { [releaseProxy]?: () => void })[releaseProxy]?.();
      if (entry.attachments.size > 0) return;
      if (entries.get(entry.key) === entry) entries.delete(entry.key);
      entry.stop();
      entry.conn.close();
    },

    stats() {
      return { connections: new Set([...attachments.values()].map((a) => a.entry)).size, attachments: attachments.size };
    },
  };
  return api;
}

/**
 * Serves a session worker API on the current worker global scope: every SharedWorker connection
 * (`onconnect`) or the dedicated worker itself. Returns false (doing nothing) anywhere else, e.g. in Node.
 */
export function serveSessionWorker(api: SessionWorkerApi = createSessionWorkerApi()): boolean {
  const scope = globalThis as unknown as Record<string, unknown>;
  const isScope = (name: string): boolean => typeof scope[name] === 'function' && globalThis instanceof (scope[name] as abstract new () => unknown);
  if (isScope('SharedWorkerGlobalScope')) {
    scope.onconnect = (event: MessageEvent) => {
      const port = event.ports[0];
      if (port) expose(api, port);
    };
    return true;
  }
  if (isScope('DedicatedWorkerGlobalScope')) {
    expose(api, globalThis as unknown as Parameters<typeof expose>[1]);
    return true;
  }
  return false;
}

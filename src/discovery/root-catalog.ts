import { AhpClient } from '../client/ahp-client.js';
import { RpcError } from '../client/errors.js';
import type { Logger, Transport } from '../client/transport.js';
import { WebSocketTransport, type WebSocketConstructorLike } from '../client/websocket-transport.js';
import {
  DEFAULT_SESSION_META_KEY,
  ErrorCode,
  ROOT_CHANNEL,
  ROOT_NOTIFICATIONS,
  type ActionEnvelope,
  type RootState,
  type SessionSummary,
  type Snapshot,
} from '../protocol/index.js';
import { rootReducer } from '../reducers/root-reducer.js';
import { isRecord } from '../protocol/guards.js';

/** What a client knows about a host's root channel: its state and the session list. */
export interface RootCatalog {
  /** The `ahp-root://` state (agents, …); undefined before its snapshot or when the host has no root channel. */
  root: RootState | undefined;
  /** The host's sessions (`listSessions`, kept current by the `root/session*` notifications), in the host's order. */
  sessions: SessionSummary[];
  /** The session to open when none was named: the host's default if it lists it, else the only one; else undefined. */
  defaultSession: string | undefined;
}

/** The default session: the host's (`RootState._meta.defaultSession`) when listed, else the only session. */
export function pickDefaultSession(root: RootState | undefined, sessions: readonly SessionSummary[]): string | undefined {
  const meta = root?._meta?.[DEFAULT_SESSION_META_KEY];
  if (typeof meta === 'string' && sessions.some((s) => s.resource === meta)) return meta;
  return sessions.length === 1 ? sessions[0]!.resource : undefined;
}


/** A live view of a host's root channel over an initialized client. */
export interface RootWatch {
  getCatalog(): RootCatalog;
  /** Called after every change. Returns an unsubscribe function. */
  subscribe(listener: (catalog: RootCatalog) => void): () => void;
  /** Fetches the session list again (do this after a reconnect: notifications are not replayed). */
  refresh(): Promise<void>;
  /** Stops listening (and unsubscribes the root channel). */
  dispose(): void;
}

/**
 * Watches the root channel through an initialized client: subscribes `ahp-root://` (or takes the snapshot
 * it already has), applies root actions with the root reducer, fetches every `listSessions` page and applies
 * `root/sessionAdded|Removed|SummaryChanged`. Resolves once the first state and list are in.
 */
export async function watchRoot(client: AhpClient, options: { snapshot?: Snapshot; log?: Logger } = {}): Promise<RootWatch> {
  const log = options.log ?? (() => {});
  let root: RootState | undefined;
  let cursor = 0;
  let sessions: SessionSummary[] = [];
  const listeners = new Set<(c: RootCatalog) => void>();
  const catalog = (): RootCatalog => ({ root, sessions, defaultSession: pickDefaultSession(root, sessions) });
  const emit = (): void => {
    const c = catalog();
    for (const l of [...listeners]) {
      try {
        l(c);
      } catch (err) {
        log('root listener threw', err);
      }
    }
  };
  const buffered: ActionEnvelope[] = [];
  const apply = (env: ActionEnvelope): void => {
    if (env.channel !== ROOT_CHANNEL || env.rejectionReason !== undefined) return;
    if (!root) return void buffered.push(env);
    if (env.serverSeq <= cursor) return;
    cursor = env.serverSeq;
    const next = rootReducer(root, env.action);
    if (next !== root) {
      root = next;
      emit();
    }
  };
  const offs = [
    client.onAction(apply),
    client.onNotification(ROOT_NOTIFICATIONS.sessionAdded, (p) => {
      const summary = isRecord(p) && isRecord(p.summary) && typeof p.summary.resource === 'string' ? (p.summary as SessionSummary) : undefined;
      if (!summary) return;
      sessions = [...sessions.filter((s) => s.resource !== summary.resource), summary];
      emit();
    }),
    client.onNotification(ROOT_NOTIFICATIONS.sessionRemoved, (p) => {
      const uri = isRecord(p) ? p.session : undefined;
      const next = sessions.filter((s) => s.resource !== uri);
      if (next.length === sessions.length) return;
      sessions = next;
      emit();
    }),
    client.onNotification(ROOT_NOTIFICATIONS.sessionSummaryChanged, (p) => {
      if (!isRecord(p) || !isRecord(p.changes)) return;
      const { resource: _r, provider: _p, createdAt: _c, ...changes } = p.changes;
      let changed = false;
      sessions = sessions.map((s) => {
        if (s.resource !== p.session) return s;
        changed = true;
        const next: Record<string, unknown> = { ...s };
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === undefined) delete next[k];
          else next[k] = v;
        }
        return next as SessionSummary;
      });
      if (changed) emit();
    }),
  ];
  const refresh = async (): Promise<void> => {
    const all: SessionSummary[] = [];
    let cursorParam: string | undefined;
    try {
      for (let page = 0; page < 100; page++) {
        const result = await client.listSessions(cursorParam ? { cursor: cursorParam } : {});
        all.push(...(result.items as SessionSummary[]));
        if (!result.nextCursor) break;
        cursorParam = result.nextCursor;
      }
    } catch (err) {
      if (!(err instanceof RpcError && err.code === ErrorCode.MethodNotFound)) throw err;
    }
    sessions = all;
    emit();
  };
  let snapshot = options.snapshot;
  if (!snapshot) {
    try {
      snapshot = (await client.subscribe(ROOT_CHANNEL)).snapshot;
    } catch (err) {
      // A host without a root channel still may list its sessions.
      if (!(err instanceof RpcError)) throw err;
      log('the host has no root channel', err);
    }
  }
  if (snapshot && isRecord(snapshot.state) && Array.isArray((snapshot.state as Record<string, unknown>).agents)) {
    root = snapshot.state as unknown as RootState;
    cursor = snapshot.fromSeq;
    for (const env of buffered.splice(0)) apply(env);
  }
  await refresh();
  return {
    getCatalog: catalog,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    refresh,
    dispose() {
      for (const off of offs) off();
      listeners.clear();
      if (!client.closed) client.unsubscribe(ROOT_CHANNEL);
    },
  };
}

/** How `discoverSessions` reaches the host. */
export interface DiscoverSessionsOptions {
  /** Host WebSocket URL (`ws://…`). */
  url?: string;
  /** A ready transport instead of `url`. */
  transport?: Transport;
  /** WebSocket implementation (Node: `ws`); default the global one. */
  WebSocket?: WebSocketConstructorLike;
  protocols?: string | string[];
  clientInfo?: { name: string; version?: string; title?: string };
  log?: Logger;
}

/**
 * One look at a host's sessions: connects, initializes with `ahp-root://` in `initialSubscriptions`, reads the
 * root state and every `listSessions` page, and closes. Use `defaultSession` to open the host's default (or only)
 * session, or show `sessions` for a choice.
 */
export async function discoverSessions(options: DiscoverSessionsOptions): Promise<RootCatalog> {
  let transport = options.transport;
  if (!transport) {
    if (!options.url) throw new TypeError('discoverSessions needs a url or a transport');
    // Each reads an undefined option as an absent one; an empty protocols string stays out, as it always has.
    transport = await WebSocketTransport.connect(options.url, { WebSocket: options.WebSocket, protocols: options.protocols || undefined, log: options.log });
  }
  const client = new AhpClient({ transport, clientInfo: options.clientInfo, log: options.log });
  try {
    const init = await client.initialize({ initialSubscriptions: [ROOT_CHANNEL] });
    const snapshot = init.snapshots.find((s) => s.resource === ROOT_CHANNEL);
    const watch = await watchRoot(client, { snapshot, log: options.log });
    const result = watch.getCatalog();
    watch.dispose();
    return result;
  } finally {
    client.close();
  }
}

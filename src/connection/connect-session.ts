import { AhpClient, type ListSessionsResult } from '../client/ahp-client.js';
import { UnusableReconnectResultError, type ReconnectOutcome } from '../client/reconnect-result.js';
import { backoffDelay, type BackoffOptions } from '../client/backoff.js';
import { deferTransport } from '../client/deferred-transport.js';
import { ConnectionClosedError, ProtocolVersionMismatchError, RpcError, UnsupportedProtocolVersionError } from '../client/errors.js';
import { connectionStateHub } from '../client/connection-state.js';
import type { McpChannel, McpChannelOptions } from '../client/mcp-channel.js';
import { buildSessionHandle, type SessionHandle } from '../client/session-handle.js';
import type { Logger, Transport } from '../client/transport.js';
import { WebSocketTransport, type WebSocketConstructorLike } from '../client/websocket-transport.js';
import { ErrorCode, type ActionEnvelope, type ChannelRecovery, type Snapshot } from '../protocol/index.js';
import { findMcpServer } from '../reducers/customizations.js';
import { SessionStore, type SessionStoreOptions } from '../store/index.js';
import { errorText } from '../protocol/guards.js';

/** Automatic reconnect after the connection drops: exponential backoff with jitter, capped. */
export interface ReconnectPolicy extends BackoffOptions {
  /** Attempts before giving up with state `closed` (default Infinity). */
  maxAttempts?: number;
}

export interface ConnectSessionOptions {
  /** Host WebSocket URL (`ws://…`); not needed when `transport` or `createTransport` is given. */
  url?: string;
  /** Session channel URI (`ahp-session:/…`). */
  session: string;
  clientId?: string;
  /** WebSocket implementation; defaults to `globalThis.WebSocket` (Node: pass `WebSocket` from `ws`). */
  WebSocket?: WebSocketConstructorLike;
  /** WebSocket subprotocols. */
  protocols?: string | string[];
  /** Use this transport for the first connection instead of opening a WebSocket. */
  transport?: Transport;
  /** Opens a transport: used for the first connection (unless `transport` is given) and for every reconnect. */
  createTransport?: () => Promise<Transport>;
  /**
   * Reconnect automatically after the connection drops (not after `close()`); on by default whenever
   * a new transport can be opened (`url` or `createTransport`). `false` turns it off.
   */
  reconnect?: false | ReconnectPolicy;
  clientInfo?: { name: string; version?: string; title?: string };
  requestTimeoutMs?: number;
  /** How long a dispatched action may wait for its echo. */
  pendingTimeoutMs?: number;
  /** Size limits checked before sending (see SessionStoreOptions.limits); match a host configured with other limits. */
  limits?: SessionStoreOptions['limits'];
  log?: Logger;
  /**
   * When the store's listeners hear of received envelopes (`SessionStoreOptions.scheduleNotify`); by default at the
   * next microtask, so everything that arrives in one task is folded and told once (`<ahp-session>`: once per
   * animation frame).
   */
  scheduleNotify?: SessionStoreOptions['scheduleNotify'];
  /**
   * Gives the handle its `mcp://` capability (MCP Apps): pass `createMcpChannel` from `ahp-elements/mcp-channel`.
   * Kept out of the core entry; `<ahp-session>` passes it.
   */
  createMcpChannel?: (options: McpChannelOptions) => McpChannel;
}

export interface SessionConnection {
  /** State, selectors and dispatch. */
  store: SessionStore;
  /** What the connection can do beyond state: connection state, authenticate, `mcp://` channels, createChat. */
  handle: SessionHandle;
  /** The one client of this connection; it survives reconnects (same clientId, monotonic clientSeq). */
  client: AhpClient;
  /** Resolves once the session snapshot is loaded; rejects with the connect, initialize or subscribe error. */
  ready: Promise<void>;
  /** Closes the connection for good; the store stays readable with connection state `closed`. */
  close(): void;
  /** Skips the backoff wait of a pending reconnect, or starts reconnecting again after giving up. */
  reconnectNow(): void;
  /** The last `listSessions` page (fetched after every connect and reconnect); undefined if unknown or unsupported. */
  readonly sessions: ListSessionsResult | undefined;
  /** Called with every fresh `listSessions` page. */
  onSessions(listener: (sessions: ListSessionsResult) => void): () => void;
}

/** Why recovery gave up on the session for good. */
class SessionGoneError extends Error {}

/** Pending actions still unconfirmed after recovery were not accepted by the host (AHP §3.4). */
const DROP_REASON = 'not accepted before reconnect';


/**
 * Connects to an AHP host, initializes, subscribes to one session and feeds a SessionStore. After an
 * unexpected drop it reconnects with backoff: `reconnect` with the store's cursor (replay or snapshot,
 * either result shape), falling back to `initialize` + `subscribe` on hosts without `reconnect`.
 */
export function connectSession(options: ConnectSessionOptions): SessionConnection {
  const { session } = options;
  const log = options.log ?? (() => {});
  let openTransport = options.createTransport;
  if (!openTransport && options.url) {
    const url = options.url;
    // connect reads an undefined option as an absent one; an empty protocols string stays out, as it always has.
    const wsOptions = { WebSocket: options.WebSocket, protocols: options.protocols || undefined, log: options.log };
    openTransport = () => WebSocketTransport.connect(url, wsOptions);
  }
  if (!options.transport && !openTransport) throw new TypeError('connectSession needs a url, a transport or createTransport');
  const transport = options.transport ?? deferTransport(openTransport!());
  const policy: ReconnectPolicy | undefined = options.reconnect === false || !openTransport ? undefined : { ...options.reconnect };

  // AhpClient reads an undefined option as an absent one.
  const client = new AhpClient({
    transport,
    clientId: options.clientId,
    clientInfo: options.clientInfo,
    requestTimeoutMs: options.requestTimeoutMs,
    log: options.log,
  });

  /** `connecting` → `open` ⇄ (`waiting` → `recovering`) → `closed`. */
  let phase: 'connecting' | 'open' | 'waiting' | 'recovering' | 'closed' = 'connecting';
  let userClosed = false;
  let reconnectUnsupported = false;
  /** Whether the session was ever loaded: before that, a retry is a first `initialize`, not a `reconnect`. */
  let everOpen = false;
  let wake: (() => void) | undefined;
  /** Live envelopes that arrive while a recovery answer is being applied; flushed after it. */
  let held: ActionEnvelope[] | undefined;
  let sessions: ListSessionsResult | undefined;
  const sessionListeners = new Set<(s: ListSessionsResult) => void>();
  const connection = connectionStateHub();

  const store = new SessionStore({
    channel: session,
    clientId: client.clientId,
    send: (params) => {
      // Throwing lets the store report the action as dropped at once instead of after its timeout.
      if (phase !== 'open' || client.closed) throw new ConnectionClosedError(phase === 'closed' ? undefined : 'not connected');
      client.dispatch(params);
    },
    nextClientSeq: () => client.nextClientSeq(),
    // The host handles messages in order, so a ping answered after an action means its echo went out first.
    confirmSent: () => (phase === 'open' ? client.ping() : Promise.reject(new ConnectionClosedError('not connected'))),
    // Watched chats subscribe over the same client; after a drop, recovery brings them back with the session.
    subscribeChannel: async (uri) => {
      // A chat watched while (re)connecting is subscribed once the connection is open.
      if (phase !== 'open') await whenOpen();
      return snapshotOf(uri);
    },
    unsubscribeChannel: (uri) => client.unsubscribe(uri),
    pendingTimeoutMs: options.pendingTimeoutMs,
    ...(options.limits && { limits: options.limits }),
    // Envelopes that arrive in one task (one socket read in Node, a replay) are folded and told as one change.
    scheduleNotify: options.scheduleNotify ?? queueMicrotask,
  });

  /** Subscribes a channel and returns its snapshot (one is required). */
  const snapshotOf = async (uri: string): Promise<Snapshot> => {
    const { snapshot } = await client.subscribe(uri);
    if (!snapshot) throw new Error(`The host sent no snapshot for ${uri}`);
    return snapshot as Snapshot;
  };

  let openWaiters: { resolve(): void; reject(err: Error): void }[] = [];
  /** Resolves when the connection is next open; rejects if it closes first. */
  const whenOpen = (): Promise<void> => new Promise((resolve, reject) => openWaiters.push({ resolve, reject }));
  const settleWaiters = (err?: Error): void => {
    const waiters = openWaiters;
    openWaiters = [];
    for (const w of waiters) (err ? w.reject(err) : w.resolve());
  };

  const markClosed = (reason?: string, overrideReason = false): void => {
    if (phase === 'closed' && !overrideReason) return;
    phase = 'closed';
    // For good: whatever still waits for an echo will not get one on this connection.
    store.dropPending(reason ?? 'connection closed');
    connection.set(reason === undefined ? { kind: 'closed' } : { kind: 'closed', reason });
    settleWaiters(new ConnectionClosedError(reason));
  };
  const markOpen = (): void => {
    phase = 'open';
    everOpen = true;
    connection.set({ kind: 'open' });
    settleWaiters();
    void refreshSessions();
  };

  const refreshSessions = async (): Promise<void> => {
    try {
      sessions = await client.listSessions();
    } catch (err) {
      if (!(err instanceof RpcError && err.code === ErrorCode.MethodNotFound) && !(err instanceof ConnectionClosedError)) log('listSessions failed', err);
      return;
    }
    for (const l of [...sessionListeners]) {
      try {
        l(sessions);
      } catch (err) {
        log('sessions listener threw', err);
      }
    }
  };

  // Registered before subscribe: the store buffers envelopes that race the first snapshot.
  client.onAction((env) => {
    if (held) held.push(env);
    else store.receive(env);
  });
  client.onClose((reason) => {
    if (userClosed || phase === 'closed') return;
    if (phase === 'open') {
      if (policy) void reconnectLoop(reason ?? 'connection lost');
      else markClosed(reason);
    }
    // While connecting, `ready` reports the failure; while recovering, the attempt's requests reject.
  });

  /** Subscribes a channel anew and loads its snapshot; the session vanishing ends the connection. */
  const subscribeFresh = async (channel: string): Promise<void> => {
    let snapshot;
    try {
      snapshot = await snapshotOf(channel);
    } catch (err) {
      if (err instanceof RpcError && err.code === ErrorCode.SessionNotFound) {
        if (channel === session) throw new SessionGoneError(`The host no longer has ${session}`);
        log(`could not resubscribe ${channel}`, err);
        return;
      }
      throw err;
    }
    store.loadSnapshot(snapshot);
  };

  /** Applies one channel's recovery; the others (watched chats) are best effort. */
  const applyRecovery = (recovery: ChannelRecovery): void => {
    if (recovery.kind === 'replay') store.receiveAll(recovery.actions);
    else if (recovery.kind === 'snapshot') store.loadSnapshot(recovery.snapshot);
    else if (recovery.channel === session) throw new SessionGoneError(`The host no longer has ${session}`);
    else log(`the host no longer has ${recovery.channel}`);
  };

  /**
   * Resynchronises the store on a freshly attached transport: `reconnect` with one cursor per channel
   * (the session and every watched chat), else `initialize` + `subscribe`. Throws to fail the attempt.
   */
  const recover = async (): Promise<void> => {
    held = [];
    try {
      const cursors = store.getChannelCursors();
      // Asked about, so a snapshot recovery still tells which of them the host applied (their echoes were lost).
      const pendingClientSeqs = store.getPendingClientSeqs();
      let outcome: ReconnectOutcome | undefined;
      /** The host took a `reconnect` (it answered with a result), so it may refuse a second handshake. */
      let answered = false;
      const tryReconnect = async (shape?: 'legacy'): Promise<ReconnectOutcome | undefined> => {
        try {
          const result = await client.reconnect(cursors, { shape, pendingClientSeqs });
          answered = true;
          return result;
        } catch (err) {
          // An answer nobody can use is no reason to give up: initialize + subscribe instead (AHP §3.4).
          if (!(err instanceof UnusableReconnectResultError)) throw err;
          answered = true;
          log('unusable reconnect answer; falling back to initialize + subscribe', err);
          return undefined;
        }
      };
      if (!reconnectUnsupported && everOpen) {
        try {
          outcome = await tryReconnect();
        } catch (err) {
          if (!(err instanceof RpcError)) throw err;
          // -32601: no `reconnect` at all; -32600: host does not know us (restarted) or wants initialize first.
          if (err.code === ErrorCode.MethodNotFound) reconnectUnsupported = true;
          else if (err.code === ErrorCode.InvalidParams) outcome = await tryReconnect('legacy').catch(() => undefined);
          else if (err.code !== ErrorCode.InvalidRequest) throw err;
        }
      }
      if (outcome) {
        const recovered = new Set(outcome.channels.map((r) => r.channel));
        // Session first, so its being gone ends the attempt before anything else changes.
        for (const r of outcome.channels.filter((r) => r.channel === session)) applyRecovery(r);
        for (const r of outcome.channels.filter((r) => r.channel !== session)) applyRecovery(r);
        // Channels the host left out of its answer are asked for directly.
        for (const { channel } of cursors) if (!recovered.has(channel)) await subscribeFresh(channel);
        if (outcome.actionOutcomes) store.settlePending(outcome.actionOutcomes);
      } else {
        try {
          await client.initialize();
        } catch (err) {
          // A host that accepted the reconnect refuses a second handshake; its connection is already set up.
          if (!(answered && err instanceof RpcError && err.code === ErrorCode.InvalidRequest)) throw err;
        }
        for (const { channel } of cursors) await subscribeFresh(channel);
      }
    } catch (err) {
      // Live envelopes of a failed attempt must not move the cursor past what was never replayed.
      held = undefined;
      throw err;
    }
    const live = held;
    held = undefined;
    // Sent after the answer, so never older than it; overlap is dropped by the store's cursor.
    store.receiveAll(live);
    store.dropPending(DROP_REASON);
  };

  /** Retries with backoff until open (true), given up, the session gone or closed by the user (false). */
  const reconnectLoop = async (firstReason: string): Promise<boolean> => {
    const maxAttempts = policy?.maxAttempts ?? Infinity;
    let lastError = firstReason;
    for (let attempt = 1; !userClosed; attempt++) {
      if (attempt > maxAttempts) {
        store.dropPending(`gave up reconnecting: ${lastError}`);
        markClosed(`gave up reconnecting after ${maxAttempts} attempt${maxAttempts === 1 ? '' : 's'}: ${lastError}`);
        return false;
      }
      phase = 'waiting';
      const delay = backoffDelay(attempt, policy);
      connection.set({ kind: 'reconnecting', attempt, nextAttemptAt: Date.now() + delay });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => resolve(), delay);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      if (userClosed) return false;
      phase = 'recovering';
      try {
        const next = await openTransport!();
        if (userClosed) {
          next.close();
          return false;
        }
        client.replaceTransport(next);
        await recover();
        if (userClosed) return false;
        // A drop during recovery that no request noticed would otherwise leave us "open" on a dead transport.
        if (client.closed) throw new ConnectionClosedError('closed during recovery');
        markOpen();
        return true;
      } catch (err) {
        if (!client.closed) client.close();
        if (userClosed) return false;
        // Neither a vanished session nor a protocol the two sides cannot agree on gets better by retrying;
        // before the session ever loaded, any answer from the host (RpcError) is final too.
        if (err instanceof SessionGoneError || err instanceof ProtocolVersionMismatchError || err instanceof UnsupportedProtocolVersionError || (!everOpen && err instanceof RpcError)) {
          // markClosed drops the pending actions with the same reason.
          markClosed(errorText(err));
          return false;
        }
        lastError = errorText(err);
      }
    }
    return false;
  };

  const ready = (async () => {
    try {
      await client.initialize();
      store.loadSnapshot(await snapshotOf(session));
      if (phase === 'connecting' && !client.closed) markOpen();
      else if (!userClosed) throw new ConnectionClosedError('closed while connecting');
    } catch (err) {
      client.close();
      // An unreachable host or a dropped first connection is retried like a later drop; an answer (RpcError) is final.
      if (policy && !userClosed && !(err instanceof RpcError || err instanceof ProtocolVersionMismatchError)) {
        if (await reconnectLoop(errorText(err))) return;
        const state = connection.get();
        throw new ConnectionClosedError(state.kind === 'closed' ? state.reason : undefined);
      }
      // The error says more than the close that may have raced it (e.g. after -32005 the host hangs up).
      markClosed(errorText(err), true);
      throw err;
    }
  })();
  // Callers that never await `ready` must not crash Node with an unhandled rejection.
  ready.catch(() => {});

  const reconnectNow = (): void => {
    if (userClosed || !policy) return;
    if (phase === 'waiting') wake?.();
    else if (phase === 'closed') void reconnectLoop('reconnect requested');
  };
  const makeChannel = options.createMcpChannel;
  const handle = buildSessionHandle({
    session,
    mode: 'page',
    connection,
    ...(!policy && { unavailable: { reconnect: 'reconnect is off' } }),
    authenticate: (params) => client.authenticate(params),
    createChat: (params) => client.request('createChat', params),
    ...(makeChannel && { mcpChannel: (serverId: string) => makeChannel({ client, getServer: () => findMcpServer(store.getState(), serverId) }) }),
    reconnectNow,
  });

  return {
    store,
    handle,
    client,
    ready,
    close: () => {
      userClosed = true;
      wake?.();
      client.close();
      markClosed('closed by client');
    },
    reconnectNow,
    get sessions() {
      return sessions;
    },
    onSessions(listener) {
      sessionListeners.add(listener);
      return () => void sessionListeners.delete(listener);
    },
  };
}

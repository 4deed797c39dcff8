import { AhpClient } from './client/ahp-client.js';
import { deferTransport } from './client/deferred-transport.js';
import { ConnectionClosedError } from './client/errors.js';
import type { Logger, Transport } from './client/transport.js';
import { WebSocketTransport, type WebSocketConstructorLike } from './client/websocket-transport.js';
import { SessionStore } from './store/index.js';

export interface ConnectSessionOptions {
  /** Host WebSocket URL (`ws://…`); not needed when `transport` is given. */
  url?: string;
  /** Session channel URI (`ahp-session:/…`). */
  session: string;
  clientId?: string;
  /** WebSocket implementation; defaults to `globalThis.WebSocket` (Node: pass `WebSocket` from `ws`). */
  WebSocket?: WebSocketConstructorLike;
  /** WebSocket subprotocols. */
  protocols?: string | string[];
  /** Use this transport instead of opening a WebSocket. */
  transport?: Transport;
  clientInfo?: { name: string; version?: string; title?: string };
  requestTimeoutMs?: number;
  /** How long a dispatched action may wait for its echo. */
  pendingTimeoutMs?: number;
  log?: Logger;
}

export interface SessionConnection {
  store: SessionStore;
  client: AhpClient;
  /** Resolves once the session snapshot is loaded; rejects with the connect, initialize or subscribe error. */
  ready: Promise<void>;
  /** Closes the connection; the store stays readable with connection state `closed`. */
  close(): void;
}

/** Connects to an AHP host, initializes, subscribes to one session and feeds a SessionStore. */
export function connectSession(options: ConnectSessionOptions): SessionConnection {
  const { session } = options;
  let transport = options.transport;
  if (!transport) {
    if (!options.url) throw new TypeError('connectSession needs a url or a transport');
    const wsOptions: Parameters<typeof WebSocketTransport.connect>[1] = {};
    if (options.WebSocket) wsOptions.WebSocket = options.WebSocket;
    if (options.protocols) wsOptions.protocols = options.protocols;
    if (options.log) wsOptions.log = options.log;
    transport = deferTransport(WebSocketTransport.connect(options.url, wsOptions));
  }

  const client = new AhpClient({
    transport,
    ...(options.clientId !== undefined && { clientId: options.clientId }),
    ...(options.clientInfo !== undefined && { clientInfo: options.clientInfo }),
    ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.log !== undefined && { log: options.log }),
  });
  const store = new SessionStore({
    channel: session,
    clientId: client.clientId,
    send: (params) => {
      // Throwing lets the store report the action as dropped at once instead of after its timeout.
      if (client.closed) throw new ConnectionClosedError();
      client.dispatch(params);
    },
    nextClientSeq: () => client.nextClientSeq(),
    ...(options.pendingTimeoutMs !== undefined && { pendingTimeoutMs: options.pendingTimeoutMs }),
  });

  let isClosed = false;
  const markClosed = (reason?: string, overrideReason = false): void => {
    if (isClosed && !overrideReason) return;
    isClosed = true;
    store.setConnectionState(reason === undefined ? { kind: 'closed' } : { kind: 'closed', reason });
  };

  store.setConnectionState({ kind: 'connecting' });
  // Registered before subscribe: the store buffers envelopes that race the snapshot.
  client.onAction((env) => {
    if (env.channel === session) store.receive(env);
  });
  client.onClose((reason) => markClosed(reason));

  const ready = (async () => {
    try {
      await client.initialize();
      const { snapshot } = await client.subscribe(session);
      if (!snapshot) throw new Error(`The host sent no snapshot for ${session}`);
      store.loadSnapshot(snapshot);
      if (!isClosed) store.setConnectionState({ kind: 'open' });
    } catch (err) {
      client.close();
      // The error says more than the close that may have raced it (e.g. after -32005 the host hangs up).
      markClosed(err instanceof Error ? err.message : String(err), true);
      throw err;
    }
  })();
  // Callers that never await `ready` must not crash Node with an unhandled rejection.
  ready.catch(() => {});

  return {
    store,
    client,
    ready,
    close: () => {
      client.close();
      markClosed('closed by client');
    },
  };
}

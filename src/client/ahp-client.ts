import {
  ErrorCode,
  PROTOCOL_VERSIONS,
  ROOT_CHANNEL,
  type ActionEnvelope,
  type AuthenticateParams,
  type ChannelReplayCursor,
  type DispatchActionParams,
  type InitializeParams,
  type InitializeResult,
  type ReconnectParams,
  type SubscribeResult,
  type URI,
} from '../protocol/index.js';
import { ProtocolVersionMismatchError, RpcError, UnsupportedProtocolVersionError } from './errors.js';
import { JsonRpcPeer, type NotificationHandler, type RequestHandler } from './json-rpc-peer.js';
import { normalizeReconnectResult, type ReconnectOutcome } from './reconnect-result.js';
import { MAX_PENDING_ASKED, PENDING_ACTIONS_META_KEY, outcomesAnswered } from '../protocol/action-outcomes.js';
import { warnLogger, type Logger, type Transport } from './transport.js';
import { isActionEnvelope, isRecord } from '../protocol/guards.js';
import { randomId } from '../protocol/random-id.js';

export interface AhpClientOptions {
  transport: Transport;
  /** Opaque per-client id, reused for reconnect; a random UUID when omitted. */
  clientId?: string;
  clientInfo?: { name: string; version?: string; title?: string };
  /** Per-request timeout in ms (default 30 000). */
  requestTimeoutMs?: number;
  log?: Logger;
}

export interface InitializeOptions {
  initialSubscriptions?: URI[];
  /** BCP-47 locale. */
  locale?: string;
  /** Versions to offer, most preferred first; defaults to PROTOCOL_VERSIONS. */
  protocolVersions?: readonly string[];
}

export type AuthenticateRequest = Omit<AuthenticateParams, 'channel'>;

export interface ReconnectOptions {
  /**
   * Request shape: `per-channel` (default; one cursor per channel) or `legacy` (one watermark, the
   * lowest cursor, so no channel misses anything; overlap is dropped by the per-channel cursors).
   * Either result shape is accepted whichever was sent.
   */
  shape?: 'per-channel' | 'legacy';
  /**
   * clientSeqs still waiting for an echo: the host is asked what became of them (ahp-elements extension,
   * see protocol/action-outcomes.ts); its answer is `actionOutcomes` of the result.
   */
  pendingClientSeqs?: readonly number[];
}

/** One `listSessions` page; summaries are passed through as the host sent them. */
export interface ListSessionsResult {
  items: ({ resource: URI } & Record<string, unknown>)[];
  nextCursor?: string;
}


/**
 * An AHP client: initialize or reconnect, subscribe, action envelopes, dispatch, commands. It talks
 * over one transport at a time; after a drop, `replaceTransport` continues on a new one with the same
 * clientId, clientSeq counter and listeners.
 */
export class AhpClient {
  /** This client's id (sent in `initialize`/`reconnect`, echoed in `origin` of its actions). */
  readonly clientId: string;
  #peer: JsonRpcPeer;
  readonly #peerOptions: { requestTimeoutMs: number | undefined; log: Logger };
  readonly #clientInfo: AhpClientOptions['clientInfo'];
  readonly #log: Logger;
  readonly #actionListeners = new Set<(env: ActionEnvelope) => void>();
  readonly #notificationListeners = new Map<string, Set<NotificationHandler>>();
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #closeListeners = new Set<(reason?: string) => void>();
  #clientSeq = 0;
  #initializeResult: InitializeResult | undefined;

  constructor(options: AhpClientOptions) {
    this.clientId = options.clientId ?? randomId();
    this.#clientInfo = options.clientInfo;
    this.#log = options.log ?? warnLogger;
    // The peer reads an undefined timeout as its default.
    this.#peerOptions = { log: this.#log, requestTimeoutMs: options.requestTimeoutMs };
    this.#peer = this.#wire(options.transport);
  }

  /**
   * Continues on a new transport after the current one closed (reconnect). Listeners, the clientId and
   * the clientSeq counter carry over; follow with `reconnect(...)` or `initialize()`. Throws while the
   * current transport is still open.
   */
  replaceTransport(transport: Transport): void {
    if (!this.#peer.closed) throw new Error('AhpClient.replaceTransport: the current connection is still open');
    this.#peer = this.#wire(transport);
  }

  /** The `initialize` result, once initialized. */
  get initializeResult(): InitializeResult | undefined {
    return this.#initializeResult;
  }

  /** True once the connection closed. */
  get closed(): boolean {
    return this.#peer.closed;
  }

  /**
   * Negotiates the protocol version and declares `capabilities.mcpApps`. Rejects with
   * UnsupportedProtocolVersionError on -32005, and with ProtocolVersionMismatchError (closing the
   * connection) when the host answers with a version that was not offered, or none.
   */
  async initialize(options: InitializeOptions = {}): Promise<InitializeResult> {
    const protocolVersions = [...(options.protocolVersions ?? PROTOCOL_VERSIONS)];
    const params: InitializeParams = { channel: ROOT_CHANNEL, protocolVersions, clientId: this.clientId, capabilities: { mcpApps: {} } };
    if (this.#clientInfo) params.clientInfo = this.#clientInfo;
    if (options.initialSubscriptions) params.initialSubscriptions = options.initialSubscriptions;
    if (options.locale) params.locale = options.locale;
    let result: InitializeResult;
    try {
      result = await this.#peer.request<InitializeResult>('initialize', params);
    } catch (err) {
      if (err instanceof RpcError && err.code === ErrorCode.UnsupportedProtocolVersion) {
        const data = isRecord(err.data) ? err.data : {};
        const supported = Array.isArray(data.supportedVersions) ? data.supportedVersions.filter((v): v is string => typeof v === 'string') : [];
        throw new UnsupportedProtocolVersionError(protocolVersions, supported, err.data);
      }
      throw err;
    }
    const chosen = isRecord(result) ? result.protocolVersion : undefined;
    if (typeof chosen !== 'string' || !protocolVersions.includes(chosen)) {
      this.#peer.close();
      throw new ProtocolVersionMismatchError(protocolVersions, chosen);
    }
    this.#initializeResult = result;
    return result;
  }

  /** Subscribes to a channel; the snapshot's `fromSeq` tells which later envelopes apply. Register `onAction` first. */
  subscribe(channel: URI): Promise<SubscribeResult> {
    return this.#peer.request<SubscribeResult>('subscribe', { channel });
  }

  /** Stops receiving envelopes for a channel. */
  unsubscribe(channel: URI): void {
    this.#peer.notify('unsubscribe', { channel });
  }

  /** Sends `dispatchAction` (a notification: the echo arrives as an `action` envelope, or nothing for unknown channels). */
  dispatch(params: DispatchActionParams): void {
    this.#peer.notify('dispatchAction', params);
  }

  /** Next clientSeq for a dispatch: monotonic from 1 for this client. */
  nextClientSeq(): number {
    return ++this.#clientSeq;
  }

  /** Listens for `action` envelopes on every channel. Returns an unsubscribe function. */
  onAction(listener: (env: ActionEnvelope) => void): () => void {
    this.#actionListeners.add(listener);
    return () => this.#actionListeners.delete(listener);
  }

  /** Listens for other server notifications (`auth/required`, `root/sessionAdded`, …), across transports. */
  onNotification(method: string, listener: NotificationHandler): () => void {
    let set = this.#notificationListeners.get(method);
    if (!set) {
      this.#notificationListeners.set(method, (set = new Set()));
      this.#peer.onNotification(method, (params) => this.#notify(method, params));
    }
    set.add(listener);
    return () => void set.delete(listener);
  }

  /** Serves a server-to-client request (one handler per method); unserved ones are answered with -32601. */
  onRequest(method: string, handler: RequestHandler): () => void {
    if (!this.#requestHandlers.has(method)) this.#peer.onRequest(method, (params) => this.#serve(method, params));
    this.#requestHandlers.set(method, handler);
    return () => {
      if (this.#requestHandlers.get(method) === handler) this.#requestHandlers.delete(method);
    };
  }

  /** Called each time the current transport closes, with the reason. */
  onClose(listener: (reason?: string) => void): () => void {
    this.#closeListeners.add(listener);
    return () => void this.#closeListeners.delete(listener);
  }

  /**
   * Sends `reconnect` as the first message of a new transport (instead of `initialize`) and returns one
   * recovery per requested channel, whichever result shape the host answered with. Channels the host
   * left out of a per-channel answer are left out here too (resubscribe them). Rejects with RpcError
   * (-32601 from hosts without `reconnect`, -32600 from hosts that do not know this clientId).
   */
  async reconnect(cursors: readonly ChannelReplayCursor[], options: ReconnectOptions = {}): Promise<ReconnectOutcome> {
    const params: ReconnectParams =
      options.shape === 'legacy'
        ? {
            channel: ROOT_CHANNEL,
            clientId: this.clientId,
            lastSeenServerSeq: cursors.length > 0 ? Math.min(...cursors.map((c) => c.lastSeenServerSeq)) : 0,
            subscriptions: cursors.map((c) => c.channel),
          }
        : { channel: ROOT_CHANNEL, clientId: this.clientId, subscriptions: cursors.map((c) => ({ channel: c.channel, lastSeenServerSeq: c.lastSeenServerSeq })) };
    const asked = [...new Set(options.pendingClientSeqs ?? [])].slice(0, MAX_PENDING_ASKED);
    if (asked.length > 0) params._meta = { [PENDING_ACTIONS_META_KEY]: asked };
    const result = await this.#peer.request('reconnect', params);
    const outcome = normalizeReconnectResult(result, cursors, this.#log);
    return asked.length > 0 ? { ...outcome, actionOutcomes: outcomesAnswered(result, asked) } : outcome;
  }

  /** One page of the host's session list (`listSessions`); notifications are not replayed, so re-fetch after reconnect. */
  async listSessions(params: { limit?: number; cursor?: string; filter?: unknown } = {}): Promise<ListSessionsResult> {
    const result = await this.#peer.request<unknown>('listSessions', { ...params, channel: ROOT_CHANNEL });
    const r = isRecord(result) ? result : {};
    const items = Array.isArray(r.items) ? r.items.filter((i): i is ListSessionsResult['items'][number] => isRecord(i) && typeof i.resource === 'string') : [];
    return typeof r.nextCursor === 'string' ? { items, nextCursor: r.nextCursor } : { items };
  }

  /** Hands a bearer token (empty string revokes) for a protected resource to the host. */
  async authenticate(params: AuthenticateRequest): Promise<void> {
    await this.#peer.request('authenticate', { ...params, channel: ROOT_CHANNEL });
  }

  /** Round trip to the host (answered even before initialize). */
  async ping(): Promise<void> {
    await this.#peer.request('ping', { channel: ROOT_CHANNEL });
  }

  /** Sends any request; `timeoutMs` overrides the client's per-request timeout (0 or Infinity: none). */
  request<R = unknown>(method: string, params?: unknown, options?: { timeoutMs?: number }): Promise<R> {
    return this.#peer.request<R>(method, params, options);
  }

  /** Sends any notification (dropped while closed). */
  notify(method: string, params?: unknown): void {
    this.#peer.notify(method, params);
  }

  /** Closes the connection; pending requests reject with ConnectionClosedError. */
  close(): void {
    this.#peer.close();
  }

  #wire(transport: Transport): JsonRpcPeer {
    const peer = new JsonRpcPeer(transport, this.#peerOptions);
    // Listening from the start means envelopes racing a subscribe or reconnect answer are never lost.
    peer.onNotification('action', (params) => this.#deliver(params));
    for (const method of this.#notificationListeners.keys()) peer.onNotification(method, (params) => this.#notify(method, params));
    for (const method of this.#requestHandlers.keys()) peer.onRequest(method, (params) => this.#serve(method, params));
    peer.onClose((reason) => {
      for (const listener of [...this.#closeListeners]) {
        try {
          listener(reason);
        } catch (err) {
          this.#log('close listener threw', err);
        }
      }
    });
    return peer;
  }

  #notify(method: string, params: unknown): void {
    for (const listener of [...(this.#notificationListeners.get(method) ?? [])]) {
      try {
        listener(params);
      } catch (err) {
        this.#log(`notification listener for '${method}' threw`, err);
      }
    }
  }

  #serve(method: string, params: unknown): unknown {
    const handler = this.#requestHandlers.get(method);
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    return handler(params);
  }

  #deliver(params: unknown): void {
    if (!isActionEnvelope(params)) {
      this.#log('skipped a malformed action envelope', params);
      return;
    }
    for (const listener of [...this.#actionListeners]) {
      try {
        listener(params);
      } catch (err) {
        this.#log('action listener threw', err);
      }
    }
  }
}

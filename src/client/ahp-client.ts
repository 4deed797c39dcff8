import {
  ErrorCode,
  PROTOCOL_VERSIONS,
  ROOT_CHANNEL,
  type ActionEnvelope,
  type AuthenticateParams,
  type DispatchActionParams,
  type InitializeParams,
  type InitializeResult,
  type SubscribeResult,
  type URI,
} from '../protocol/index.js';
import { RpcError, UnsupportedProtocolVersionError } from './errors.js';
import { JsonRpcPeer, type NotificationHandler, type RequestHandler } from './json-rpc-peer.js';
import { warnLogger, type Logger, type Transport } from './transport.js';

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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isEnvelope(v: unknown): v is ActionEnvelope {
  return isObject(v) && typeof v.channel === 'string' && typeof v.serverSeq === 'number' && isObject(v.action) && typeof v.action.type === 'string';
}

function randomId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `client-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** An AHP client over one transport: initialize, subscribe, action envelopes, dispatch, commands. */
export class AhpClient {
  /** This client's id (sent in `initialize`, echoed in `origin` of its actions). */
  readonly clientId: string;
  readonly #peer: JsonRpcPeer;
  readonly #clientInfo: AhpClientOptions['clientInfo'];
  readonly #log: Logger;
  readonly #actionListeners = new Set<(env: ActionEnvelope) => void>();
  #clientSeq = 0;
  #initializeResult: InitializeResult | undefined;

  constructor(options: AhpClientOptions) {
    this.clientId = options.clientId ?? randomId();
    this.#clientInfo = options.clientInfo;
    this.#log = options.log ?? warnLogger;
    const peerOptions: { requestTimeoutMs?: number; log: Logger } = { log: this.#log };
    if (options.requestTimeoutMs !== undefined) peerOptions.requestTimeoutMs = options.requestTimeoutMs;
    this.#peer = new JsonRpcPeer(options.transport, peerOptions);
    // Listening from the start means envelopes racing a subscribe answer are never lost.
    this.#peer.onNotification('action', (params) => this.#deliver(params));
  }

  /** The `initialize` result, once initialized. */
  get initializeResult(): InitializeResult | undefined {
    return this.#initializeResult;
  }

  /** True once the connection closed. */
  get closed(): boolean {
    return this.#peer.closed;
  }

  /** Negotiates the protocol version and declares `capabilities.mcpApps`. Rejects with UnsupportedProtocolVersionError on -32005. */
  async initialize(options: InitializeOptions = {}): Promise<InitializeResult> {
    const protocolVersions = [...(options.protocolVersions ?? PROTOCOL_VERSIONS)];
    const params: InitializeParams = { channel: ROOT_CHANNEL, protocolVersions, clientId: this.clientId, capabilities: { mcpApps: {} } };
    if (this.#clientInfo) params.clientInfo = this.#clientInfo;
    if (options.initialSubscriptions) params.initialSubscriptions = options.initialSubscriptions;
    if (options.locale) params.locale = options.locale;
    try {
      this.#initializeResult = await this.#peer.request<InitializeResult>('initialize', params);
      return this.#initializeResult;
    } catch (err) {
      if (err instanceof RpcError && err.code === ErrorCode.UnsupportedProtocolVersion) {
        const data = isObject(err.data) ? err.data : {};
        const supported = Array.isArray(data.supportedVersions) ? data.supportedVersions.filter((v): v is string => typeof v === 'string') : [];
        throw new UnsupportedProtocolVersionError(protocolVersions, supported, err.data);
      }
      throw err;
    }
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

  /** Listens for other server notifications (`auth/required`, `root/sessionAdded`, …). */
  onNotification(method: string, listener: NotificationHandler): () => void {
    return this.#peer.onNotification(method, listener);
  }

  /** Serves a server-to-client request; unserved ones are answered with -32601. */
  onRequest(method: string, handler: RequestHandler): () => void {
    return this.#peer.onRequest(method, handler);
  }

  /** Called once when the connection closes, with the reason. */
  onClose(listener: (reason?: string) => void): () => void {
    return this.#peer.onClose(listener);
  }

  /** Hands a bearer token (empty string revokes) for a protected resource to the host. */
  async authenticate(params: AuthenticateRequest): Promise<void> {
    await this.#peer.request('authenticate', { ...params, channel: ROOT_CHANNEL });
  }

  /** Round trip to the host (answered even before initialize). */
  async ping(): Promise<void> {
    await this.#peer.request('ping', { channel: ROOT_CHANNEL });
  }

  /** Sends any request. */
  request<R = unknown>(method: string, params?: unknown): Promise<R> {
    return this.#peer.request<R>(method, params);
  }

  /** Closes the connection; pending requests reject with ConnectionClosedError. */
  close(): void {
    this.#peer.close();
  }

  #deliver(params: unknown): void {
    if (!isEnvelope(params)) {
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

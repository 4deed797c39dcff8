import {
  ErrorCode,
  type ActionEnvelope,
  type ChatState,
  type DispatchActionParams,
  type InitializeResult,
  type ReconnectResult,
  type RootState,
  type SessionState,
  type Snapshot,
  type SubscribeResult,
} from '../protocol/index.js';
import { RpcError } from '../rpc/errors.js';
import { JsonRpcServer } from '../rpc/json-rpc-server.js';
import type { JsonRpcPayload } from '../rpc/transport.js';
import type { ChannelKind } from './channel-registry.js';
import { outcomesMeta, parseReconnect, recoverChannels, recoverLegacy, type RecoverySource } from './reconnect.js';
import type { ClientActionOutcome } from '../protocol/action-outcomes.js';
import { stripMcpAppsFromAction, stripMcpAppsFromState } from './strip-mcp-apps.js';
import { negotiateVersion } from './version-negotiation.js';
import { isRecord } from '../protocol/guards.js';

/** What the host needs from one connection's outgoing side: the sending half of a `Transport` (any Transport fits). */
export interface HostPeer {
  send(msg: object): void;
  close(reason?: string): void;
}

/** What the embedder feeds from one connection's incoming side. */
export interface HostConnection {
  /** One incoming message: a parsed object, or a raw text/binary frame. Never throws. */
  receive(msg: unknown): void;
  /** The transport closed. */
  closed(): void;
}

export type HostLogger = (message: string, detail?: unknown) => void;

export type RequestContext = { clientId: string };
export type HostRequestHandler = (params: unknown, ctx: RequestContext) => unknown;

/** What a connection negotiated in `initialize`; a later `reconnect` with the same clientId resumes with it. */
export interface ClientProfile {
  protocolVersion: string;
  mcpApps: boolean;
}

/** Serves one message routed by its `params.channel`; `notification` is true when no answer is expected. */
export type ChannelRoute = (method: string, params: Record<string, unknown>, ctx: { clientId: string; mcpApps: boolean; notification: boolean }) => unknown;

/** The parts of HostCore a connection calls into. */
export interface HostInternals {
  readonly serverInfo: NonNullable<InitializeResult['serverInfo']>;
  readonly log: HostLogger;
  serverSeq(): number;
  /** A session or chat channel's current state. */
  channelState(uri: string): { kind: ChannelKind; state: SessionState | ChatState | RootState } | undefined;
  clientAction(clientId: string, params: DispatchActionParams): void;
  requestHandler(method: string): HostRequestHandler | undefined;
  actionsSince(channel: string, afterSeq: number): ActionEnvelope[] | undefined;
  rememberClient(clientId: string, profile: ClientProfile): void;
  knownClient(clientId: string): ClientProfile | undefined;
  /** What became of these clientSeqs of this client (only those the host remembers). */
  actionOutcomes(clientId: string, clientSeqs: readonly number[]): ClientActionOutcome[];
  channelRoute(channel: string): ChannelRoute | undefined;
  detach(conn: Connection): void;
}


/** One client connection: JSON-RPC framing, the initialize handshake, subscriptions, per-connection capabilities. */
export class Connection implements HostConnection {
  readonly #host: HostInternals;
  readonly #peer: HostPeer;
  readonly subscriptions = new Set<string>();
  declare clientId: string | undefined;
  mcpApps = false;
  declare protocolVersion: string | undefined;
  #closeAfterAnswer: string | undefined;
  /** JSON-RPC 2.0 in full: raw frames parsed, invalid messages answered, batches; synchronous results answered at once. */
  readonly #rpc: JsonRpcServer;

  constructor(host: HostInternals, peer: HostPeer) {
    this.#host = host;
    this.#peer = peer;
    this.#rpc = new JsonRpcServer({
      send: (payload) => this.#send(payload),
      onRequest: (method, params) => this.#request(method, params),
      onNotification: (method, params) => this.#notification(method, params),
      log: host.log,
    });
  }

  receive(raw: unknown): void {
    try {
      this.#rpc.receive(raw);
    } catch (err) {
      this.#host.log('failed to handle a message', err);
    }
  }

  closed(): void {
    if (this.#rpc.closed) return;
    this.#rpc.close();
    this.subscriptions.clear();
    this.#host.detach(this);
  }

  /** Sends an envelope of a channel this connection subscribed to, shaped for its capabilities. */
  deliver(env: ActionEnvelope): void {
    this.#rpc.notify('action', this.#shape(env));
  }

  /** Sends a notification (e.g. an `mcp://` channel notification) once initialized. */
  notify(method: string, params: unknown): void {
    if (this.clientId !== undefined) this.#rpc.notify(method, params);
  }

  #shape(env: ActionEnvelope): ActionEnvelope {
    const action = this.mcpApps ? env.action : stripMcpAppsFromAction(env.action);
    return action === env.action ? env : { ...env, action };
  }

  /** Closes the connection from the host side. */
  close(reason?: string): void {
    if (this.#rpc.closed) return;
    try {
      this.#peer.close(reason);
    } catch (err) {
      this.#host.log('failed to close a connection', err);
    }
    this.closed();
  }

  #send(payload: JsonRpcPayload): void {
    try {
      this.#peer.send(payload);
    } finally {
      // The -32005 answer went out: the connection closes after it.
      const reason = this.#closeAfterAnswer;
      if (reason !== undefined) this.close(reason);
    }
  }

  #request(method: string, params: unknown): unknown {
    try {
      return this.#dispatchRequest(method, params);
    } catch (err) {
      if (method === 'initialize' && err instanceof RpcError && err.code === ErrorCode.UnsupportedProtocolVersion) this.#closeAfterAnswer = 'unsupported protocol version';
      throw err;
    }
  }

  #dispatchRequest(method: string, params: unknown): unknown {
    if (method === 'ping') return null;
    if (method === 'initialize') return this.#initialize(params);
    if (method === 'reconnect') return this.#reconnect(params);
    if (this.clientId === undefined) throw new RpcError(ErrorCode.InvalidRequest, `'${method}' before 'initialize'`);
    if (method === 'subscribe') return this.#subscribe(params);
    const route = isRecord(params) && typeof params.channel === 'string' ? this.#host.channelRoute(params.channel) : undefined;
    if (route) return route(method, params as Record<string, unknown>, { clientId: this.clientId, mcpApps: this.mcpApps, notification: false });
    const handler = this.#host.requestHandler(method);
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    return handler(params, { clientId: this.clientId });
  }

  #initialize(params: unknown): InitializeResult {
    if (this.clientId !== undefined) throw new RpcError(ErrorCode.InvalidRequest, 'Already initialized');
    if (!isRecord(params) || !Array.isArray(params.protocolVersions) || typeof params.clientId !== 'string' || params.clientId === '') {
      throw new RpcError(ErrorCode.InvalidParams, "initialize needs 'protocolVersions' (string[]) and 'clientId' (string)");
    }
    const negotiation = negotiateVersion(params.protocolVersions);
    if (negotiation.kind === 'malformed') {
      throw new RpcError(ErrorCode.InvalidParams, `Malformed protocol version: ${JSON.stringify(negotiation.value)}`);
    }
    if (negotiation.kind === 'unsupported') {
      throw new RpcError(
        ErrorCode.UnsupportedProtocolVersion,
        `None of the offered protocol versions is supported (supported: ${negotiation.supportedVersions.join(', ')})`,
        { supportedVersions: negotiation.supportedVersions },
      );
    }
    this.clientId = params.clientId;
    this.protocolVersion = negotiation.version;
    this.mcpApps = isRecord(params.capabilities) && isRecord(params.capabilities.mcpApps);
    this.#host.rememberClient(this.clientId, { protocolVersion: this.protocolVersion, mcpApps: this.mcpApps });
    const snapshots: Snapshot[] = [];
    if (Array.isArray(params.initialSubscriptions)) {
      for (const uri of params.initialSubscriptions) {
        const snapshot = typeof uri === 'string' ? this.#snapshot(uri) : undefined;
        if (snapshot) {
          this.subscriptions.add(uri as string);
          snapshots.push(snapshot);
        }
      }
    }
    return { protocolVersion: negotiation.version, serverSeq: this.#host.serverSeq(), serverInfo: this.#host.serverInfo, snapshots };
  }

  /**
   * `reconnect` replaces `initialize` as the first message of a new transport (AHP §3.4 / upstream
   * lifecycle: it carries no protocolVersions and no capabilities). The connection resumes with the
   * version and capabilities this clientId negotiated in its last `initialize` on this host; a clientId
   * the host does not know (e.g. after a host restart, when its serverSeq history is gone) gets
   * -32600 so the client falls back to `initialize` + `subscribe` instead of trusting a replay.
   * Both shapes are served: per-channel cursors → `{channels}`, legacy watermark + URIs → `{type}`.
   */
  #reconnect(params: unknown): ReconnectResult {
    if (this.clientId !== undefined) throw new RpcError(ErrorCode.InvalidRequest, 'Already initialized');
    const parsed = parseReconnect(params);
    if ('error' in parsed) throw new RpcError(ErrorCode.InvalidParams, parsed.error);
    const profile = this.#host.knownClient(parsed.clientId);
    if (!profile) throw new RpcError(ErrorCode.InvalidRequest, `Unknown clientId '${parsed.clientId}': send 'initialize' instead`);
    this.clientId = parsed.clientId;
    this.protocolVersion = profile.protocolVersion;
    this.mcpApps = profile.mcpApps;
    const source: RecoverySource = {
      serverSeq: () => this.#host.serverSeq(),
      has: (channel) => this.#host.channelState(channel) !== undefined,
      actionsSince: (channel, afterSeq) => this.#host.actionsSince(channel, afterSeq)?.map((env) => this.#shape(env)),
      snapshot: (channel) => this.#snapshot(channel),
    };
    const outcomes = outcomesMeta(params, (seqs) => this.#host.actionOutcomes(parsed.clientId, seqs));
    if (parsed.shape === 'legacy') {
      const result = recoverLegacy(source, parsed.lastSeenServerSeq, parsed.subscriptions);
      for (const channel of parsed.subscriptions) if (source.has(channel)) this.subscriptions.add(channel);
      return { ...result, ...outcomes };
    }
    const channels = recoverChannels(source, parsed.cursors);
    for (const recovery of channels) if (recovery.kind !== 'missing') this.subscriptions.add(recovery.channel);
    return { channels, ...outcomes };
  }

  #subscribe(params: unknown): SubscribeResult {
    if (!isRecord(params) || typeof params.channel !== 'string') throw new RpcError(ErrorCode.InvalidParams, "subscribe needs 'channel'");
    const snapshot = this.#snapshot(params.channel);
    if (!snapshot) throw new RpcError(ErrorCode.SessionNotFound, `Unknown channel: ${params.channel}`);
    this.subscriptions.add(params.channel);
    return { snapshot };
  }

  #snapshot(uri: string): Snapshot<SessionState | ChatState | RootState> | undefined {
    const ch = this.#host.channelState(uri);
    if (!ch) return undefined;
    const state = ch.kind === 'session' && !this.mcpApps ? stripMcpAppsFromState(ch.state as SessionState) : ch.state;
    return { resource: uri, state, fromSeq: this.#host.serverSeq() };
  }

  #notification(method: string, params: unknown): void {
    if (this.clientId === undefined || !isRecord(params)) return;
    if (method === 'unsubscribe') {
      if (typeof params.channel === 'string') this.subscriptions.delete(params.channel);
    } else if (method === 'dispatchAction') {
      const { channel, clientSeq, action } = params;
      if (typeof channel !== 'string' || typeof clientSeq !== 'number' || !Number.isFinite(clientSeq) || !isRecord(action) || typeof action.type !== 'string') {
        this.#host.log('ignored a malformed dispatchAction', params);
        return;
      }
      this.#host.clientAction(this.clientId, { channel, clientSeq, action: action as DispatchActionParams['action'] });
    } else if (typeof params.channel === 'string') {
      const route = this.#host.channelRoute(params.channel);
      if (!route) return;
      // Notifications get no answer, so a refusal can only be logged.
      const ctx = { clientId: this.clientId, mcpApps: this.mcpApps, notification: true };
      try {
        const result = route(method, params, ctx);
        if (isRecord(result) && typeof result.then === 'function') (result as unknown as Promise<unknown>).catch((err: unknown) => this.#host.log(`'${method}' on ${params.channel} failed`, err));
      } catch (err) {
        this.#host.log(`'${method}' on ${params.channel} failed`, err);
      }
    }
  }
}

import {
  ErrorCode,
  isClientDispatchable,
  type ActionEnvelope,
  type AnyAction,
  type DispatchActionParams,
  type InitializeResult,
  type McpServerCustomization,
  type SessionState,
  type StateAction,
} from '../protocol/index.js';
import { forEachMcpServer, sessionReducer } from '../reducers/index.js';
import { ActionLog } from './action-log.js';
import {
  Connection,
  type ChannelRoute,
  type ClientProfile,
  type HostConnection,
  type HostInternals,
  type HostLogger,
  type HostPeer,
  type HostRequestHandler,
} from './host-connection.js';
import { HostRpcError } from './host-error.js';
import { mcpChannelMethods } from './mcp-channel-methods.js';

export interface HostCoreOptions {
  serverInfo?: NonNullable<InitializeResult['serverInfo']>;
  /** Envelopes kept per channel for reconnect replay (default 1000). */
  actionLogLimit?: number;
  /** Diagnostics (malformed frames, throwing hooks); default console.warn. */
  log?: HostLogger;
  /** How many clientIds to remember for `reconnect` (default 10 000; the oldest are forgotten first). */
  rememberedClients?: number;
}

/** What a channel handler learns about one request or notification. */
export interface ChannelRequestContext {
  clientId: string;
  /** The `params.channel` it was routed by. */
  channel: string;
  /** True for a notification (the return value is ignored). */
  notification: boolean;
  /** For `mcp://` channels: the MCP server customization that advertises this channel. */
  server?: McpServerCustomization;
}

/**
 * Serves messages routed by `params.channel` (e.g. an `mcp://` relay to the real MCP server). `params`
 * still carries `channel`. Throw an error with a numeric `code` to choose the JSON-RPC error.
 */
export type HostChannelHandler = (method: string, params: Record<string, unknown>, ctx: ChannelRequestContext) => unknown;

/** Which channels a handler serves: a URI prefix (e.g. `'mcp://'`) or a predicate. */
export type ChannelMatcher = string | ((channel: string) => boolean);

/** What a hook learns about a client action. */
export interface ClientActionContext {
  channel: string;
  action: StateAction | AnyAction;
  clientId: string;
}

/** Decides about an accepted-type client action before it is applied; return a string to reject it with that reason. */
export type ClientActionGuard = (ctx: ClientActionContext) => string | void;
/** Reacts to a client action after it was applied and broadcast (e.g. really start an MCP server). */
export type ClientActionReaction = (ctx: ClientActionContext & { state: SessionState }) => void;

const BUILT_IN_METHODS = new Set(['initialize', 'reconnect', 'ping', 'subscribe', 'unsubscribe', 'dispatchAction']);
const MCP_SCHEME = 'mcp:';

interface Channel {
  state: SessionState;
  log: ActionLog;
}

/** A transport-agnostic AHP host: owns authoritative session state, sequences actions with one serverSeq, serves connections. */
export class HostCore {
  readonly #channels = new Map<string, Channel>();
  readonly #connections = new Set<Connection>();
  readonly #guards = new Set<ClientActionGuard>();
  readonly #reactions = new Set<ClientActionReaction>();
  readonly #handlers = new Map<string, HostRequestHandler>();
  readonly #channelHandlers: { match: (channel: string) => boolean; handler: HostChannelHandler }[] = [];
  readonly #clients = new Map<string, ClientProfile>();
  readonly #clientLimit: number;
  readonly #logLimit: number;
  readonly #log: HostLogger;
  readonly #internals: HostInternals;
  #serverSeq = 0;

  constructor(options: HostCoreOptions = {}) {
    this.#logLimit = options.actionLogLimit ?? 1000;
    this.#clientLimit = Math.max(1, options.rememberedClients ?? 10_000);
    this.#log = options.log ?? ((message, detail) => console.warn(`[ahp host] ${message}`, ...(detail === undefined ? [] : [detail])));
    this.#internals = {
      serverInfo: options.serverInfo ?? { name: 'ahp-elements host', version: '0.1.0' },
      log: this.#log,
      serverSeq: () => this.#serverSeq,
      sessionState: (uri) => this.#channels.get(uri)?.state,
      clientAction: (clientId, params) => this.#clientAction(clientId, params),
      requestHandler: (method) => this.#handlers.get(method),
      actionsSince: (channel, afterSeq) => this.actionsSince(channel, afterSeq),
      rememberClient: (clientId, profile) => this.#rememberClient(clientId, profile),
      knownClient: (clientId) => this.#clients.get(clientId),
      channelRoute: (channel) => this.#channelRoute(channel),
      detach: (conn) => this.#connections.delete(conn),
    };
  }

  /** The last serverSeq handed out (server-wide, monotonic). */
  get serverSeq(): number {
    return this.#serverSeq;
  }

  /** Creates a session channel with its initial state. Throws if it exists. */
  createSession(uri: string, state: SessionState): void {
    if (this.#channels.has(uri)) throw new Error(`Session already exists: ${uri}`);
    this.#channels.set(uri, { state, log: new ActionLog(this.#logLimit) });
  }

  /** Current authoritative state of a session, or undefined. */
  getSessionState(uri: string): SessionState | undefined {
    return this.#channels.get(uri)?.state;
  }

  /** Envelopes of a channel after `serverSeq`, or undefined when the log no longer reaches back that far (or no such channel). */
  actionsSince(channel: string, serverSeq: number): ActionEnvelope[] | undefined {
    return this.#channels.get(channel)?.log.since(serverSeq);
  }

  /** Serves one connection: pipe its incoming messages into `receive` and its close into `closed`. */
  connect(peer: HostPeer): HostConnection {
    const conn = new Connection(this.#internals, peer);
    this.#connections.add(conn);
    return conn;
  }

  /** Applies a server-originated action (no origin) and broadcasts it. Throws for an unknown channel. */
  dispatchServerAction(channel: string, action: StateAction | AnyAction): ActionEnvelope {
    const ch = this.#channels.get(channel);
    if (!ch) throw new Error(`Unknown channel: ${channel}`);
    ch.state = sessionReducer(ch.state, action);
    return this.#publish(ch, { channel, action, serverSeq: ++this.#serverSeq });
  }

  /** Adds a guard run before a client action is applied. Returns an unregister function. */
  onClientAction(guard: ClientActionGuard): () => void {
    this.#guards.add(guard);
    return () => this.#guards.delete(guard);
  }

  /** Adds a reaction run after a client action was applied. Returns an unregister function. */
  afterClientAction(reaction: ClientActionReaction): () => void {
    this.#reactions.add(reaction);
    return () => this.#reactions.delete(reaction);
  }

  /** Serves an extra request method (after initialize); throw an error with a numeric `code` to choose the error. */
  handleRequest(method: string, handler: (params: unknown, ctx: { clientId: string }) => unknown): () => void {
    if (BUILT_IN_METHODS.has(method)) throw new Error(`'${method}' is built in`);
    this.#handlers.set(method, handler);
    return () => {
      if (this.#handlers.get(method) === handler) this.#handlers.delete(method);
    };
  }

  /**
   * Serves requests and notifications whose `params.channel` matches (checked after the built-in
   * methods, before `handleRequest` handlers). For `mcp://` channels the host first requires the
   * connection to have declared `capabilities.mcpApps` (else -32009), finds the MCP server customization
   * advertising that channel (none → -32008), and answers methods outside the server's advertised
   * `mcpApp.capabilities` with -32601 — the handler only sees what the server really serves.
   */
  handleChannel(match: ChannelMatcher, handler: HostChannelHandler): () => void {
    const entry = { match: typeof match === 'string' ? (channel: string) => channel.startsWith(match) : match, handler };
    this.#channelHandlers.push(entry);
    return () => {
      const at = this.#channelHandlers.indexOf(entry);
      if (at >= 0) this.#channelHandlers.splice(at, 1);
    };
  }

  /** The MCP server customization (in any session, top level or child) whose `channel` is this URI. */
  findMcpServerByChannel(channel: string): McpServerCustomization | undefined {
    let found: McpServerCustomization | undefined;
    for (const { state } of this.#channels.values()) {
      forEachMcpServer(state, (server) => {
        if (!found && server.channel === channel) found = server;
      });
      if (found) return found;
    }
    return undefined;
  }

  /** Sends a notification on a channel (e.g. `notifications/tools/list_changed` on `mcp://…`) to every initialized connection that declared `mcpApps`. Returns how many got it. */
  notifyChannel(channel: string, method: string, params: Record<string, unknown> = {}): number {
    let count = 0;
    for (const conn of this.#connections) {
      if (conn.clientId === undefined || !conn.mcpApps) continue;
      conn.notify(method, { ...params, channel });
      count++;
    }
    return count;
  }

  /** Closes every connection. */
  close(): void {
    for (const conn of [...this.#connections]) conn.close('host closed');
  }

  #rememberClient(clientId: string, profile: ClientProfile): void {
    this.#clients.delete(clientId);
    this.#clients.set(clientId, profile);
    if (this.#clients.size > this.#clientLimit) this.#clients.delete(this.#clients.keys().next().value as string);
  }

  #channelRoute(channel: string): ChannelRoute | undefined {
    const entry = this.#channelHandlers.find((h) => h.match(channel));
    if (!entry) return undefined;
    return (method, params, { clientId, mcpApps, notification }) => {
      const ctx: ChannelRequestContext = { clientId, channel, notification };
      if (channel.startsWith(MCP_SCHEME)) {
        if (!mcpApps) throw new HostRpcError(ErrorCode.PermissionDenied, `${channel} needs capabilities.mcpApps in initialize`);
        const server = this.findMcpServerByChannel(channel);
        if (!server) throw new HostRpcError(ErrorCode.NotFound, `No MCP server has the channel ${channel}`);
        if (!mcpChannelMethods(server.mcpApp?.capabilities).has(method)) {
          throw new HostRpcError(ErrorCode.MethodNotFound, `Method not found: ${method} is not served on ${channel}`);
        }
        ctx.server = server;
      }
      return entry.handler(method, params, ctx);
    };
  }

  #publish(ch: Channel, env: ActionEnvelope): ActionEnvelope {
    ch.log.append(env);
    for (const conn of this.#connections) if (conn.subscriptions.has(env.channel)) conn.deliver(env);
    return env;
  }

  #clientAction(clientId: string, { channel, clientSeq, action }: DispatchActionParams): void {
    const ch = this.#channels.get(channel);
    if (!ch) return; // unknown channels get no echo at all (spec)
    const ctx: ClientActionContext = { channel, action, clientId };
    const origin = { clientId, clientSeq };
    const rejectionReason = this.#guard(ctx);
    if (rejectionReason !== undefined) {
      this.#publish(ch, { channel, action, serverSeq: ++this.#serverSeq, origin, rejectionReason });
      return;
    }
    try {
      ch.state = sessionReducer(ch.state, action);
    } catch (err) {
      this.#log('reducer threw on a client action', err);
      this.#publish(ch, { channel, action, serverSeq: ++this.#serverSeq, origin, rejectionReason: 'The host could not apply this action' });
      return;
    }
    this.#publish(ch, { channel, action, serverSeq: ++this.#serverSeq, origin });
    // After the echo went out, so server actions a reaction dispatches are sequenced after it.
    const state = ch.state;
    for (const reaction of [...this.#reactions]) {
      try {
        reaction({ ...ctx, state });
      } catch (err) {
        this.#log('afterClientAction handler threw', err);
      }
    }
  }

  #guard(ctx: ClientActionContext): string | undefined {
    if (!isClientDispatchable(ctx.action)) return `'${ctx.action.type}' is not a client-dispatchable action`;
    for (const guard of [...this.#guards]) {
      try {
        const verdict = guard(ctx);
        if (typeof verdict === 'string') return verdict || 'Rejected by the host';
      } catch (err) {
        this.#log('onClientAction handler threw', err);
        return `Rejected by the host: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    return undefined;
  }
}

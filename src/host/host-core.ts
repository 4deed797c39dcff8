import { DEFAULT_ACTION_LIMITS, actionLimitViolation, type ActionLimits } from '../protocol/action-limits.js';
import {
  DEFAULT_SESSION_META_KEY,
  ErrorCode,
  ROOT_CHANNEL,
  ROOT_NOTIFICATIONS,
  isClientDispatchable,
  type ActionEnvelope,
  type AgentInfo,
  type AnyAction,
  type ChatState,
  type DispatchActionParams,
  type McpServerCustomization,
  type RootState,
  type SessionState,
  type StateAction,
} from '../protocol/index.js';
import { forEachMcpServer, normalizeCustomizationToggle } from '../reducers/index.js';
import { ChannelHandlers } from './channel-handlers.js';
import { ChannelRegistry, type ChatChannel, type HostChannel } from './channel-registry.js';
import { chatActionRejection } from './chat-rules.js';
import { chatSummaryOf, chatSummarySync } from './chat-summary.js';
import { CHAT_SCHEME, newChatState, parseCreateChat, type CreateChatOptions } from './create-chat.js';
import {
  Connection,
  type ClientProfile,
  type HostConnection,
  type HostInternals,
  type HostLogger,
  type HostPeer,
  type HostRequestHandler,
} from './host-connection.js';
import { RpcError } from '../rpc/errors.js';
import { SessionCatalog } from './session-catalog.js';
import { HostHooks } from './host-hooks.js';
import { sessionActionRejection } from './session-rules.js';
import type {
  ChannelMatcher,
  ChatCreatedListener,
  ClientActionContext,
  ClientActionGuard,
  ClientActionReaction,
  HostChannelHandler,
  HostCoreOptions,
} from './host-types.js';
import { randomId } from '../protocol/random-id.js';
import { ClientActionLog } from './client-action-log.js';

const BUILT_IN_METHODS = new Set(['initialize', 'reconnect', 'ping', 'subscribe', 'unsubscribe', 'dispatchAction', 'createChat', 'listSessions']);

/**
 * The root channel's state: the agents and default session from the options. The optional `activeSessions`
 * count is left out: keeping it would sequence a root action for every session created or disposed, and the
 * session list itself is `listSessions` + the `root/session*` notifications.
 */
function rootStateOf(options: HostCoreOptions): RootState {
  const state: RootState = { agents: options.agents ?? [] };
  if (options.defaultSession !== undefined) state._meta = { [DEFAULT_SESSION_META_KEY]: options.defaultSession };
  return state;
}

/**
 * A transport-agnostic AHP host: owns the authoritative state of session and chat channels, sequences
 * actions with one serverSeq, keeps each chat's entry in its session's `chats` catalog in sync, serves connections.
 */
export class HostCore {
  readonly #channels: ChannelRegistry;
  readonly #connections = new Set<Connection>();
  readonly #hooks: HostHooks;
  readonly #handlers = new Map<string, HostRequestHandler>();
  readonly #commands = new Map<string, HostRequestHandler>();
  readonly #channelHandlers = new ChannelHandlers((channel) => this.findMcpServerByChannel(channel));
  readonly #clients = new Map<string, ClientProfile>();
  readonly #actionOutcomes: ClientActionLog;
  readonly #clientLimit: number;
  readonly #log: HostLogger;
  readonly #now: () => string;
  readonly #internals: HostInternals;
  readonly #catalog = new SessionCatalog();
  readonly #limits: ActionLimits;
  #serverSeq = 0;

  constructor(options: HostCoreOptions = {}) {
    this.#channels = new ChannelRegistry(options.actionLogLimit ?? 1000);
    this.#clientLimit = Math.max(1, options.rememberedClients ?? 10_000);
    this.#actionOutcomes = new ClientActionLog(this.#clientLimit);
    this.#log = options.log ?? ((message, detail) => console.warn(`[ahp host] ${message}`, ...(detail === undefined ? [] : [detail])));
    this.#hooks = new HostHooks(this.#log);
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#limits = { ...DEFAULT_ACTION_LIMITS, ...options.limits };
    this.#channels.addRoot(ROOT_CHANNEL, rootStateOf(options));
    this.#commands.set('listSessions', (params) => this.#catalog.page(params));
    this.#commands.set('createChat', (params, { clientId }) => {
      const { session, chat, options: chatOptions } = parseCreateChat(params);
      const tooLarge = actionLimitViolation({ initialMessage: chatOptions.initialMessage }, this.#limits);
      if (tooLarge) throw new RpcError(ErrorCode.InvalidParams, `createChat refused: ${tooLarge.message}`, tooLarge);
      this.#createChat(session, chat, chatOptions, clientId);
      return null;
    });
    this.#internals = {
      serverInfo: options.serverInfo ?? { name: 'ahp-elements host', version: '0.1.0' },
      log: this.#log,
      serverSeq: () => this.#serverSeq,
      channelState: (uri) => this.#channels.get(uri),
      clientAction: (clientId, params) => this.#clientAction(clientId, params),
      requestHandler: (method) => this.#commands.get(method) ?? this.#handlers.get(method),
      actionsSince: (channel, afterSeq) => this.actionsSince(channel, afterSeq),
      rememberClient: (clientId, profile) => this.#rememberClient(clientId, profile),
      knownClient: (clientId) => this.#clients.get(clientId),
      actionOutcomes: (clientId, clientSeqs) => this.#actionOutcomes.outcomes(clientId, clientSeqs),
      channelRoute: (channel) => this.#channelHandlers.route(channel),
      detach: (conn) => this.#connections.delete(conn),
    };
  }

  /** The action size limits this host enforces on clients (defaults merged with `options.limits`). */
  get limits(): Readonly<ActionLimits> {
    return this.#limits;
  }

  /** The last serverSeq handed out (server-wide, monotonic). */
  get serverSeq(): number {
    return this.#serverSeq;
  }

  /** Creates a session channel with its initial state. Throws if a channel with this URI exists. */
  createSession(uri: string, state: SessionState): void {
    if (this.#channels.has(uri)) throw new Error(`Session already exists: ${uri}`);
    this.#channels.addSession(uri, state);
    const summary = this.#catalog.add(uri, state, this.#now());
    this.#notifyRoot(ROOT_NOTIFICATIONS.sessionAdded, { summary });
  }

  /**
   * Removes a session with its chats (their subscribers stop getting them) and announces it with
   * `root/sessionRemoved`. False if there was no such session.
   */
  disposeSession(uri: string): boolean {
    if (!this.#channels.session(uri)) return false;
    const chats = [...this.#channels.chatsOf(uri)].map((ch) => ch.uri);
    for (const channel of [uri, ...chats]) {
      this.#channels.delete(channel);
      for (const conn of this.#connections) conn.subscriptions.delete(channel);
    }
    this.#catalog.remove(uri);
    this.#notifyRoot(ROOT_NOTIFICATIONS.sessionRemoved, { session: uri });
    return true;
  }

  /** Replaces the agents the root channel advertises (`root/agentsChanged`). */
  setAgents(agents: AgentInfo[]): void {
    this.dispatchServerAction(ROOT_CHANNEL, { type: 'root/agentsChanged', agents });
  }

  /** Current state of the `ahp-root://` channel. */
  getRootState(): RootState {
    return this.#channels.get(ROOT_CHANNEL)!.state as RootState;
  }

  /** Current authoritative state of a session, or undefined. */
  getSessionState(uri: string): SessionState | undefined {
    return this.#channels.session(uri)?.state;
  }

  /**
   * Creates a chat channel in a session (Idle, no turns) and announces it with `session/chatAdded`; with
   * `initialMessage` its first turn starts at once. Returns the chat's state. Throws a RpcError:
   * -32001 unknown session, -32602 not an `ahp-chat:` URI, -32010 the URI is taken.
   */
  createChat(sessionUri: string, chatUri: string, options: CreateChatOptions = {}): ChatState {
    return this.#createChat(sessionUri, chatUri, options, undefined);
  }

  /** Current authoritative state of a chat, or undefined. */
  getChatState(uri: string): ChatState | undefined {
    return this.#channels.chat(uri)?.state;
  }

  /** Removes a chat channel (its subscribers stop getting it) and dispatches `session/chatRemoved`. False if there was no such chat. */
  disposeChat(uri: string): boolean {
    const ch = this.#channels.chat(uri);
    if (!ch) return false;
    this.#channels.delete(uri);
    for (const conn of this.#connections) conn.subscriptions.delete(uri);
    if (this.#channels.session(ch.session)) this.dispatchServerAction(ch.session, { type: 'session/chatRemoved', chat: uri });
    return true;
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

  /**
   * Applies a server-originated action (no origin) to a session or chat channel and broadcasts it; a chat
   * change the session catalog shows is followed by `session/chatUpdated`. Throws for an unknown channel.
   */
  dispatchServerAction(channel: string, action: StateAction | AnyAction): ActionEnvelope {
    const ch = this.#channels.get(channel);
    if (!ch) throw new Error(`Unknown channel: ${channel}`);
    if (ch.kind === 'session') action = normalizeCustomizationToggle(ch.state, action);
    const before = this.#channels.reduce(ch, action);
    const env = this.#publish(ch, { channel, action, serverSeq: ++this.#serverSeq });
    if (ch.kind === 'chat') this.#syncSummary(ch, before as ChatState);
    else if (ch.kind === 'session' && ch.state !== before) this.#syncCatalog(ch.uri, ch.state);
    return env;
  }

  /** Adds a guard run before a client action (session or chat) is applied. Returns an unregister function. */
  onClientAction(guard: ClientActionGuard): () => void {
    return this.#hooks.addGuard(guard);
  }

  /** Adds a reaction run after a client action was applied and broadcast. Returns an unregister function. */
  afterClientAction(reaction: ClientActionReaction): () => void {
    return this.#hooks.addReaction(reaction);
  }

  /** Adds a listener run after a chat was created (by a client's `createChat` or the embedder). Returns an unregister function. */
  afterCreateChat(listener: ChatCreatedListener): () => void {
    return this.#hooks.addChatCreated(listener);
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
    return this.#channelHandlers.add(match, handler);
  }

  /** The MCP server customization (in any session, top level or child) whose `channel` is this URI. */
  findMcpServerByChannel(channel: string): McpServerCustomization | undefined {
    let found: McpServerCustomization | undefined;
    for (const { state } of this.#channels.sessions()) {
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

  #createChat(sessionUri: string, chatUri: string, options: CreateChatOptions, clientId: string | undefined): ChatState {
    if (!this.#channels.session(sessionUri)) throw new RpcError(ErrorCode.SessionNotFound, `Unknown session: ${sessionUri}`);
    if (typeof chatUri !== 'string' || !chatUri.startsWith(CHAT_SCHEME)) {
      throw new RpcError(ErrorCode.InvalidParams, `A chat URI must start with '${CHAT_SCHEME}': ${String(chatUri)}`);
    }
    if (this.#channels.has(chatUri)) throw new RpcError(ErrorCode.AlreadyExists, `Chat already exists: ${chatUri}`);
    const ch = this.#channels.addChat(chatUri, sessionUri, newChatState(chatUri, options, this.#now()));
    this.dispatchServerAction(sessionUri, { type: 'session/chatAdded', summary: chatSummaryOf(ch.state) });
    let turnId: string | undefined;
    if (options.initialMessage) {
      turnId = randomId();
      this.dispatchServerAction(chatUri, { type: 'chat/turnStarted', turnId, startedAt: this.#now(), message: options.initialMessage });
    }
    this.#hooks.chatCreated({
      session: sessionUri,
      chat: chatUri,
      clientId,
      state: ch.state,
      ...(options.initialMessage && { initialMessage: options.initialMessage }),
      ...(turnId !== undefined && { turnId }),
    });
    return ch.state;
  }

  /** Mirrors what changed in a chat into its session's catalog entry. */
  #syncSummary(ch: ChatChannel, before: ChatState): void {
    const session = this.#channels.session(ch.session);
    const action = session && chatSummarySync(session.state, before, ch.state);
    if (session && action) this.dispatchServerAction(session.uri, action);
  }

  /** Mirrors what changed in a session into its root-catalogue entry (`root/sessionSummaryChanged`). */
  #syncCatalog(uri: string, state: SessionState): void {
    const changes = this.#catalog.update(uri, state, this.#now());
    if (changes) this.#notifyRoot(ROOT_NOTIFICATIONS.sessionSummaryChanged, { session: uri, changes });
  }

  /** Root notifications go to the connections subscribed to `ahp-root://`; they are never replayed. */
  #notifyRoot(method: string, params: Record<string, unknown>): void {
    for (const conn of this.#connections) if (conn.subscriptions.has(ROOT_CHANNEL)) conn.notify(method, { channel: ROOT_CHANNEL, ...params });
  }

  #rememberClient(clientId: string, profile: ClientProfile): void {
    this.#clients.delete(clientId);
    this.#clients.set(clientId, profile);
    if (this.#clients.size > this.#clientLimit) this.#clients.delete(this.#clients.keys().next().value as string);
  }

  #publish(ch: HostChannel, env: ActionEnvelope): ActionEnvelope {
    ch.log.append(env);
    if (env.origin) {
      const { clientId, clientSeq } = env.origin;
      this.#actionOutcomes.record(
        clientId,
        env.rejectionReason === undefined ? { clientSeq, outcome: 'applied' } : { clientSeq, outcome: 'rejected', reason: env.rejectionReason },
      );
    }
    // The dispatching client also gets its own echo on a channel it did not subscribe to (e.g. answering an
    // inputNeeded entry from the session view): without it its pending action could only time out.
    const dispatcher = env.origin?.clientId;
    for (const conn of this.#connections) {
      if (conn.subscriptions.has(env.channel) || (dispatcher !== undefined && conn.clientId === dispatcher)) conn.deliver(env);
    }
    return env;
  }

  #clientAction(clientId: string, { channel, clientSeq, action: sent }: DispatchActionParams): void {
    const ch = this.#channels.get(channel);
    if (!ch) {
      // Unknown channels get no echo at all (spec); a reconnecting client still learns it was not applied.
      this.#actionOutcomes.record(clientId, { clientSeq, outcome: 'ignored', reason: `The host has no channel ${channel}` });
      return;
    }
    // The older toggle shape is applied and echoed as 1.x `enablement` (a host may echo its own version).
    const action = ch.kind === 'session' ? normalizeCustomizationToggle(ch.state, sent) : sent;
    const ctx: ClientActionContext = { channel, action, clientId, kind: ch.kind, session: ch.kind === 'chat' ? ch.session : channel };
    const origin = { clientId, clientSeq };
    const tooLarge = actionLimitViolation(action, this.#limits);
    if (tooLarge) {
      // The echo carries only the type: an oversized payload is neither stored in the log nor sent to anyone.
      const rejectionReason = `Refused (${ErrorCode.InvalidParams}): ${tooLarge.message}`;
      this.#publish(ch, { channel, action: { type: action.type } as StateAction, serverSeq: ++this.#serverSeq, origin, rejectionReason });
      return;
    }
    const rejectionReason = this.#rejection(ch, ctx);
    if (rejectionReason !== undefined) {
      this.#publish(ch, { channel, action, serverSeq: ++this.#serverSeq, origin, rejectionReason });
      return;
    }
    let before;
    try {
      before = this.#channels.reduce(ch, action);
    } catch (err) {
      this.#log('reducer threw on a client action', err);
      this.#publish(ch, { channel, action, serverSeq: ++this.#serverSeq, origin, rejectionReason: 'The host could not apply this action' });
      return;
    }
    this.#publish(ch, { channel, action, serverSeq: ++this.#serverSeq, origin });
    if (ch.kind === 'chat') this.#syncSummary(ch, before as ChatState);
    else if (ch.kind === 'session' && ch.state !== before) this.#syncCatalog(ch.uri, ch.state);
    // After the echo went out, so server actions a reaction dispatches are sequenced after it.
    const session = this.#channels.session(ctx.session);
    if (!session) return;
    this.#hooks.react({ ...ctx, state: session.state, ...(ch.kind === 'chat' && { chatState: ch.state }) });
  }

  #rejection(ch: HostChannel, ctx: ClientActionContext): string | undefined {
    if (!isClientDispatchable(ctx.action)) return `'${ctx.action.type}' is not a client-dispatchable action`;
    if (ch.kind === 'root') return 'the root channel takes no client actions on this host';
    const reason = ch.kind === 'chat' ? chatActionRejection(ch.state, ctx.action, ctx.clientId) : sessionActionRejection(ch.state, ctx.action);
    if (reason !== undefined) return reason;
    return this.#hooks.rejection(ctx);
  }
}

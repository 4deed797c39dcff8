import { isClientDispatchable, type ActionEnvelope, type AnyAction, type DispatchActionParams, type InitializeResult, type SessionState, type StateAction } from '../protocol/index.js';
import { sessionReducer } from '../reducers/index.js';
import { ActionLog } from './action-log.js';
import { Connection, type HostConnection, type HostLogger, type HostPeer, type HostRequestHandler, type HostInternals } from './host-connection.js';

export interface HostCoreOptions {
  serverInfo?: NonNullable<InitializeResult['serverInfo']>;
  /** Envelopes kept per channel for reconnect replay (default 1000). */
  actionLogLimit?: number;
  /** Diagnostics (malformed frames, throwing hooks); default console.warn. */
  log?: HostLogger;
}

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

const BUILT_IN_METHODS = new Set(['initialize', 'ping', 'subscribe', 'unsubscribe', 'dispatchAction']);

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
  readonly #logLimit: number;
  readonly #log: HostLogger;
  readonly #internals: HostInternals;
  #serverSeq = 0;

  constructor(options: HostCoreOptions = {}) {
    this.#logLimit = options.actionLogLimit ?? 1000;
    this.#log = options.log ?? ((message, detail) => console.warn(`[ahp host] ${message}`, ...(detail === undefined ? [] : [detail])));
    this.#internals = {
      serverInfo: options.serverInfo ?? { name: 'ahp-elements host', version: '0.1.0' },
      log: this.#log,
      serverSeq: () => this.#serverSeq,
      sessionState: (uri) => this.#channels.get(uri)?.state,
      clientAction: (clientId, params) => this.#clientAction(clientId, params),
      requestHandler: (method) => this.#handlers.get(method),
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

  /** Closes every connection. */
  close(): void {
    for (const conn of [...this.#connections]) conn.close('host closed');
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

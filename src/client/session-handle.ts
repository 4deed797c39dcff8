import type { Message } from '../protocol/session.js';
import type { AuthenticateRequest } from './ahp-client.js';
import type { ConnectionState } from './connection-state.js';
import type { McpChannel } from './mcp-channel.js';
import { randomId } from '../protocol/random-id.js';

/** What a session handle can do beyond state; each one is either there or missing with a reason. */
export type SessionCapability = 'authenticate' | 'mcpChannel' | 'createChat' | 'reconnect';

/** What `createChat` sends (AHP §7 `createChat`); the chat URI is generated when not given. */
export interface CreateChatRequest {
  /** The new chat's `ahp-chat:` URI (client-chosen); default `ahp-chat:/<random uuid>`. */
  chat?: string;
  /** Starts the first turn with this message (`origin.kind` is `user`). */
  initialMessage?: Pick<Message, 'text'> & Partial<Message>;
  workingDirectories?: string[];
}

/** A capability this handle does not have was used; `message` says why (for the user). */
export class CapabilityUnavailableError extends Error {
  readonly capability: SessionCapability;
  constructor(capability: SessionCapability, reason: string) {
    super(reason);
    this.name = 'CapabilityUnavailableError';
    this.capability = capability;
  }
}

/**
 * What one connection to a session can do beyond its state, provided to elements next to the store
 * (`<ahp-session>`: the `handleContext` context and its `handle` property). The same interface whether the
 * connection runs in this page or in a (shared) worker. The store stays state, selectors and dispatch.
 */
export interface SessionHandle {
  /** The session channel URI (`ahp-session:/…`). */
  readonly session: string;
  /** Where the connection runs: `page`, `shared` or `dedicated` worker, or `custom` for a handle built by the app. */
  readonly mode: 'page' | 'shared' | 'dedicated' | 'custom';
  /** Undefined when this handle has the capability; else why not, as a sentence for the user. */
  unavailable(capability: SessionCapability): string | undefined;
  /** Current connection state. */
  getConnectionState(): ConnectionState;
  /** Called with every new connection state. Returns an unsubscribe function. */
  subscribeConnection(listener: (state: ConnectionState) => void): () => void;
  /** Hands a bearer token for a protected resource to the host (`authenticate`; empty token = revoke). */
  authenticate(params: AuthenticateRequest): Promise<void>;
  /**
   * The `mcp://` channel of one MCP server (MCP Apps), one per server id, reading the server's current channel
   * on every call. Throws a CapabilityUnavailableError without the capability (see `unavailable('mcpChannel')`).
   */
  mcpChannel(serverId: string): McpChannel;
  /** Creates a chat in the session (`createChat`); resolves with its URI. */
  createChat(request?: CreateChatRequest): Promise<string>;
  /** Skips the backoff wait of a pending reconnect, or starts reconnecting again after giving up. */
  reconnectNow(): void;
}

/** A random `ahp-chat:` URI for a new chat. */
export const newChatUri = (): string => `ahp-chat:/${randomId()}`;

/** How `buildSessionHandle` reaches the connection; a missing member means that capability is unavailable. */
export interface SessionHandleParts {
  session: string;
  mode: SessionHandle['mode'];
  connection: { get(): ConnectionState; subscribe(listener: (state: ConnectionState) => void): () => void };
  /** Capabilities this connection cannot have, with the reason. */
  unavailable?: Partial<Record<SessionCapability, string>>;
  authenticate(params: AuthenticateRequest): Promise<void>;
  /** Sends a `createChat` request with these params (`channel` and `chat` set). */
  createChat(params: Record<string, unknown>): Promise<unknown>;
  /** Builds one server's channel over this connection (from `ahp-elements/mcp-channel`); without it there is no `mcp://` capability. */
  mcpChannel?: (serverId: string) => McpChannel;
  reconnectNow(): void;
}

const NO_MCP_CHANNEL = 'opened without createMcpChannel (ahp-elements/mcp-channel)';

/** A SessionHandle over the parts of one connection (page mode, worker mode and tests share it). */
export function buildSessionHandle(parts: SessionHandleParts): SessionHandle {
  const missing: Partial<Record<SessionCapability, string>> = { ...parts.unavailable };
  if (!parts.mcpChannel && !missing.mcpChannel) missing.mcpChannel = NO_MCP_CHANNEL;
  const channels = new Map<string, McpChannel>();
  const guard = (capability: SessionCapability): void => {
    const reason = missing[capability];
    if (reason !== undefined) throw new CapabilityUnavailableError(capability, reason);
  };
  return {
    session: parts.session,
    mode: parts.mode,
    unavailable: (capability) => missing[capability],
    getConnectionState: () => parts.connection.get(),
    subscribeConnection: (listener) => parts.connection.subscribe(listener),
    async authenticate(params) {
      guard('authenticate');
      await parts.authenticate(params);
    },
    mcpChannel(serverId) {
      guard('mcpChannel');
      let channel = channels.get(serverId);
      if (!channel) channels.set(serverId, (channel = parts.mcpChannel!(serverId)));
      return channel;
    },
    async createChat(request = {}) {
      guard('createChat');
      const chat = request.chat ?? newChatUri();
      const params: Record<string, unknown> = { channel: parts.session, chat };
      if (request.initialMessage) params.initialMessage = { ...request.initialMessage, origin: { kind: 'user' } };
      if (request.workingDirectories) params.workingDirectories = [...request.workingDirectories];
      await parts.createChat(params);
      return chat;
    },
    reconnectNow() {
      if (missing.reconnect === undefined) parts.reconnectNow();
    },
  };
}

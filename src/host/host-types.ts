import type { ActionLimits } from '../protocol/action-limits.js';
import type { AgentInfo, AnyAction, ChatState, InitializeResult, McpServerCustomization, SessionState, StateAction } from '../protocol/index.js';
import type { ChannelKind } from './channel-registry.js';
import type { CreateChatOptions } from './create-chat.js';
import type { HostLogger } from './host-connection.js';

export interface HostCoreOptions {
  serverInfo?: NonNullable<InitializeResult['serverInfo']>;
  /** Agents the `ahp-root://` channel advertises (default none); change them later with `setAgents`. */
  agents?: AgentInfo[];
  /**
   * The session a client should open when it was not told which one (`RootState._meta.defaultSession`, an
   * implementation-defined key: AHP has no default-session field). Fixed for the host's lifetime.
   */
  defaultSession?: string;
  /** Envelopes kept per channel for reconnect replay (default 1000). */
  actionLogLimit?: number;
  /** Diagnostics (malformed frames, throwing hooks); default console.warn. */
  log?: HostLogger;
  /** How many clientIds to remember for `reconnect` (default 10 000; the oldest are forgotten first). */
  rememberedClients?: number;
  /** Wall clock for new chats' `modifiedAt` and initial turns' `startedAt` (ISO string); default `new Date().toISOString()`. */
  now?: () => string;
  /**
   * Size limits on client actions and `createChat`'s initial message (defaults: DEFAULT_ACTION_LIMITS,
   * 256 KiB of message text, 8 MiB of attachments, 10 MiB per action). An action over a limit is
   * rejected (its echo carries only the type and a reason naming -32602); `createChat` answers -32602.
   */
  limits?: Partial<ActionLimits>;
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
  /** Whether `channel` is a session or a chat. */
  kind: ChannelKind;
  /** The session the channel belongs to (the channel itself for a session). */
  session: string;
}

/** Decides about an accepted-type client action before it is applied; return a string to reject it with that reason. */
export type ClientActionGuard = (ctx: ClientActionContext) => string | void;
/**
 * Reacts to a client action after it was applied and broadcast (e.g. really start an MCP server, run an
 * agent turn). `state` is the owning session's state; for a chat action `chatState` is the chat's.
 */
export type ClientActionReaction = (ctx: ClientActionContext & { state: SessionState; chatState?: ChatState }) => void;

/** What a listener learns about a new chat. */
export interface ChatCreatedContext {
  session: string;
  chat: string;
  /** The client whose `createChat` made it; undefined when the embedder called `createChat`. */
  clientId: string | undefined;
  /** The chat after creation (with the first turn started when there was an initial message). */
  state: ChatState;
  initialMessage?: CreateChatOptions['initialMessage'];
  /** Id of the turn the initial message started. */
  turnId?: string;
}
export type ChatCreatedListener = (ctx: ChatCreatedContext) => void;


import type { ContentRef, ErrorInfo, JsonPrimitive, Open, StringOrMarkdown, URI, UsageInfo } from './common.js';
import type { Artifact, BackgroundWork, PendingMessage } from './chat-extras.js';
import type { ClientPluginCustomization, Customization } from './customizations.js';
import type {
  ToolCallAuthRequiredState,
  ToolCallPendingConfirmationState,
  ToolCallPendingResultConfirmationState,
  ToolCallRunningState,
  ToolCallState,
} from './tool-calls.js';

/** Bitset; unknown bits must be preserved. `InputNeeded` includes the `InProgress` bit. */
export const SessionStatus = {
  Idle: 1,
  Error: 2,
  InProgress: 8,
  InputNeeded: 24,
  IsRead: 32,
  IsArchived: 64,
} as const;
/** Mask of the activity bits (0-4). */
export const SESSION_ACTIVITY_MASK = 31;

export type SessionLifecycle = Open<'creating' | 'ready' | 'failed'>;

export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: { type: 'object'; properties?: Record<string, unknown>; required?: string[] };
  outputSchema?: { type: 'object'; properties?: Record<string, unknown>; required?: string[] };
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  _meta?: Record<string, unknown>;
}

export interface SessionActiveClient {
  clientId: string;
  displayName?: string;
  tools: ToolDefinition[];
  customizations?: ClientPluginCustomization[];
}

export interface ChatSummary {
  resource: URI;
  title: string;
  status: number;
  activity?: string;
  modifiedAt: string;
  changes?: unknown;
  origin?: unknown;
  movable?: boolean;
  interactivity?: 'full' | 'read-only' | 'hidden';
  workingDirectories?: URI[];
}

export interface ChatInputOption { id: string; label: string; description?: string; recommended?: boolean }
export interface ChatInputQuestion {
  id: string;
  kind: Open<'text' | 'number' | 'integer' | 'boolean' | 'single-select' | 'multi-select'>;
  title?: string;
  message: string;
  required?: boolean;
  options?: ChatInputOption[];
  [key: string]: unknown;
}
export interface ChatInputRequest {
  id: string;
  message?: string;
  url?: URI;
  questions?: ChatInputQuestion[];
  answers?: Record<string, unknown>;
}

export type SessionInputRequest =
  | { kind: 'chatInput'; id: string; chat: URI; request: ChatInputRequest }
  | { kind: 'toolConfirmation'; id: string; chat: URI; turnId: string; toolCall: ToolCallPendingConfirmationState | ToolCallPendingResultConfirmationState }
  | { kind: 'toolClientExecution'; id: string; chat: URI; turnId: string; clientId: string; toolCall: ToolCallRunningState }
  | { kind: 'toolAuthentication'; id: string; chat: URI; turnId: string; toolCall: ToolCallAuthRequiredState };

export interface SessionState {
  provider: string;
  title: string;
  status: number;
  activity?: string;
  origin?: unknown;
  project?: { uri: URI; displayName: string };
  workingDirectories?: URI[];
  lifecycle: SessionLifecycle;
  creationError?: ErrorInfo;
  serverTools?: ToolDefinition[];
  activeClients: SessionActiveClient[];
  chats: ChatSummary[];
  defaultChat?: URI;
  config?: { schema?: unknown; values: Record<string, unknown> };
  customizations?: Customization[];
  changesets?: unknown[];
  inputNeeded?: SessionInputRequest[];
  /** 1.1.0: resources the agent produced, keyed by `uri`. */
  artifacts?: Artifact[];
  _meta?: Record<string, unknown>;
}

export interface Message {
  text: string;
  origin: { kind: Open<'user' | 'agent' | 'tool' | 'automation' | 'systemNotification'> };
  attachments?: unknown[];
  model?: { id: string; config?: Record<string, JsonPrimitive> };
  agent?: { uri: URI };
  _meta?: Record<string, unknown>;
}

export type ResponsePart =
  | { kind: 'markdown'; id: string; content: string }
  | { kind: 'reasoning'; id: string; content: string }
  | ({ kind: 'contentRef' } & ContentRef)
  | { kind: 'toolCall'; toolCall: ToolCallState }
  | { kind: 'systemNotification'; content: StringOrMarkdown; _meta?: Record<string, unknown> }
  | { kind: 'inputRequest'; request: ChatInputRequest; response?: 'accept' | 'decline' | 'cancel' }
  | { kind: 'error'; error: ErrorInfo; resumable?: boolean };

export interface Turn {
  id: string;
  startedAt?: string;
  duration?: number;
  message: Message;
  responseParts: ResponsePart[];
  usage: UsageInfo | undefined;
  state: 'complete' | 'cancelled' | 'error';
}

export interface ActiveTurn {
  id: string;
  startedAt: string;
  message: Message;
  responseParts: ResponsePart[];
  usage: UsageInfo | undefined;
}

export interface ChatState {
  resource: URI;
  title: string;
  status: number;
  activity?: string;
  modifiedAt: string;
  turns: Turn[];
  /** Present when `turns` is a tail window: page older turns with `fetchTurns`. */
  turnsNextCursor?: string;
  activeTurn?: ActiveTurn;
  /** The message to inject into the running turn (at most one). */
  steeringMessage?: PendingMessage;
  /** Messages that start the next turns, in order. */
  queuedMessages?: PendingMessage[];
  /** The unsent composer text, shared between clients. */
  draft?: Message;
  workingDirectories?: URI[];
  /** Work that outlives the turn that started it. */
  backgroundWork?: BackgroundWork[];
  changesets?: unknown[];
  canvases?: unknown[];
  /** May be moved with `moveChat`; absent means false. */
  movable?: boolean;
  interactivity?: 'full' | 'read-only' | 'hidden';
  origin?: unknown;
  changes?: unknown;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

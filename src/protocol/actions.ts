import type { ErrorInfo, StringOrMarkdown, URI, UsageInfo } from './common.js';
import type { Customization, CustomizationEnablement, McpAuthRequirement, McpServerState } from './customizations.js';
import type { Artifact, BackgroundWork, ChatInputAnswer, ChatInputResponse, PendingMessageKind } from './chat-extras.js';
import type { AgentInfo } from './root.js';
import type { ChatInputRequest, ChatSummary, Message, ResponsePart, SessionActiveClient, SessionInputRequest, ToolDefinition, Turn } from './session.js';
import type { ConfirmationOption, ToolCallContributor, ToolCallResult, ToolInput, ToolResultContent } from './tool-calls.js';

/** Any action, including types from newer peers; reducers treat unknown types as no-ops. */
export interface AnyAction { type: string; [key: string]: unknown }

export type SessionAction =
  | { type: 'session/ready' }
  | { type: 'session/creationFailed'; error: ErrorInfo }
  | { type: 'session/chatAdded'; summary: ChatSummary }
  | { type: 'session/chatRemoved'; chat: URI }
  | { type: 'session/chatUpdated'; chat: URI; changes: Partial<ChatSummary> }
  /** `chats` is the complete resulting order; `destination` is informational only. */
  | { type: 'session/chatsReordered'; chats: URI[]; destination?: unknown }
  | { type: 'session/defaultChatChanged'; defaultChat?: URI }
  | { type: 'session/titleChanged'; title: string }
  | { type: 'session/isReadChanged'; isRead: boolean }
  | { type: 'session/isArchivedChanged'; isArchived: boolean }
  | { type: 'session/activityChanged'; activity?: string }
  | { type: 'session/changesetsChanged'; changesets?: unknown[] }
  | { type: 'session/workingDirectorySet'; directory: URI }
  | { type: 'session/workingDirectoryRemoved'; directory: URI }
  | { type: 'session/workingDirectoryReplaced'; directory: URI; replacement: URI }
  | { type: 'session/configChanged'; config: Record<string, unknown>; replace?: boolean }
  | { type: 'session/metaChanged'; _meta?: Record<string, unknown> }
  | { type: 'session/serverToolsChanged'; tools: ToolDefinition[] }
  | { type: 'session/activeClientSet'; activeClient: SessionActiveClient }
  | { type: 'session/activeClientRemoved'; clientId: string }
  | { type: 'session/inputNeededSet'; request: SessionInputRequest }
  | { type: 'session/inputNeededRemoved'; id: string }
  | { type: 'session/customizationsChanged'; customizations: Customization[] }
  | { type: 'session/customizationToggled'; id: string; enablement?: CustomizationEnablement[]; enabled?: boolean }
  | { type: 'session/customizationUpdated'; customization: Customization }
  | { type: 'session/customizationRemoved'; id: string }
  | { type: 'session/mcpServerStateChanged'; id: string; state: McpServerState; channel?: URI }
  | { type: 'session/mcpServerStartRequested'; id: string }
  | { type: 'session/mcpServerStopRequested'; id: string }
  | { type: 'session/mcpServerBackgroundRequested'; id: string }
  | { type: 'session/artifactSet'; artifact: Artifact }
  | { type: 'session/artifactRemoved'; uri: URI };

interface ToolCallActionBase { turnId: string; toolCallId: string; _meta?: Record<string, unknown> }

export type ChatAction =
  | { type: 'chat/turnStarted'; turnId: string; startedAt: string; message: Message; queuedMessageId?: string; _meta?: Record<string, unknown> }
  | { type: 'chat/delta'; turnId: string; partId: string; content: string }
  | { type: 'chat/reasoning'; turnId: string; partId: string; content: string }
  | { type: 'chat/responsePart'; turnId: string; part: ResponsePart }
  | { type: 'chat/usage'; turnId: string; usage: UsageInfo }
  | { type: 'chat/turnComplete'; turnId: string; duration: number }
  | { type: 'chat/turnCancelled'; turnId: string; duration: number; _meta?: Record<string, unknown> }
  | { type: 'chat/error'; turnId: string; duration: number; part: { kind: 'error'; error: ErrorInfo; resumable?: boolean } }
  | ({ type: 'chat/toolCallStart'; toolName: string; displayName: string; intention?: string; contributor?: ToolCallContributor } & ToolCallActionBase)
  | ({ type: 'chat/toolCallDelta'; content?: string; invocationMessage?: StringOrMarkdown } & ToolCallActionBase)
  | ({
      type: 'chat/toolCallReady';
      invocationMessage: StringOrMarkdown;
      toolInput?: ToolInput;
      contributor?: ToolCallContributor;
      intention?: string;
      confirmationTitle?: StringOrMarkdown;
      riskAssessment?: unknown;
      edits?: unknown;
      editable?: boolean;
      confirmed?: 'not-needed' | 'user-action' | 'setting';
      options?: ConfirmationOption[];
    } & ToolCallActionBase)
  | ({ type: 'chat/toolCallConfirmed'; approved: true; confirmed: 'not-needed' | 'user-action' | 'setting'; editedToolInput?: string; selectedOptionId?: string } & ToolCallActionBase)
  | ({ type: 'chat/toolCallConfirmed'; approved: false; reason: 'denied' | 'skipped'; reasonMessage?: StringOrMarkdown; userSuggestion?: Message; selectedOptionId?: string } & ToolCallActionBase)
  | ({ type: 'chat/toolCallComplete'; result: ToolCallResult; requiresResultConfirmation?: boolean } & ToolCallActionBase)
  | ({ type: 'chat/toolCallResultConfirmed'; approved: boolean } & ToolCallActionBase)
  | ({ type: 'chat/toolCallContentChanged'; content: ToolResultContent[] } & ToolCallActionBase)
  | ({ type: 'chat/toolCallAuthRequired'; auth: McpAuthRequirement } & ToolCallActionBase)
  | ({ type: 'chat/toolCallAuthResolved' } & ToolCallActionBase)
  | { type: 'chat/turnResume'; turnId: string }
  /** Without `turnId` every turn goes; with it, the turns after it go. The active turn is dropped either way. */
  | { type: 'chat/truncated'; turnId?: string }
  | { type: 'chat/turnsLoaded'; turns: Turn[]; turnsNextCursor?: string }
  | { type: 'chat/activityChanged'; activity?: string }
  | { type: 'chat/isReadChanged'; isRead: boolean }
  | { type: 'chat/isArchivedChanged'; isArchived: boolean }
  | { type: 'chat/pendingMessageSet'; kind: PendingMessageKind; id: string; message: Message }
  | { type: 'chat/pendingMessageRemoved'; kind: PendingMessageKind; id: string }
  | { type: 'chat/queuedMessagesReordered'; order: string[] }
  | { type: 'chat/draftChanged'; draft?: Message }
  | { type: 'chat/inputRequested'; request: ChatInputRequest }
  | { type: 'chat/inputAnswerChanged'; requestId: string; questionId: string; answer?: ChatInputAnswer }
  | { type: 'chat/inputCompleted'; requestId: string; response?: ChatInputResponse; answers?: Record<string, ChatInputAnswer> }
  | { type: 'chat/workingDirectorySet'; directory: URI }
  | { type: 'chat/workingDirectoryRemoved'; directory: URI }
  | { type: 'chat/backgroundWorkSet'; work: BackgroundWork }
  | { type: 'chat/backgroundWorkRemoved'; id: string }
  | { type: 'chat/movableChanged'; movable: boolean }
  | { type: 'chat/changesetsChanged'; changesets?: unknown[] }
  | { type: 'chat/canvasesChanged'; canvases?: unknown[] };

export type RootAction =
  | { type: 'root/agentsChanged'; agents: AgentInfo[] }
  | { type: 'root/activeSessionsChanged'; activeSessions: number }
  | { type: 'root/terminalsChanged'; terminals: unknown[] }
  | { type: 'root/configChanged'; config: Record<string, unknown>; replace?: boolean };

export type StateAction = SessionAction | ChatAction | RootAction;

/**
 * Action types a client may dispatch (`IS_CLIENT_DISPATCHABLE` upstream). Anything else is
 * refused locally by the store and rejected by the host.
 */
export const CLIENT_DISPATCHABLE_ACTIONS: ReadonlySet<string> = new Set([
  'session/titleChanged',
  'session/isReadChanged',
  'session/isArchivedChanged',
  'session/configChanged',
  'session/activeClientSet',
  'session/activeClientRemoved',
  'session/workingDirectorySet',
  'session/workingDirectoryRemoved',
  'session/workingDirectoryReplaced',
  'session/customizationToggled',
  'session/mcpServerStartRequested',
  'session/mcpServerStopRequested',
  'session/mcpServerBackgroundRequested',
  'chat/turnStarted',
  'chat/turnCancelled',
  'chat/turnResume',
  'chat/truncated',
  'chat/pendingMessageSet',
  'chat/pendingMessageRemoved',
  'chat/queuedMessagesReordered',
  'chat/draftChanged',
  'chat/isArchivedChanged',
  'chat/isReadChanged',
  'chat/inputAnswerChanged',
  'chat/inputCompleted',
  'chat/workingDirectorySet',
  'chat/workingDirectoryRemoved',
  'chat/toolCallConfirmed',
  'chat/toolCallComplete',
  'chat/toolCallResultConfirmed',
  'chat/toolCallContentChanged',
]);

/** True when a client may dispatch this action. */
export function isClientDispatchable(action: { type?: unknown } | null | undefined): boolean {
  return typeof action?.type === 'string' && CLIENT_DISPATCHABLE_ACTIONS.has(action.type);
}

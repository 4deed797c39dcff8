import type { ContentRef, FileEdit, FileEditCollection, Open, StringOrMarkdown, URI } from './common.js';
import type { McpAuthRequirement } from './customizations.js';

export type ToolInput = string | ContentRef;

export type ToolCallContributor =
  | { kind: 'client'; clientId: string }
  | { kind: 'mcp'; customizationId: string };

export interface ConfirmationOption { id: string; label: string; kind: 'approve' | 'deny'; group?: number }

export type ToolCallRiskAssessment =
  | { kind: 'judge'; status: 'loading' }
  | { kind: 'judge'; status: 'complete'; reason: StringOrMarkdown; safety: number };

export type ToolResultContent =
  | { type: 'text'; text: string }
  | { type: 'embeddedResource'; data: string; contentType: string }
  | ({ type: 'resource' } & ContentRef)
  | ({ type: 'fileEdit' } & FileEdit)
  | { type: 'terminal'; resource: URI; title: string; isPty?: boolean; result?: { exitCode?: number; preview?: string; truncated?: boolean } }
  | { type: 'subagent'; resource: URI; title: string; agentName?: string; description?: string };

export type ToolCallConfirmationReason = 'not-needed' | 'user-action' | 'setting';
export type ToolCallCancellationReason = 'denied' | 'skipped' | 'result-denied';
export type ToolCallStatus = Open<
  'streaming' | 'pending-confirmation' | 'running' | 'auth-required' | 'pending-result-confirmation' | 'completed' | 'cancelled'
>;

export interface ToolCallBase {
  toolCallId: string;
  toolName: string;
  displayName: string;
  intention?: string;
  contributor?: ToolCallContributor;
  _meta?: Record<string, unknown>;
}

export interface ToolCallParameterFields { invocationMessage: StringOrMarkdown; toolInput?: ToolInput }
export interface ToolCallPostConfirmFields { confirmed: ToolCallConfirmationReason; selectedOption?: ConfirmationOption }

export interface ToolCallResult {
  success: boolean;
  pastTenseMessage: StringOrMarkdown;
  content?: ToolResultContent[];
  structuredContent?: Record<string, unknown>;
  error?: { message: string; code?: string };
}

export interface ToolCallStreamingState extends ToolCallBase {
  status: 'streaming';
  partialInput?: string;
  invocationMessage?: StringOrMarkdown;
}
export interface ToolCallPendingConfirmationState extends ToolCallBase, ToolCallParameterFields {
  status: 'pending-confirmation';
  confirmationTitle?: StringOrMarkdown;
  riskAssessment?: ToolCallRiskAssessment;
  edits?: FileEditCollection;
  editable?: boolean;
  options?: ConfirmationOption[];
}
export interface ToolCallRunningState extends ToolCallBase, ToolCallParameterFields, ToolCallPostConfirmFields {
  status: 'running';
  content?: ToolResultContent[];
}
export interface ToolCallAuthRequiredState extends ToolCallBase, ToolCallParameterFields, ToolCallPostConfirmFields {
  status: 'auth-required';
  contributor: { kind: 'mcp'; customizationId: string };
  auth: McpAuthRequirement;
  content?: ToolResultContent[];
}
export interface ToolCallPendingResultConfirmationState
  extends ToolCallBase, ToolCallParameterFields, ToolCallResult, ToolCallPostConfirmFields {
  status: 'pending-result-confirmation';
}
export interface ToolCallCompletedState extends ToolCallBase, ToolCallParameterFields, ToolCallResult, ToolCallPostConfirmFields {
  status: 'completed';
}
export interface ToolCallCancelledState extends ToolCallBase, ToolCallParameterFields {
  status: 'cancelled';
  reason: ToolCallCancellationReason;
  reasonMessage?: StringOrMarkdown;
  userSuggestion?: unknown;
  selectedOption?: ConfirmationOption;
}

export type ToolCallState =
  | ToolCallStreamingState
  | ToolCallPendingConfirmationState
  | ToolCallRunningState
  | ToolCallAuthRequiredState
  | ToolCallPendingResultConfirmationState
  | ToolCallCompletedState
  | ToolCallCancelledState;

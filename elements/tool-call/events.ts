import type { ChatAction } from '../../src/protocol/actions.js';
import type { McpAuthRequirement } from '../../src/protocol/customizations.js';
import type { AhpMcpServerAuthRequestEvent } from '../mcp-server/events.js';
import { AhpEvent } from '../shared/ahp-event.js';

/** Detail of the tool-call action events: which call, and the action the element will dispatch on the chat channel. */
export interface ToolCallActionDetail {
  /** Chat channel URI (undefined when the element was given a bare `.toolCall` without `.chat`). */
  readonly chat: string | undefined;
  readonly turnId: string | undefined;
  readonly toolCallId: string;
  /** The action dispatched when the event is not cancelled (only if a store, chat and turn are known). */
  readonly action: ChatAction;
}

/** Detail of `ahp-tool-call-approve`. */
export interface ToolCallApproveDetail extends ToolCallActionDetail {
  readonly selectedOptionId?: string;
  /** The edited input, when the call is editable and the user changed it. */
  readonly editedToolInput?: string;
}

/** Detail of `ahp-tool-call-deny`. */
export interface ToolCallDenyDetail extends ToolCallActionDetail {
  readonly selectedOptionId?: string;
}

/** Detail of `ahp-tool-call-result-confirm`. */
export interface ToolCallResultConfirmDetail extends ToolCallActionDetail {
  /** True to accept the result, false to reject it. */
  readonly approved: boolean;
}

/** Detail of `ahp-auth-request` fired by a tool call blocked on authentication. */
export interface ToolCallAuthRequestDetail {
  readonly kind: 'toolCall';
  readonly chat: string | undefined;
  readonly turnId: string | undefined;
  readonly toolCallId: string;
  /** Id of the contributing MCP server customization. */
  readonly customizationId: string;
  /** What the call or its server asks for, when known. */
  readonly auth?: McpAuthRequirement;
}

/** Fired before `chat/toolCallConfirmed {approved:true}` is dispatched; cancelable. */
export class AhpToolCallApproveEvent extends AhpEvent<ToolCallApproveDetail> {
  static readonly eventName = 'ahp-tool-call-approve';
  static override readonly cancelable = true;
}

/** Fired before `chat/toolCallConfirmed {approved:false}` is dispatched; cancelable. */
export class AhpToolCallDenyEvent extends AhpEvent<ToolCallDenyDetail> {
  static readonly eventName = 'ahp-tool-call-deny';
  static override readonly cancelable = true;
}

/** Fired before `chat/toolCallResultConfirmed` is dispatched; cancelable. */
export class AhpToolCallResultConfirmEvent extends AhpEvent<ToolCallResultConfirmDetail> {
  static readonly eventName = 'ahp-tool-call-result-confirm';
  static override readonly cancelable = true;
}

/** Fired before a blocked call is cancelled with a failed `chat/toolCallComplete`; cancelable. */
export class AhpToolCallCancelEvent extends AhpEvent<ToolCallActionDetail> {
  static readonly eventName = 'ahp-tool-call-cancel';
  static override readonly cancelable = true;
}

/** Asks the page to run the auth flow for a tool call; `preventDefault()` means "I'll handle it". */
export class AhpToolCallAuthRequestEvent extends AhpEvent<ToolCallAuthRequestDetail> {
  static readonly eventName = 'ahp-auth-request';
  static override readonly cancelable = true;
}

declare global {
  interface GlobalEventHandlersEventMap {
    /** Fired by tool calls (`detail.kind === 'toolCall'`) and by `<ahp-mcp-server>` (`detail.kind === 'mcpServer'`). */
    'ahp-auth-request': AhpToolCallAuthRequestEvent | AhpMcpServerAuthRequestEvent;
    'ahp-tool-call-approve': AhpToolCallApproveEvent;
    'ahp-tool-call-deny': AhpToolCallDenyEvent;
    'ahp-tool-call-result-confirm': AhpToolCallResultConfirmEvent;
    'ahp-tool-call-cancel': AhpToolCallCancelEvent;
  }
}

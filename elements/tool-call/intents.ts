import type { ChatAction } from '../../src/protocol/actions.js';
import type { ToolCallResult } from '../../src/protocol/tool-calls.js';
import {
  AhpToolCallApproveEvent,
  AhpToolCallCancelEvent,
  AhpToolCallDenyEvent,
  AhpToolCallResultConfirmEvent,
} from '../shared/tool-call-events.js';

/** Where a tool call lives; `chat`/`turnId` may be unknown for a bare `.toolCall`. */
export interface ToolCallIds {
  chat: string | undefined;
  turnId: string | undefined;
  toolCallId: string;
}

/** The cancelable event announcing an action, and the action itself. */
export type Intent = readonly [Event, ChatAction];

const CANCEL_RESULT: ToolCallResult = {
  success: false,
  pastTenseMessage: 'Cancelled',
  error: { message: 'Cancelled by the user', code: 'cancelled' },
};

const target = (ids: ToolCallIds) => ({ turnId: ids.turnId ?? '', toolCallId: ids.toolCallId });

/** Approve (`chat/toolCallConfirmed approved:true`), with the chosen option and the edited input if any. */
export function approveIntent(ids: ToolCallIds, selectedOptionId?: string, editedToolInput?: string): Intent {
  const extra = { ...(selectedOptionId ? { selectedOptionId } : {}), ...(editedToolInput !== undefined ? { editedToolInput } : {}) };
  const action: ChatAction = { type: 'chat/toolCallConfirmed', ...target(ids), approved: true, confirmed: 'user-action', ...extra };
  return [new AhpToolCallApproveEvent({ ...ids, action, ...extra }), action];
}

/** Deny (`chat/toolCallConfirmed approved:false reason:'denied'`), with the chosen option if any. */
export function denyIntent(ids: ToolCallIds, selectedOptionId?: string): Intent {
  const extra = selectedOptionId ? { selectedOptionId } : {};
  const action: ChatAction = { type: 'chat/toolCallConfirmed', ...target(ids), approved: false, reason: 'denied', ...extra };
  return [new AhpToolCallDenyEvent({ ...ids, action, ...extra }), action];
}

/** Accept or reject a result (`chat/toolCallResultConfirmed`). */
export function resultIntent(ids: ToolCallIds, approved: boolean): Intent {
  const action: ChatAction = { type: 'chat/toolCallResultConfirmed', ...target(ids), approved };
  return [new AhpToolCallResultConfirmEvent({ ...ids, action, approved }), action];
}

/** Cancel a blocked call: a failed `chat/toolCallComplete` (the spec's way to cancel an auth-required call). */
export function cancelIntent(ids: ToolCallIds): Intent {
  const action: ChatAction = { type: 'chat/toolCallComplete', ...target(ids), result: CANCEL_RESULT };
  return [new AhpToolCallCancelEvent({ ...ids, action }), action];
}

import { toolCallApproved, toolCallCancelled, toolCallDenied, toolCallResultConfirmed } from '../../src/intents/chat.js';
import type { ChatAction } from '../../src/protocol/actions.js';
import { AhpToolCallApproveEvent, AhpToolCallCancelEvent, AhpToolCallDenyEvent, AhpToolCallResultConfirmEvent } from './events.js';

/** Where a tool call lives; `chat`/`turnId` may be unknown for a bare `.toolCall`. */
export interface ToolCallIds {
  chat: string | undefined;
  turnId: string | undefined;
  toolCallId: string;
}

/** A tool-call intent (an `Intent` of `elements/shared/intents.ts`): its event, and the one action it dispatches on the chat channel. */
export type ToolCallIntent = readonly [event: Event, action: ChatAction];

const target = (ids: ToolCallIds) => ({ turnId: ids.turnId ?? '', toolCallId: ids.toolCallId });

/** Approve (`chat/toolCallConfirmed approved:true`), with the chosen option and the edited input if any. */
export function approveIntent(ids: ToolCallIds, selectedOptionId?: string, editedToolInput?: string): ToolCallIntent {
  const extra = { ...(selectedOptionId ? { selectedOptionId } : {}), ...(editedToolInput !== undefined ? { editedToolInput } : {}) };
  const action = toolCallApproved(target(ids), extra);
  return [new AhpToolCallApproveEvent({ ...ids, action, ...extra }), action];
}

/** Deny (`chat/toolCallConfirmed approved:false reason:'denied'`), with the chosen option if any. */
export function denyIntent(ids: ToolCallIds, selectedOptionId?: string): ToolCallIntent {
  const extra = selectedOptionId ? { selectedOptionId } : {};
  const action = toolCallDenied(target(ids), extra);
  return [new AhpToolCallDenyEvent({ ...ids, action, ...extra }), action];
}

/** Accept or reject a result (`chat/toolCallResultConfirmed`). */
export function resultIntent(ids: ToolCallIds, approved: boolean): ToolCallIntent {
  const action = toolCallResultConfirmed(target(ids), approved);
  return [new AhpToolCallResultConfirmEvent({ ...ids, action, approved }), action];
}

/** Cancel a blocked call: a failed `chat/toolCallComplete` (the spec's way to cancel an auth-required call). */
export function cancelIntent(ids: ToolCallIds): ToolCallIntent {
  const action = toolCallCancelled(target(ids));
  return [new AhpToolCallCancelEvent({ ...ids, action }), action];
}

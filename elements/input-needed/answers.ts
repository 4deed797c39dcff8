import type { ChatAction } from '../../src/protocol/actions.js';
import type { ConfirmationOption } from '../../src/protocol/tool-calls.js';

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields every tool-call answer needs, read from a session `inputNeeded` entry. */
export interface ToolCallTarget {
  chat: string;
  turnId: string;
  toolCallId: string;
}

/** Chat, turn and tool-call ids of a tool-related entry; undefined when any is missing. */
export function targetOf(entry: unknown): ToolCallTarget | undefined {
  if (!isRecord(entry) || !isRecord(entry.toolCall)) return undefined;
  const { chat, turnId } = entry;
  const toolCallId = entry.toolCall.toolCallId;
  if (typeof chat !== 'string' || typeof turnId !== 'string' || typeof toolCallId !== 'string') return undefined;
  return { chat, turnId, toolCallId };
}

/** The well-formed confirmation options of a tool call (`approve`/`deny` kinds only), in order. */
export function optionsOf(toolCall: unknown): ConfirmationOption[] {
  const list: unknown = isRecord(toolCall) ? toolCall.options : undefined;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (o): o is ConfirmationOption =>
      isRecord(o) && typeof o.id === 'string' && typeof o.label === 'string' && (o.kind === 'approve' || o.kind === 'deny'),
  );
}

/** `chat/toolCallConfirmed` approving (by the user) or denying the call, with the chosen option when there is one. */
export function confirmAction(t: ToolCallTarget, approved: boolean, selectedOptionId?: string): ChatAction {
  const base = { type: 'chat/toolCallConfirmed' as const, turnId: t.turnId, toolCallId: t.toolCallId };
  const option = selectedOptionId === undefined ? {} : { selectedOptionId };
  return approved
    ? { ...base, approved: true, confirmed: 'user-action', ...option }
    : { ...base, approved: false, reason: 'denied', ...option };
}

/** `chat/toolCallResultConfirmed` accepting or rejecting the call's result. */
export function resultAction(t: ToolCallTarget, approved: boolean): ChatAction {
  return { type: 'chat/toolCallResultConfirmed', turnId: t.turnId, toolCallId: t.toolCallId, approved };
}

/** The failed `chat/toolCallComplete` that cancels a call blocked on authentication. */
export function cancelAction(t: ToolCallTarget): ChatAction {
  return {
    type: 'chat/toolCallComplete',
    turnId: t.turnId,
    toolCallId: t.toolCallId,
    result: { success: false, pastTenseMessage: 'Cancelled', error: { message: 'Cancelled by the user', code: 'cancelled' } },
  };
}

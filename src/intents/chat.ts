import type { ChatAction } from '../protocol/actions.js';
import type { ChatInputAnswer, ChatInputResponse, PendingMessageKind } from '../protocol/chat-extras.js';
import type { Message } from '../protocol/session.js';
import type { ToolCallResult } from '../protocol/tool-calls.js';
import { elapsedSince, newTurnId } from './turn-id.js';

// What a user (or a page on their behalf) sends on a chat channel. Each creator returns one action to
// `store.dispatch(action, chatUri)`; none of them dispatches or touches the DOM.

/** The chat action of one type (e.g. `ChatActionOf<'chat/turnStarted'>`), as a creator returns it. */
export type ChatActionOf<T extends ChatAction['type']> = Extract<ChatAction, { type: T }>;

/** What `turnStarted` needs: the message text and, optionally, what else the message carries. */
export interface TurnStartedOptions {
  /** The message text. */
  text: string;
  /** The turn id (default: a fresh UUID). */
  turnId?: string;
  /** `_meta` of the message (e.g. the MCP App that sent it). */
  messageMeta?: Record<string, unknown>;
  /** When the turn started (default: now). */
  now?: Date;
}

/** Starts a user turn: `chat/turnStarted` with a fresh turn id, now as `startedAt`, and a `user` message. */
export function turnStarted({ text, turnId = newTurnId(), messageMeta, now = new Date() }: TurnStartedOptions): ChatActionOf<'chat/turnStarted'> {
  const message: Message = { text, origin: { kind: 'user' }, ...(messageMeta && { _meta: messageMeta }) };
  return { type: 'chat/turnStarted', turnId, startedAt: now.toISOString(), message };
}

/** Stops the active turn: `chat/turnCancelled` with the time it ran (from its `startedAt`). */
export function turnCancelled(turn: { id: string; startedAt?: unknown }, now = Date.now()): ChatActionOf<'chat/turnCancelled'> {
  return { type: 'chat/turnCancelled', turnId: turn.id, duration: elapsedSince(turn.startedAt, now) };
}

/** Resumes a turn that ended in a resumable error. */
export function turnResume(turnId: string): ChatActionOf<'chat/turnResume'> {
  return { type: 'chat/turnResume', turnId };
}

/** Withdraws a steering or queued message before it is sent. */
export function pendingMessageRemoved(kind: PendingMessageKind, id: string): ChatActionOf<'chat/pendingMessageRemoved'> {
  return { type: 'chat/pendingMessageRemoved', kind, id };
}

/** Answers (`accept` with the answers) or declines an agent's question. */
export function inputCompleted(requestId: string, response: ChatInputResponse, answers: Record<string, ChatInputAnswer>): ChatActionOf<'chat/inputCompleted'> {
  return { type: 'chat/inputCompleted', requestId, response, answers };
}

/** The tool call an action is about. */
export interface ToolCallTarget {
  turnId: string;
  toolCallId: string;
}

/** What the user chose when approving or denying: a confirmation option and, for an editable call, the edited input. */
export interface ToolCallChoice {
  selectedOptionId?: string;
  editedToolInput?: string;
}

/** Approves a call waiting for confirmation (`chat/toolCallConfirmed`, approved by a user action). */
export function toolCallApproved(target: ToolCallTarget, { selectedOptionId, editedToolInput }: ToolCallChoice = {}): ChatActionOf<'chat/toolCallConfirmed'> {
  return {
    type: 'chat/toolCallConfirmed',
    turnId: target.turnId,
    toolCallId: target.toolCallId,
    approved: true,
    confirmed: 'user-action',
    ...(selectedOptionId ? { selectedOptionId } : {}),
    ...(editedToolInput !== undefined ? { editedToolInput } : {}),
  };
}

/** Denies a call waiting for confirmation (`chat/toolCallConfirmed`, `reason: 'denied'`). */
export function toolCallDenied(target: ToolCallTarget, { selectedOptionId }: Pick<ToolCallChoice, 'selectedOptionId'> = {}): ChatActionOf<'chat/toolCallConfirmed'> {
  return {
    type: 'chat/toolCallConfirmed',
    turnId: target.turnId,
    toolCallId: target.toolCallId,
    approved: false,
    reason: 'denied',
    ...(selectedOptionId ? { selectedOptionId } : {}),
  };
}

/** Accepts or rejects the result of a call that asked for result confirmation. */
export function toolCallResultConfirmed(target: ToolCallTarget, approved: boolean): ChatActionOf<'chat/toolCallResultConfirmed'> {
  return { type: 'chat/toolCallResultConfirmed', turnId: target.turnId, toolCallId: target.toolCallId, approved };
}

const CANCELLED: ToolCallResult = {
  success: false,
  pastTenseMessage: 'Cancelled',
  error: { message: 'Cancelled by the user', code: 'cancelled' },
};

/** Cancels a blocked call (e.g. one waiting for sign-in): a failed `chat/toolCallComplete`, the spec's way to cancel it. */
export function toolCallCancelled(target: ToolCallTarget): ChatActionOf<'chat/toolCallComplete'> {
  return { type: 'chat/toolCallComplete', turnId: target.turnId, toolCallId: target.toolCallId, result: CANCELLED };
}

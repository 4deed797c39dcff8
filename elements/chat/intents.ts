import { pendingMessageRemoved, turnCancelled, turnResume, turnStarted } from '../../src/intents/chat.js';
import type { PendingMessageKind } from '../../src/protocol/chat-extras.js';
import type { Intent } from '../shared/intents.js';
import { AhpChatCancelEvent, AhpChatPendingRemoveEvent, AhpChatResumeEvent, AhpChatSendEvent } from './events.js';

/** Send a message: `ahp-chat-send`, then `chat/turnStarted` (a user turn with a fresh id). */
export function sendIntent(chat: string, text: string): readonly [event: AhpChatSendEvent, action: ReturnType<typeof turnStarted>] {
  return [new AhpChatSendEvent({ chat, text }), turnStarted({ text })];
}

/** Stop the active turn: `ahp-chat-cancel`, then `chat/turnCancelled`. */
export function cancelIntent(chat: string, turn: { id: string; startedAt?: unknown }): Intent {
  return [new AhpChatCancelEvent({ chat, turnId: turn.id }), turnCancelled(turn)];
}

/** Resume a turn that ended in a resumable error: `ahp-chat-resume`, then `chat/turnResume`. */
export function resumeIntent(chat: string, turnId: string): Intent {
  return [new AhpChatResumeEvent({ chat, turnId }), turnResume(turnId)];
}

/** Withdraw a steering or queued message: `ahp-chat-pending-remove`, then `chat/pendingMessageRemoved`. */
export function removePendingIntent(chat: string, kind: PendingMessageKind, id: string): Intent {
  return [new AhpChatPendingRemoveEvent({ chat, kind, id }), pendingMessageRemoved(kind, id)];
}

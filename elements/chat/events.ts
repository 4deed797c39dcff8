import type { PendingMessageKind } from '../../src/protocol/chat-extras.js';
import { AhpEvent } from '../shared/ahp-event.js';

/** Detail of `ahp-chat-send`. */
export interface ChatSendDetail {
  /** The chat channel URI. */
  readonly chat: string;
  /** The message text the element will send with `chat/turnStarted`. */
  readonly text: string;
}

/** Fired by `<ahp-chat>` before `chat/turnStarted` is dispatched; `preventDefault()` keeps it (and the text) back. */
export class AhpChatSendEvent extends AhpEvent<ChatSendDetail> {
  static readonly eventName = 'ahp-chat-send';
  static override readonly cancelable = true;
}

/** Detail of `ahp-chat-cancel`. */
export interface ChatCancelDetail {
  /** The chat channel URI. */
  readonly chat: string;
  /** Id of the active turn to cancel. */
  readonly turnId: string;
}

/** Fired by `<ahp-chat>` before `chat/turnCancelled` is dispatched; cancelable. */
export class AhpChatCancelEvent extends AhpEvent<ChatCancelDetail> {
  static readonly eventName = 'ahp-chat-cancel';
  static override readonly cancelable = true;
}

/** Detail of `ahp-chat-resume`. */
export interface ChatResumeDetail {
  readonly chat: string;
  /** The turn that ended in a resumable error. */
  readonly turnId: string;
}

/** Fired by `<ahp-chat>` before `chat/turnResume` is dispatched; cancelable. */
export class AhpChatResumeEvent extends AhpEvent<ChatResumeDetail> {
  static readonly eventName = 'ahp-chat-resume';
  static override readonly cancelable = true;
}

/** Detail of `ahp-chat-pending-remove`. */
export interface ChatPendingRemoveDetail {
  readonly chat: string;
  readonly kind: PendingMessageKind;
  /** The pending message's id. */
  readonly id: string;
}

/** Fired by `<ahp-chat>` before `chat/pendingMessageRemoved` is dispatched (a queued or steering message withdrawn); cancelable. */
export class AhpChatPendingRemoveEvent extends AhpEvent<ChatPendingRemoveDetail> {
  static readonly eventName = 'ahp-chat-pending-remove';
  static override readonly cancelable = true;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-chat-send': AhpChatSendEvent;
    'ahp-chat-cancel': AhpChatCancelEvent;
    'ahp-chat-resume': AhpChatResumeEvent;
    'ahp-chat-pending-remove': AhpChatPendingRemoveEvent;
  }
}

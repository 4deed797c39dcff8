import type { ChatInputAnswer, ChatInputResponse, PendingMessageKind } from '../../src/protocol/chat-extras.js';

const FIXED = { bubbles: true, composed: true } as const;

/** Detail of `ahp-chat-input-answer`. */
export interface ChatInputAnswerDetail {
  /** The chat channel the request belongs to. */
  readonly chat: string;
  /** The input request's id. */
  readonly requestId: string;
  /** `accept` with the answers, or `decline`. */
  readonly response: ChatInputResponse;
  /** The answers by question id (empty when declining). */
  readonly answers: Readonly<Record<string, ChatInputAnswer>>;
}

/** Fired before `chat/inputCompleted` is dispatched for an agent's question; `preventDefault()` keeps it back. */
export class AhpChatInputAnswerEvent extends Event {
  static readonly eventName = 'ahp-chat-input-answer';
  readonly detail: ChatInputAnswerDetail;
  constructor(detail: ChatInputAnswerDetail) {
    super(AhpChatInputAnswerEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** Detail of `ahp-chat-resume`. */
export interface ChatResumeDetail {
  readonly chat: string;
  /** The turn that ended in a resumable error. */
  readonly turnId: string;
}

/** Fired by `<ahp-chat>` before `chat/turnResume` is dispatched; cancelable. */
export class AhpChatResumeEvent extends Event {
  static readonly eventName = 'ahp-chat-resume';
  readonly detail: ChatResumeDetail;
  constructor(detail: ChatResumeDetail) {
    super(AhpChatResumeEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** Detail of `ahp-chat-pending-remove`. */
export interface ChatPendingRemoveDetail {
  readonly chat: string;
  readonly kind: PendingMessageKind;
  /** The pending message's id. */
  readonly id: string;
}

/** Fired by `<ahp-chat>` before `chat/pendingMessageRemoved` is dispatched (a queued or steering message withdrawn); cancelable. */
export class AhpChatPendingRemoveEvent extends Event {
  static readonly eventName = 'ahp-chat-pending-remove';
  readonly detail: ChatPendingRemoveDetail;
  constructor(detail: ChatPendingRemoveDetail) {
    super(AhpChatPendingRemoveEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-chat-input-answer': AhpChatInputAnswerEvent;
    'ahp-chat-resume': AhpChatResumeEvent;
    'ahp-chat-pending-remove': AhpChatPendingRemoveEvent;
  }
}

import type { ChatInputAnswer, ChatInputResponse } from '../../src/protocol/chat-extras.js';
import { AhpEvent } from './ahp-event.js';

// Events fired by parts that more than one element renders; each element's own events live in its `events.ts`.

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
export class AhpChatInputAnswerEvent extends AhpEvent<ChatInputAnswerDetail> {
  static readonly eventName = 'ahp-chat-input-answer';
  static override readonly cancelable = true;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-chat-input-answer': AhpChatInputAnswerEvent;
  }
}

import { AhpEvent } from '../shared/ahp-event.js';

/** Detail of `ahp-input-needed-open`. */
export interface InputNeededOpenDetail {
  /** The chat channel URI that asks for input. */
  readonly chat: string;
  /** Id of the session's `inputNeeded` entry. */
  readonly id: string;
}

/** Fired by `<ahp-input-needed>` when the user asks to open the chat that waits for input. Not cancelable (no default). */
export class AhpInputNeededOpenEvent extends AhpEvent<InputNeededOpenDetail> {
  static readonly eventName = 'ahp-input-needed-open';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-input-needed-open': AhpInputNeededOpenEvent;
  }
}

// The rows fire these and they bubble out of the list: tool calls (`<ahp-tool-call>`) and questions (the shared form).
export {
  AhpToolCallApproveEvent,
  AhpToolCallAuthRequestEvent,
  AhpToolCallCancelEvent,
  AhpToolCallDenyEvent,
  AhpToolCallResultConfirmEvent,
} from '../tool-call/events.js';
export { AhpChatInputAnswerEvent } from '../shared/events.js';

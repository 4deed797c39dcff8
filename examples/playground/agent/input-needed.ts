/** Mirrors tool calls that wait for the user into the session's `inputNeeded` roll-up (AHP §4.6). */
import type { HostCore } from '../../../src/host.js';
import type { ToolCallPendingConfirmationState, ToolCallPendingResultConfirmationState } from '../../../src/protocol/index.js';

type PendingToolCall = ToolCallPendingConfirmationState | ToolCallPendingResultConfirmationState;

/** `session/inputNeededSet` / `session/inputNeededRemoved` for `toolConfirmation` entries of one session. */
export class InputNeededMirror {
  readonly #open = new Set<string>();

  constructor(private readonly host: HostCore, private readonly sessionUri: string) {}

  /** The entry id of a tool call's confirmation (the same for its input and its result confirmation). */
  static idOf(chat: string, toolCallId: string): string {
    return `toolConfirmation:${chat}#${toolCallId}`;
  }

  /** Upserts the entry for a pending tool call; returns its id. */
  set(chat: string, turnId: string, toolCall: PendingToolCall): string {
    const id = InputNeededMirror.idOf(chat, toolCall.toolCallId);
    this.#open.add(id);
    this.host.dispatchServerAction(this.sessionUri, { type: 'session/inputNeededSet', request: { kind: 'toolConfirmation', id, chat, turnId, toolCall } });
    return id;
  }

  /** Removes an entry this mirror set (no-op when it is gone already). */
  remove(id: string): void {
    if (!this.#open.delete(id)) return;
    if (this.host.getSessionState(this.sessionUri)) this.host.dispatchServerAction(this.sessionUri, { type: 'session/inputNeededRemoved', id });
  }
}

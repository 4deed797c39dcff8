import type { AppBridgeHost } from '../../src/apps/bridge.js';
import { callToolResultOf, cancelReasonOf, repairPartialJson, toolArgumentsOf } from '../../src/apps/tool-call.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import { findToolCall } from '../../src/store/tool-call-selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';

/**
 * Follows one tool call of a chat in the store (watching the chat while followed) and reports every change; the
 * current value is in `toolCall`. `follow` with the same store, chat and id keeps the subscription.
 */
export class ToolCallFollower {
  declare toolCall: ToolCallState | undefined;
  private key = '';
  declare private stop: (() => void) | undefined;
  declare private readonly onChange: () => void;

  constructor(onChange: () => void) {
    this.onChange = onChange;
  }

  follow(store: SessionStoreLike | undefined, chat: string | null | undefined, toolCallId: string | null | undefined): void {
    const key = store && chat && toolCallId ? `${chat}\n${toolCallId}` : '';
    if (key === this.key && (this.stop || !key)) return;
    this.unfollow();
    this.key = key;
    if (!store || !chat || !toolCallId) return;
    const release = store.watchChat(chat);
    const unsubscribe = store.subscribeToolCall(chat, toolCallId, (tc) => {
      this.toolCall = tc;
      this.onChange();
    });
    this.stop = () => (unsubscribe(), release());
    this.toolCall = findToolCall(store.getChatState(chat), toolCallId);
  }

  unfollow(): void {
    this.stop?.();
    this.stop = undefined;
    this.key = '';
  }
}

/** Forwards a tool call's input, partial input, result or cancellation to the bridge (it gates and dedupes). */
export function feedToolCall(tc: ToolCallState | undefined, bridge: AppBridgeHost | undefined): void {
  if (!tc || !bridge) return;
  if (tc.status === 'streaming') {
    const partial = typeof tc.partialInput === 'string' ? repairPartialJson(tc.partialInput) : undefined;
    if (partial) bridge.sendToolInputPartial(partial);
    return;
  }
  if (tc.status !== 'cancelled') {
    const args = toolArgumentsOf(tc);
    if (args) bridge.sendToolInput(args);
  }
  const result = callToolResultOf(tc);
  if (result) bridge.sendToolResult(result);
  const reason = cancelReasonOf(tc);
  if (reason) bridge.sendToolCancelled(reason);
}

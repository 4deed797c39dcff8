import type { ReactiveControllerHost } from 'lit';
import { selectToolCall, type ToolCallEntry } from '../../src/store/tool-call-selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { StoreBinding } from './store-binding.js';

/** How a `ToolCallController` finds its store, chat and call. */
export interface ToolCallControllerOptions {
  /** The current store; read on connect and before every host update. */
  getStore: () => SessionStoreLike | undefined;
  /** The chat the call lives in (`ahp-chat:/…`); unset when there is nothing to look up. */
  getChat: () => string | null | undefined;
  /** The call's id. */
  getToolCallId: () => string | null | undefined;
}

/**
 * Follows one tool call of a chat while the host is connected: watches the chat (`watchChat`), and wakes the host
 * when that call changes (`subscribeToolCall`) or when the chat's snapshot arrives or goes (loading → found or not
 * found); other calls of the chat do not wake it.
 */
export class ToolCallController extends StoreBinding {
  /** The call and its turn; undefined while loading, when not found, or with nothing to look up. */
  declare value: ToolCallEntry | undefined;
  /** Whether the chat's snapshot is there (a missing call is then "not found"); true for a URI that is no chat. */
  chatLoaded = false;
  readonly #options: ToolCallControllerOptions;

  constructor(host: ReactiveControllerHost, options: ToolCallControllerOptions) {
    super(host);
    this.#options = options;
  }

  protected dependencies(): readonly unknown[] {
    return [this.#options.getStore(), this.#options.getChat(), this.#options.getToolCallId()];
  }

  protected open(): (() => void) | undefined {
    const [store, chat, id] = [this.#options.getStore(), this.#options.getChat(), this.#options.getToolCallId()];
    this.value = undefined;
    this.chatLoaded = false;
    if (!store || !chat || !id) return undefined;
    let release: () => void;
    try {
      release = store.watchChat(chat);
    } catch {
      this.chatLoaded = true; // not a chat channel: nothing will arrive, show "not found"
      return undefined;
    }
    const read = () => {
      const state = store.getChatState(chat);
      this.chatLoaded = !!state;
      this.value = selectToolCall(state, id);
    };
    const changed = () => (read(), this.host.requestUpdate());
    const offCall = store.subscribeToolCall(chat, id, changed);
    const offChat = store.subscribeChat(chat, () => !!store.getChatState(chat) !== this.chatLoaded && changed());
    read();
    return () => (offCall(), offChat(), release());
  }
}

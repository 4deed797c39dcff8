import type { ReactiveControllerHost } from 'lit';
import type { ChatState } from '../../src/protocol/session.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { StoreBinding } from './store-binding.js';

/** How a `ChatController` finds its store and chat. */
export interface ChatControllerOptions {
  /** The current store; read on connect and before every host update. */
  getStore: () => SessionStoreLike | undefined;
  /** The chat channel URI (`ahp-chat:/…`); read on connect and before every host update. */
  getChat: () => string | null | undefined;
}

/**
 * Watches one chat channel of a store while the host is connected: `store.watchChat(chat)` (released
 * on disconnect or when the store or chat changes) and a host update on every change of that chat.
 */
export class ChatController extends StoreBinding {
  /** The chat's optimistic view; undefined before its snapshot or without store/chat. */
  declare value: ChatState | undefined;
  readonly #options: ChatControllerOptions;

  constructor(host: ReactiveControllerHost, options: ChatControllerOptions) {
    super(host);
    this.#options = options;
  }

  protected dependencies(): readonly unknown[] {
    return [this.#options.getStore(), this.#options.getChat() || undefined];
  }

  protected open(): (() => void) | undefined {
    const store = this.#options.getStore();
    const chat = this.#options.getChat() || undefined;
    if (!store || !chat) return undefined;
    let unwatch: () => void;
    try {
      unwatch = store.watchChat(chat);
    } catch (err) {
      // Not a chat URI: nothing to watch; the element shows its loading state.
      console.warn(`[ahp-elements] cannot watch chat "${chat}"`, err);
      unwatch = () => {};
    }
    const onChange = (): void => {
      const next = store.getChatState(chat);
      if (next === this.value) return;
      this.value = next;
      this.host.requestUpdate();
    };
    const unsubscribe = store.subscribeChat(chat, onChange);
    onChange();
    return () => {
      unsubscribe();
      unwatch();
    };
  }

  /** Follows a replaced store or chat before each render. */
  override hostUpdate(): void {
    super.hostUpdate();
    const store = this.#options.getStore();
    const chat = this.#options.getChat() || undefined;
    this.value = store && chat ? store.getChatState(chat) : undefined;
  }
}

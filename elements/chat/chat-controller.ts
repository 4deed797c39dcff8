import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatState } from '../../src/protocol/session.js';
import type { SessionStoreLike } from '../../src/store/types.js';

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
export class ChatController implements ReactiveController {
  /** The chat's optimistic view; undefined before its snapshot or without store/chat. */
  value: ChatState | undefined;
  private readonly host: ReactiveControllerHost;
  private readonly options: ChatControllerOptions;
  private store: SessionStoreLike | undefined;
  private chat: string | undefined;
  private release: (() => void) | undefined;
  private connected = false;

  constructor(host: ReactiveControllerHost, options: ChatControllerOptions) {
    this.host = host;
    this.options = options;
    host.addController(this);
  }

  hostConnected(): void {
    this.connected = true;
    this.attach();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.detach();
  }

  /** Follows a replaced store or chat before each render. */
  hostUpdate(): void {
    this.attach();
    this.value = this.read();
  }

  private read(): ChatState | undefined {
    return this.store && this.chat ? this.store.getChatState(this.chat) : undefined;
  }

  private attach(): void {
    const store = this.options.getStore();
    const chat = this.options.getChat() || undefined;
    if (store !== this.store || chat !== this.chat) {
      this.detach();
      this.store = store;
      this.chat = chat;
    }
    if (!this.connected || this.release || !store || !chat) return;
    let unwatch: () => void;
    try {
      unwatch = store.watchChat(chat);
    } catch (err) {
      // Not a chat URI: nothing to watch; the element shows its loading state.
      console.warn(`[ahp-elements] cannot watch chat "${chat}"`, err);
      unwatch = () => {};
    }
    const unsubscribe = store.subscribeChat(chat, this.onChange);
    this.release = () => {
      unsubscribe();
      unwatch();
    };
    this.onChange();
  }

  private detach(): void {
    this.release?.();
    this.release = undefined;
  }

  private readonly onChange = (): void => {
    const next = this.read();
    if (next === this.value) return;
    this.value = next;
    this.host.requestUpdate();
  };
}

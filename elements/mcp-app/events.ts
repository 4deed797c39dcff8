import type { DownloadRequest } from '../../src/apps/bridge.js';
import type { ContentBlock, McpUiDisplayMode } from '../../src/apps/types.js';
import { AhpEvent } from '../shared/ahp-event.js';

/** Detail of `ahp-app-open-link`: the URL the View asked to open. */
export type AppOpenLinkDetail = { readonly url: string };

/** Detail of `ahp-app-message`: the message text, its content blocks and the App's model context. */
export type AppMessageDetail = { readonly text: string; readonly content: readonly ContentBlock[]; readonly modelContext: unknown };

/** Detail of `ahp-app-model-context`: the View's new model context. */
export type AppModelContextDetail = { readonly content?: ContentBlock[]; readonly structuredContent?: Record<string, unknown> };

/** Detail of `ahp-app-display-mode`: the mode asked for and the current one. */
export type AppDisplayModeDetail = { readonly mode: McpUiDisplayMode; readonly previous: McpUiDisplayMode };

/** Detail of `ahp-app-tools-changed`: which App's tools changed (its server and View resource). */
export type AppToolsChangedDetail = { readonly serverId: string; readonly resourceUri: string };

/** The View asked to open a link; the default opens http(s) URLs in a new tab with `noopener`. Cancelable. */
export class AhpAppOpenLinkEvent extends AhpEvent<AppOpenLinkDetail> {
  static readonly eventName = 'ahp-app-open-link';
  static override readonly cancelable = true;
  /** Takes the URL (not a detail object): the detail is `{ url }`. */
  constructor(url: string) {
    super({ url });
  }
}

/** The View sent a message for the conversation; the default starts a user turn in the tool call's chat. Cancelable. */
export class AhpAppMessageEvent extends AhpEvent<AppMessageDetail> {
  static readonly eventName = 'ahp-app-message';
  static override readonly cancelable = true;
}

/** The View replaced its model context (last wins; attached to the next user message this element sends). */
export class AhpAppModelContextEvent extends AhpEvent<AppModelContextDetail> {
  static readonly eventName = 'ahp-app-model-context';
}

/** The View asked to download files (names sanitized); the default saves them. Cancelable. */
export class AhpAppDownloadEvent extends AhpEvent<DownloadRequest> {
  static readonly eventName = 'ahp-app-download';
  static override readonly cancelable = true;
}

/** The display mode is about to change (View request or host exit). Cancelable. */
export class AhpAppDisplayModeEvent extends AhpEvent<AppDisplayModeDetail> {
  static readonly eventName = 'ahp-app-display-mode';
  static override readonly cancelable = true;
}

/** The View's own tools changed (`notifications/tools/list_changed` from a View that declared tools). */
export class AhpAppToolsChangedEvent extends AhpEvent<AppToolsChangedDetail> {
  static readonly eventName = 'ahp-app-tools-changed';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-app-open-link': AhpAppOpenLinkEvent;
    'ahp-app-message': AhpAppMessageEvent;
    'ahp-app-model-context': AhpAppModelContextEvent;
    'ahp-app-download': AhpAppDownloadEvent;
    'ahp-app-display-mode': AhpAppDisplayModeEvent;
    'ahp-app-tools-changed': AhpAppToolsChangedEvent;
  }
}

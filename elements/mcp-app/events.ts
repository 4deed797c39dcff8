import type { DownloadRequest } from '../../src/apps/bridge.js';
import type { ContentBlock, McpUiDisplayMode } from '../../src/apps/types.js';

const FIXED = { bubbles: true, composed: true } as const;

/** The View asked to open a link; the default opens http(s) URLs in a new tab with `noopener`. Cancelable. */
export class AhpAppOpenLinkEvent extends Event {
  static readonly eventName = 'ahp-app-open-link';
  readonly detail: { readonly url: string };
  constructor(url: string) {
    super(AhpAppOpenLinkEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = { url };
  }
}

/** The View sent a message for the conversation; the default starts a user turn in the tool call's chat. Cancelable. */
export class AhpAppMessageEvent extends Event {
  static readonly eventName = 'ahp-app-message';
  readonly detail: { readonly text: string; readonly content: readonly ContentBlock[]; readonly modelContext: unknown };
  constructor(detail: AhpAppMessageEvent['detail']) {
    super(AhpAppMessageEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** The View replaced its model context (last wins; attached to the next user message this element sends). */
export class AhpAppModelContextEvent extends Event {
  static readonly eventName = 'ahp-app-model-context';
  readonly detail: { readonly content?: ContentBlock[]; readonly structuredContent?: Record<string, unknown> };
  constructor(detail: AhpAppModelContextEvent['detail']) {
    super(AhpAppModelContextEvent.eventName, FIXED);
    this.detail = detail;
  }
}

/** The View asked to download files (names sanitized); the default saves them. Cancelable. */
export class AhpAppDownloadEvent extends Event {
  static readonly eventName = 'ahp-app-download';
  readonly detail: DownloadRequest;
  constructor(detail: DownloadRequest) {
    super(AhpAppDownloadEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** The display mode is about to change (View request or host exit). Cancelable. */
export class AhpAppDisplayModeEvent extends Event {
  static readonly eventName = 'ahp-app-display-mode';
  readonly detail: { readonly mode: McpUiDisplayMode; readonly previous: McpUiDisplayMode };
  constructor(detail: AhpAppDisplayModeEvent['detail']) {
    super(AhpAppDisplayModeEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** The View's own tools changed (`notifications/tools/list_changed` from a View that declared tools). */
export class AhpAppToolsChangedEvent extends Event {
  static readonly eventName = 'ahp-app-tools-changed';
  /** Which App's tools changed: its server and View resource. */
  readonly detail: { readonly serverId: string; readonly resourceUri: string };
  constructor(detail: AhpAppToolsChangedEvent['detail']) {
    super(AhpAppToolsChangedEvent.eventName, FIXED);
    this.detail = detail;
  }
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

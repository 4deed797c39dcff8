import type { CustomizationEnablement } from '../../src/protocol/customizations.js';
import type { ConnectionState } from '../../src/client/connection-state.js';

const FIXED = { bubbles: true, composed: true } as const;

/** Detail of the MCP server start/stop/restart events. */
export interface McpServerEventDetail {
  /** Customization id of the server. */
  readonly id: string;
}

/** Detail of `ahp-mcp-server-toggle`. */
export interface McpServerToggleDetail extends McpServerEventDetail {
  /** The requested (own) enabled value. */
  readonly enabled: boolean;
  /** The `enablement` list the element will dispatch with `session/customizationToggled`. */
  readonly enablement: readonly CustomizationEnablement[];
}

/** Fired before `session/customizationToggled` is dispatched; `preventDefault()` keeps it from being dispatched. */
export class AhpMcpServerToggleEvent extends Event {
  static readonly eventName = 'ahp-mcp-server-toggle';
  readonly detail: McpServerToggleDetail;
  constructor(detail: McpServerToggleDetail) {
    super(AhpMcpServerToggleEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** Fired before `session/mcpServerStartRequested` is dispatched; cancelable. */
export class AhpMcpServerStartEvent extends Event {
  static readonly eventName = 'ahp-mcp-server-start';
  readonly detail: McpServerEventDetail;
  constructor(detail: McpServerEventDetail) {
    super(AhpMcpServerStartEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** Fired before `session/mcpServerStopRequested` is dispatched; cancelable. */
export class AhpMcpServerStopEvent extends Event {
  static readonly eventName = 'ahp-mcp-server-stop';
  readonly detail: McpServerEventDetail;
  constructor(detail: McpServerEventDetail) {
    super(AhpMcpServerStopEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** Fired before a restart (stop, then start) is dispatched; cancelable. */
export class AhpMcpServerRestartEvent extends Event {
  static readonly eventName = 'ahp-mcp-server-restart';
  readonly detail: McpServerEventDetail;
  constructor(detail: McpServerEventDetail) {
    super(AhpMcpServerRestartEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** Detail of `ahp-connection-change`. */
export interface ConnectionChangeDetail {
  readonly state: ConnectionState;
}

/** Fired by `<ahp-session>` whenever its connection state changes. Not cancelable. */
export class AhpConnectionChangeEvent extends Event {
  static readonly eventName = 'ahp-connection-change';
  readonly detail: ConnectionChangeDetail;
  constructor(detail: ConnectionChangeDetail) {
    super(AhpConnectionChangeEvent.eventName, FIXED);
    this.detail = detail;
  }
}

/** Detail of `ahp-chat-send`. */
export interface ChatSendDetail {
  /** The chat channel URI. */
  readonly chat: string;
  /** The message text the element will send with `chat/turnStarted`. */
  readonly text: string;
}

/** Fired by `<ahp-chat>` before `chat/turnStarted` is dispatched; `preventDefault()` keeps it (and the text) back. */
export class AhpChatSendEvent extends Event {
  static readonly eventName = 'ahp-chat-send';
  readonly detail: ChatSendDetail;
  constructor(detail: ChatSendDetail) {
    super(AhpChatSendEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** Detail of `ahp-chat-cancel`. */
export interface ChatCancelDetail {
  /** The chat channel URI. */
  readonly chat: string;
  /** Id of the active turn to cancel. */
  readonly turnId: string;
}

/** Fired by `<ahp-chat>` before `chat/turnCancelled` is dispatched; cancelable. */
export class AhpChatCancelEvent extends Event {
  static readonly eventName = 'ahp-chat-cancel';
  readonly detail: ChatCancelDetail;
  constructor(detail: ChatCancelDetail) {
    super(AhpChatCancelEvent.eventName, { ...FIXED, cancelable: true });
    this.detail = detail;
  }
}

/** Detail of `ahp-input-needed-open`. */
export interface InputNeededOpenDetail {
  /** The chat channel URI that asks for input. */
  readonly chat: string;
  /** Id of the session's `inputNeeded` entry. */
  readonly id: string;
}

/** Fired by `<ahp-input-needed>` when the user asks to open the chat that waits for input. Not cancelable (no default). */
export class AhpInputNeededOpenEvent extends Event {
  static readonly eventName = 'ahp-input-needed-open';
  readonly detail: InputNeededOpenDetail;
  constructor(detail: InputNeededOpenDetail) {
    super(AhpInputNeededOpenEvent.eventName, FIXED);
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-mcp-server-toggle': AhpMcpServerToggleEvent;
    'ahp-mcp-server-start': AhpMcpServerStartEvent;
    'ahp-mcp-server-stop': AhpMcpServerStopEvent;
    'ahp-mcp-server-restart': AhpMcpServerRestartEvent;
    'ahp-connection-change': AhpConnectionChangeEvent;
    'ahp-chat-send': AhpChatSendEvent;
    'ahp-chat-cancel': AhpChatCancelEvent;
    'ahp-input-needed-open': AhpInputNeededOpenEvent;
  }
}

import type { CustomizationEnablement } from '../../src/protocol/customizations.js';
import type { ConnectionState } from '../../src/store/types.js';

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

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-mcp-server-toggle': AhpMcpServerToggleEvent;
    'ahp-mcp-server-start': AhpMcpServerStartEvent;
    'ahp-mcp-server-stop': AhpMcpServerStopEvent;
    'ahp-mcp-server-restart': AhpMcpServerRestartEvent;
    'ahp-connection-change': AhpConnectionChangeEvent;
  }
}

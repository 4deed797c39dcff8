import type { CustomizationEnablement, McpAuthRequirement } from '../../src/protocol/customizations.js';
import { AhpEvent } from '../shared/ahp-event.js';

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
export class AhpMcpServerToggleEvent extends AhpEvent<McpServerToggleDetail> {
  static readonly eventName = 'ahp-mcp-server-toggle';
  static override readonly cancelable = true;
}

/** Fired before `session/mcpServerStartRequested` is dispatched; cancelable. */
export class AhpMcpServerStartEvent extends AhpEvent<McpServerEventDetail> {
  static readonly eventName = 'ahp-mcp-server-start';
  static override readonly cancelable = true;
}

/** Fired before `session/mcpServerStopRequested` is dispatched; cancelable. */
export class AhpMcpServerStopEvent extends AhpEvent<McpServerEventDetail> {
  static readonly eventName = 'ahp-mcp-server-stop';
  static override readonly cancelable = true;
}

/** Fired before a restart (stop, then start) is dispatched; cancelable. */
export class AhpMcpServerRestartEvent extends AhpEvent<McpServerEventDetail> {
  static readonly eventName = 'ahp-mcp-server-restart';
  static override readonly cancelable = true;
}

/** Detail of `ahp-auth-request` fired by `<ahp-mcp-server>` in `authRequired`. */
export interface McpServerAuthRequestDetail {
  readonly kind: 'mcpServer';
  readonly customizationId: string;
  readonly auth: McpAuthRequirement;
}

/** Asks the page to sign in to an MCP server; `preventDefault()` means "I'll handle it" (else `<ahp-session>` runs the flow). */
export class AhpMcpServerAuthRequestEvent extends AhpEvent<McpServerAuthRequestDetail> {
  static readonly eventName = 'ahp-auth-request';
  static override readonly cancelable = true;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-mcp-server-toggle': AhpMcpServerToggleEvent;
    'ahp-mcp-server-start': AhpMcpServerStartEvent;
    'ahp-mcp-server-stop': AhpMcpServerStopEvent;
    'ahp-mcp-server-restart': AhpMcpServerRestartEvent;
  }
}

import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { McpAuthRequirement } from '../../src/protocol/customizations.js';

const BUBBLING = { bubbles: true, composed: true } as const;

/** Detail of `ahp-auth-request` fired by `<ahp-mcp-server>` in `authRequired`. */
export interface McpServerAuthRequestDetail {
  readonly kind: 'mcpServer';
  readonly customizationId: string;
  readonly auth: McpAuthRequirement;
}

/** Asks the page to sign in to an MCP server; `preventDefault()` means "I'll handle it" (else `<ahp-session>` runs the flow). */
export class AhpMcpServerAuthRequestEvent extends Event {
  static readonly eventName = 'ahp-auth-request';
  readonly detail: McpServerAuthRequestDetail;
  constructor(detail: McpServerAuthRequestDetail) {
    super(AhpMcpServerAuthRequestEvent.eventName, { ...BUBBLING, cancelable: true });
    this.detail = detail;
  }
}

/** Detail of the auth flow outcome events; `request` is the detail of the `ahp-auth-request` that started it. */
export interface AuthFlowDetail {
  readonly request: unknown;
  /** The failure (an `AuthError` from `ahp-elements/auth` when the driver failed), on `ahp-auth-error`. */
  readonly error?: Error & { code?: string };
}

class AuthFlowEvent extends Event {
  readonly detail: AuthFlowDetail;
  constructor(name: string, detail: AuthFlowDetail) {
    super(name, BUBBLING);
    this.detail = detail;
  }
}

/** Fired at the element that asked when the built-in flow starts. */
export class AhpAuthStartEvent extends AuthFlowEvent {
  static readonly eventName = 'ahp-auth-start';
  constructor(detail: AuthFlowDetail) {
    super(AhpAuthStartEvent.eventName, detail);
  }
}

/** Fired at the element that asked when the token was handed to the host. */
export class AhpAuthCompleteEvent extends AuthFlowEvent {
  static readonly eventName = 'ahp-auth-complete';
  constructor(detail: AuthFlowDetail) {
    super(AhpAuthCompleteEvent.eventName, detail);
  }
}

/** Fired at the element that asked (or at `<ahp-session>` for a resumed redirect) when the flow failed. */
export class AhpAuthErrorEvent extends AuthFlowEvent {
  static readonly eventName = 'ahp-auth-error';
  constructor(detail: AuthFlowDetail) {
    super(AhpAuthErrorEvent.eventName, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-auth-start': AhpAuthStartEvent;
    'ahp-auth-complete': AhpAuthCompleteEvent;
    'ahp-auth-error': AhpAuthErrorEvent;
  }
}

/** Where an element's sign-in stands, as the built-in flow reports it. */
export type AuthStatus = { kind: 'idle' } | { kind: 'pending' } | { kind: 'error'; message: string };

/**
 * Tracks the built-in auth flow for the element that fired `ahp-auth-request`: pending after
 * `ahp-auth-start`, idle after `ahp-auth-complete`, the message after `ahp-auth-error`.
 */
export class AuthController implements ReactiveController {
  status: AuthStatus = { kind: 'idle' };
  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
  }
  hostConnected(): void {
    for (const name of ['ahp-auth-start', 'ahp-auth-complete', 'ahp-auth-error']) this.host.addEventListener(name, this.onFlow);
  }
  hostDisconnected(): void {
    for (const name of ['ahp-auth-start', 'ahp-auth-complete', 'ahp-auth-error']) this.host.removeEventListener(name, this.onFlow);
  }
  /** Back to idle (e.g. when the requirement the status was about went away). */
  reset(): void {
    if (this.status.kind === 'idle') return;
    this.status = { kind: 'idle' };
    this.host.requestUpdate();
  }
  private readonly onFlow = (e: Event): void => {
    if (e.target !== this.host) return;
    const error = (e as AuthFlowEvent).detail?.error;
    this.status =
      e.type === 'ahp-auth-start' ? { kind: 'pending' } : e.type === 'ahp-auth-error' ? { kind: 'error', message: error?.message || '' } : { kind: 'idle' };
    this.host.requestUpdate();
  };
}

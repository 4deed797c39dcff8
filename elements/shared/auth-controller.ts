import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Where an element's sign-in stands, as the built-in flow reports it. */
export type AuthStatus = { kind: 'idle' } | { kind: 'pending' } | { kind: 'error'; message: string };

/** The flow events `<ahp-session>` fires at the element that asked (`ahp-auth-start`, `-complete`, `-error`). */
const FLOW_EVENTS = ['ahp-auth-start', 'ahp-auth-complete', 'ahp-auth-error'] as const;

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
    for (const name of FLOW_EVENTS) this.host.addEventListener(name, this.onFlow);
  }
  hostDisconnected(): void {
    for (const name of FLOW_EVENTS) this.host.removeEventListener(name, this.onFlow);
  }
  /** Back to idle (e.g. when the requirement the status was about went away). */
  reset(): void {
    if (this.status.kind === 'idle') return;
    this.status = { kind: 'idle' };
    this.host.requestUpdate();
  }
  private readonly onFlow = (e: GlobalEventHandlersEventMap[(typeof FLOW_EVENTS)[number]]): void => {
    if (e.target !== this.host) return;
    const error = e.detail?.error;
    this.status =
      e.type === 'ahp-auth-start' ? { kind: 'pending' } : e.type === 'ahp-auth-error' ? { kind: 'error', message: error?.message || '' } : { kind: 'idle' };
    this.host.requestUpdate();
  };
}

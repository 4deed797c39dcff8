import type { ConnectionState } from '../../src/client/connection-state.js';
import { AhpEvent } from '../shared/ahp-event.js';

/** Detail of `ahp-connection-change`. */
export interface ConnectionChangeDetail {
  readonly state: ConnectionState;
}

/** Fired by `<ahp-session>` whenever its connection state changes. Not cancelable. */
export class AhpConnectionChangeEvent extends AhpEvent<ConnectionChangeDetail> {
  static readonly eventName = 'ahp-connection-change';
}

/** Detail of the auth flow outcome events; `request` is the detail of the `ahp-auth-request` that started it. */
export interface AuthFlowDetail {
  readonly request: unknown;
  /** The failure (an `AuthError` from `ahp-elements/auth` when the driver failed), on `ahp-auth-error`. */
  readonly error?: Error & { code?: string };
}

/** Fired at the element that asked when the built-in flow starts. */
export class AhpAuthStartEvent extends AhpEvent<AuthFlowDetail> {
  static readonly eventName = 'ahp-auth-start';
}

/** Fired at the element that asked when the token was handed to the host. */
export class AhpAuthCompleteEvent extends AhpEvent<AuthFlowDetail> {
  static readonly eventName = 'ahp-auth-complete';
}

/** Fired at the element that asked (or at `<ahp-session>` for a resumed redirect) when the flow failed. */
export class AhpAuthErrorEvent extends AhpEvent<AuthFlowDetail> {
  static readonly eventName = 'ahp-auth-error';
}

declare global {
  interface GlobalEventHandlersEventMap {
    'ahp-connection-change': AhpConnectionChangeEvent;
    'ahp-auth-start': AhpAuthStartEvent;
    'ahp-auth-complete': AhpAuthCompleteEvent;
    'ahp-auth-error': AhpAuthErrorEvent;
  }
}

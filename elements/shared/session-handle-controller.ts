import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ContextConsumer } from './context.js';
import type { ConnectionState } from '../../src/client/connection-state.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import { connectionNotice, connectionStates, offlineReason } from './connection-notice.js';
import type { LocaleController } from './i18n.js';
import { handleContext } from './store-context.js';

type Host = ReactiveControllerHost & HTMLElement;

/**
 * Gives an element its session handle and the connection state: the handle is the element's own
 * (`getOwn`, e.g. a `handle` property) or else the one an ancestor `<ahp-session>` provides. While
 * connected it listens to the handle's connection state and requests an update on every change.
 *
 * ```ts
 * private readonly session = new SessionHandleController(this, () => this.handle);
 * render() { return html`${this.session.notice(this.locale)}…`; }
 * ```
 */
export class SessionHandleController implements ReactiveController {
  declare private readonly host: Host;
  declare private readonly getOwn: (() => SessionHandle | undefined) | undefined;
  declare private readonly consumer: ContextConsumer<typeof handleContext>;
  declare private followed: SessionHandle | undefined;
  declare private unsubscribe: (() => void) | undefined;
  declare private connected?: boolean;
  declare private state: ConnectionState | undefined;

  constructor(host: Host, getOwn?: () => SessionHandle | undefined) {
    this.host = host;
    this.getOwn = getOwn;
    this.consumer = new ContextConsumer(host, handleContext);
    host.addController(this);
  }

  /** The handle in use: the element's own, else the provided one; undefined while there is none. */
  get handle(): SessionHandle | undefined {
    return this.getOwn?.() ?? this.consumer.value;
  }

  /** Connection state of the handle in use; undefined while there is no handle. */
  get connection(): ConnectionState | undefined {
    this.follow();
    return this.state;
  }

  /** The connection banner (with "Retry now" where the handle can reconnect) while not connected; `nothing` while open. */
  notice(l: LocaleController): ReturnType<typeof connectionNotice> {
    return connectionNotice(this.connection, this.handle, l);
  }

  /** Why intents cannot be sent now, for the user; undefined while open or without a handle. */
  offlineReason(l: LocaleController): string | undefined {
    return offlineReason(this.connection, l);
  }

  /** The connection's custom states: `connecting`, or `reconnecting`/`closed` with `disconnected`; none while open. */
  get states(): string[] {
    return connectionStates(this.connection);
  }

  /**
   * Why the handle cannot do `capability`, as a sentence for the user; undefined when it can. Without a
   * handle, says so.
   */
  unavailable(capability: Parameters<SessionHandle['unavailable']>[0]): string | undefined {
    const handle = this.handle;
    return handle ? handle.unavailable(capability) : 'no session handle (put the element inside <ahp-session> or set .handle)';
  }

  hostConnected(): void {
    this.connected = true;
    this.follow();
  }

  hostDisconnected(): void {
    this.connected = false;
    this.stop();
  }

  /** Before each render: follows a replaced handle (own property or context). */
  hostUpdate(): void {
    this.follow();
  }

  private follow(): void {
    const handle = this.handle;
    if (handle === this.followed && (this.unsubscribe || !this.connected || !handle)) return;
    this.stop();
    this.followed = handle;
    this.state = handle?.getConnectionState();
    if (!handle || !this.connected) return;
    this.unsubscribe = handle.subscribeConnection((state) => {
      this.state = state;
      this.host.requestUpdate();
    });
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }
}

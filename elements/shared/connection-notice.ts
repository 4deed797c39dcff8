import { css, html, nothing } from 'lit';
import type { ConnectionState } from '../../src/client/connection-state.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import type { LocaleController } from './i18n.js';

/**
 * Why intents cannot be sent right now (the connection is not open), as a sentence for the user; undefined
 * while open, and without a handle (a store given without its connection is taken as usable).
 */
export function offlineReason(state: ConnectionState | undefined, l: LocaleController): string | undefined {
  if (!state || state.kind === 'open') return undefined;
  return state.kind === 'closed' ? l.t('connection.offlineClosed') : l.t('connection.offline');
}

/** Custom states for the connection: `connecting`, `reconnecting` or `closed`, plus `disconnected` for the last two. */
export function connectionStates(state: ConnectionState | undefined): string[] {
  if (!state || state.kind === 'open') return [];
  return state.kind === 'connecting' ? ['connecting'] : [state.kind, 'disconnected'];
}

/**
 * The connection banner shown instead of (or above) an element's content while not connected: what is going on,
 * when the next attempt is, why it closed, and a "Retry now" button where the handle can reconnect.
 */
export function connectionNotice(state: ConnectionState | undefined, handle: SessionHandle | undefined, l: LocaleController) {
  if (!state || state.kind === 'open') return nothing;
  let text: string;
  if (state.kind === 'connecting') text = l.t('connection.connecting');
  else if (state.kind === 'reconnecting') {
    text = state.nextAttemptAt !== undefined
      ? l.t('connection.reconnecting', { time: l.time(state.nextAttemptAt, { timeStyle: 'medium' }), attempt: state.attempt })
      : l.t('connection.retrying', { attempt: state.attempt });
  } else text = state.reason ? l.t('connection.closed', { reason: state.reason }) : l.t('connection.closedNoReason');
  const canRetry = state.kind !== 'connecting' && handle && handle.unavailable('reconnect') === undefined;
  return html`<p part="connection" class="connection" role="status" data-connection=${state.kind}>
    <span>${text}</span>${canRetry
      ? html` <button type="button" class="link" data-action="reconnect" @click=${() => handle.reconnectNow()}>${l.t('connection.retryNow')}</button>`
      : nothing}
  </p>`;
}

/** Looks of the banner, and of the fieldset that disables an element's intents while not connected. */
export const connectionStyles = css`
  .connection {
    margin: 0 0 var(--_space-2);
    padding: var(--_space-1) var(--_space-2);
    border: 1px solid var(--_warning);
    border-inline-start-width: 4px;
    border-radius: var(--_radius);
    color: var(--_text);
    background: var(--_surface);
  }
  .connection[data-connection='closed'] {
    border-color: var(--_danger);
  }
  fieldset.intents {
    display: contents;
    border: 0;
    margin: 0;
    padding: 0;
    min-inline-size: 0;
  }
  fieldset.intents:disabled button {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

import { html, nothing } from 'lit';
import type { McpServerState } from '../../src/protocol/customizations.js';
import { chooseScopes } from '../../src/auth/scopes.js';
import type { AuthStatus } from '../shared/auth-controller.js';
import type { LocaleController } from '../shared/i18n.js';
import type { MessageId } from '../shared/messages-en.js';

/** Heading and button text per `reason`; unknown reasons get the neutral pair. */
const REASONS: Record<string, readonly [MessageId, MessageId]> = {
  required: ['auth.required', 'auth.signIn'],
  expired: ['auth.expired', 'auth.signInAgain'],
  insufficientScope: ['auth.insufficientScope', 'auth.grantAccess'],
};
const NEUTRAL = ['auth.other', 'auth.signIn'] as const;

/** The `authRequired` part of `<ahp-mcp-server>`: why, the description, the scopes asked for, one button, the flow's status. */
export function renderAuthPanel(state: McpServerState, name: string, status: AuthStatus, onRequest: () => void, l: LocaleController) {
  const s = state as Record<string, unknown>;
  const reason = typeof s.reason === 'string' ? s.reason : '';
  const known = Object.hasOwn(REASONS, reason);
  const [title, action] = (known ? REASONS[reason]! : NEUTRAL).map((id) => l.t(id)) as [string, string];
  const description = typeof s.description === 'string' ? s.description : '';
  const scopes = chooseScopes(s as never) ?? [];
  const pending = status.kind === 'pending';
  return html`<div part="auth" class="auth" data-reason=${reason} data-known=${known}>
    <p class="auth-reason">${title}</p>
    ${description ? html`<p part="auth-description" class="auth-description">${description}</p>` : nothing}
    ${scopes.length
      ? html`<p class="auth-scopes">${l.t('auth.scopes')} <span part="auth-scopes">${scopes.map((x, i) => html`${i ? ' ' : ''}<code>${x}</code>`)}</span></p>`
      : nothing}
    <button type="button" data-auth aria-label=${l.t('auth.buttonLabel', { action, name })} aria-disabled=${pending ? 'true' : 'false'} @click=${() => pending || onRequest()}>
      ${pending ? l.t('auth.signingIn') : action}
    </button>
    <p part="auth-status" class="auth-status" role="status" data-status=${status.kind}>${status.kind === 'error' ? status.message || l.t('auth.failed') : pending ? l.t('auth.finishInWindow') : ''}</p>
  </div>`;
}

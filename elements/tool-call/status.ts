import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import type { LocaleController } from '../shared/i18n.js';

/** The known statuses (badge text `toolCall.status.<status>`); any other status shows its raw text on a neutral badge. */
const STATUSES = ['streaming', 'pending-confirmation', 'running', 'auth-required', 'pending-result-confirmation', 'completed', 'cancelled'] as const;
const CANCEL_REASONS = ['denied', 'skipped', 'result-denied'] as const;

/** The raw status string of a (possibly garbage) tool call. */
export function statusOf(tc: ToolCallState | undefined): string {
  const s: unknown = (tc as { status?: unknown } | undefined)?.status;
  return typeof s === 'string' ? s : 'unknown';
}

export const isKnownStatus = (status: string): status is (typeof STATUSES)[number] => (STATUSES as readonly string[]).includes(status);

/** True for a completed (or result-pending) call whose result says it failed. */
export const failed = (tc: ToolCallState): boolean =>
  (tc.status === 'completed' || tc.status === 'pending-result-confirmation') && tc.success === false;

/** Short status text for the badge and the live region. */
export function statusLabel(tc: ToolCallState, l: LocaleController): string {
  const status = statusOf(tc);
  if (!isKnownStatus(status)) return status;
  if (tc.status === 'cancelled') {
    const reason = tc.reason as string;
    return (CANCEL_REASONS as readonly string[]).includes(reason) ? l.t(`toolCall.reason.${reason as (typeof CANCEL_REASONS)[number]}`) : l.t('toolCall.status.cancelled');
  }
  if (failed(tc)) return l.t(tc.status === 'completed' ? 'toolCall.failed' : 'toolCall.reviewFailed');
  return l.t(`toolCall.status.${status}`);
}

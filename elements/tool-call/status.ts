import type { ToolCallState } from '../../src/protocol/tool-calls.js';
/** Badge text of the known statuses; any other status shows its raw text on a neutral badge. */
const LABELS: Record<string, string> = {
  streaming: 'Preparing…',
  'pending-confirmation': 'Needs approval',
  running: 'Running…',
  'auth-required': 'Needs access',
  'pending-result-confirmation': 'Review result',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

const CANCEL_REASONS: Record<string, string> = {
  denied: 'Denied',
  skipped: 'Skipped',
  'result-denied': 'Result rejected',
};

/** The raw status string of a (possibly garbage) tool call. */
export function statusOf(tc: ToolCallState | undefined): string {
  const s: unknown = (tc as { status?: unknown } | undefined)?.status;
  return typeof s === 'string' ? s : 'unknown';
}

export const isKnownStatus = (status: string): boolean => Object.hasOwn(LABELS, status);

/** True for a completed (or result-pending) call whose result says it failed. */
export const failed = (tc: ToolCallState): boolean =>
  (tc.status === 'completed' || tc.status === 'pending-result-confirmation') && tc.success === false;

/** Short status text for the badge and the live region. */
export function statusLabel(tc: ToolCallState): string {
  const status = statusOf(tc);
  if (!isKnownStatus(status)) return status;
  if (tc.status === 'cancelled') {
    return Object.hasOwn(CANCEL_REASONS, tc.reason) ? CANCEL_REASONS[tc.reason]! : LABELS.cancelled!;
  }
  if (failed(tc)) return tc.status === 'completed' ? 'Failed' : 'Review failed result';
  return LABELS[status]!;
}

/**
 * An ahp-elements extension to `reconnect` (AHP has no field for it; `_meta` keys are ignored by hosts and
 * clients that do not know them). When recovery is a snapshot, the client cannot see the echoes of its
 * pending actions, so it asks the host what became of them:
 *
 * - request `_meta[PENDING_ACTIONS_META_KEY]`: the clientSeqs still waiting for an echo;
 * - result `_meta[ACTION_OUTCOMES_META_KEY]`: one outcome for each of those the host handled. A clientSeq
 *   the host never received (or no longer remembers) is left out, and the client reports it as dropped.
 */

import { isRecord } from './guards.js';

export const PENDING_ACTIONS_META_KEY = 'ahp-elements/pendingClientSeqs';
export const ACTION_OUTCOMES_META_KEY = 'ahp-elements/clientActionOutcomes';

/** At most this many clientSeqs are asked about / answered in one `reconnect`. */
export const MAX_PENDING_ASKED = 1024;

/**
 * What the host did with one client action: `applied` (it is in the state), `rejected` (broadcast with this
 * reason, not applied), `ignored` (no echo at all, e.g. a channel the host does not have; not applied).
 */
export type ClientActionOutcome =
  | { clientSeq: number; outcome: 'applied' }
  | { clientSeq: number; outcome: 'rejected' | 'ignored'; reason: string };

const isClientSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** The pending clientSeqs a `reconnect` request asks about (deduplicated, at most MAX_PENDING_ASKED); [] when absent or garbage. */
export function pendingAsked(params: unknown): number[] {
  const meta = isRecord(params) && isRecord(params._meta) ? params._meta[PENDING_ACTIONS_META_KEY] : undefined;
  if (!Array.isArray(meta)) return [];
  return [...new Set(meta.filter(isClientSeq))].slice(0, MAX_PENDING_ASKED);
}

/** The outcomes a `reconnect` result reports, only for clientSeqs that were asked about; [] from hosts without the extension. */
export function outcomesAnswered(result: unknown, asked: readonly number[]): ClientActionOutcome[] {
  const list = isRecord(result) && isRecord(result._meta) ? result._meta[ACTION_OUTCOMES_META_KEY] : undefined;
  if (!Array.isArray(list)) return [];
  const wanted = new Set(asked);
  const out = new Map<number, ClientActionOutcome>();
  for (const o of list) {
    if (!isRecord(o) || !isClientSeq(o.clientSeq) || !wanted.has(o.clientSeq) || out.has(o.clientSeq)) continue;
    if (o.outcome === 'applied') out.set(o.clientSeq, { clientSeq: o.clientSeq, outcome: 'applied' });
    else if (o.outcome === 'rejected' || o.outcome === 'ignored') {
      out.set(o.clientSeq, { clientSeq: o.clientSeq, outcome: o.outcome, reason: typeof o.reason === 'string' ? o.reason : 'refused by the host' });
    }
  }
  return [...out.values()];
}

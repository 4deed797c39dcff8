import type { ActionEnvelope, ChannelRecovery, ChannelReplayCursor, Snapshot, URI } from '../protocol/index.js';
import type { Logger } from './transport.js';
import type { ClientActionOutcome } from '../protocol/action-outcomes.js';
import { isActionEnvelope, isRecord } from '../protocol/guards.js';

/** A `reconnect` answer in one shape: which shape the host used, and one recovery per channel. */
export interface ReconnectOutcome {
  shape: 'per-channel' | 'legacy';
  /** At most one per requested channel, in request order; actions only of that channel, ascending serverSeq. */
  channels: ChannelRecovery[];
  /**
   * What the host did with the pending actions asked about (`pendingClientSeqs`); only those it reported.
   * Absent when nothing was asked; empty from hosts without the ahp-elements extension.
   */
  actionOutcomes?: ClientActionOutcome[];
}

function isSnapshot(v: unknown): v is Snapshot {
  return isRecord(v) && typeof v.resource === 'string' && typeof v.fromSeq === 'number' && 'state' in v;
}

/** Thrown for a `reconnect` answer that cannot be used at all; the caller falls back to `initialize` + `subscribe`. */
export class UnusableReconnectResultError extends TypeError {
  constructor(result: unknown) {
    super(`Unusable reconnect result: ${JSON.stringify(result)?.slice(0, 200)}`);
    this.name = 'UnusableReconnectResultError';
  }
}

/**
 * The replayed envelopes of one channel, ascending; envelopes of other channels are skipped. Undefined when
 * the replay cannot be trusted (not an array, or a malformed envelope, which may have hidden a missed action).
 */
function envelopesOf(channel: URI, list: unknown, log: Logger): ActionEnvelope[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: ActionEnvelope[] = [];
  for (const env of list) {
    if (!isActionEnvelope(env)) {
      log('a replay holds a malformed envelope; the channel is resubscribed instead', env);
      return undefined;
    }
    if (env.channel === channel) out.push(env);
  }
  return out.sort((a, b) => a.serverSeq - b.serverSeq);
}

function perChannel(channels: unknown[], requested: readonly URI[], log: Logger): ChannelRecovery[] {
  const byChannel = new Map<URI, ChannelRecovery | null>();
  for (const r of channels) {
    if (!isRecord(r) || typeof r.channel !== 'string') continue;
    const channel = r.channel;
    let recovery: ChannelRecovery | undefined;
    const actions = r.kind === 'replay' ? envelopesOf(channel, r.actions, log) : undefined;
    if (actions) recovery = { kind: 'replay', channel, actions };
    else if (r.kind === 'snapshot' && isSnapshot(r.snapshot) && r.snapshot.resource === channel) recovery = { kind: 'snapshot', channel, snapshot: r.snapshot };
    else if (r.kind === 'missing') recovery = { kind: 'missing', channel };
    else log('skipped an unusable channel recovery', r);
    // Two answers for one channel contradict each other: neither is trusted.
    byChannel.set(channel, byChannel.has(channel) ? null : (recovery ?? null));
  }
  return requested.flatMap((c) => byChannel.get(c) ?? []);
}

/**
 * Normalizes both `reconnect` result shapes (AHP §3.4) into per-channel recoveries. Legacy `replay`
 * splits the merged actions by channel (`missing` ones become `missing`); legacy `snapshot` gives each
 * channel its snapshot. A channel is only `missing` when the host said so; a channel whose recovery is
 * absent or unusable (malformed replay, snapshot of another resource, contradicting entries) is left out,
 * so the caller resubscribes it. Throws UnusableReconnectResultError on an unrecognisable result.
 */
export function normalizeReconnectResult(result: unknown, cursors: readonly ChannelReplayCursor[], log: Logger): ReconnectOutcome {
  const requested = [...new Set(cursors.map((c) => c.channel))];
  if (isRecord(result) && Array.isArray(result.channels)) return { shape: 'per-channel', channels: perChannel(result.channels, requested, log) };
  if (isRecord(result) && result.type === 'replay' && Array.isArray(result.actions)) {
    const missing = new Set(Array.isArray(result.missing) ? result.missing : []);
    const channels = requested.flatMap((channel): ChannelRecovery[] => {
      if (missing.has(channel)) return [{ kind: 'missing', channel }];
      const actions = envelopesOf(channel, result.actions, log);
      return actions ? [{ kind: 'replay', channel, actions }] : [];
    });
    return { shape: 'legacy', channels };
  }
  if (isRecord(result) && result.type === 'snapshot' && Array.isArray(result.snapshots)) {
    const snapshots = result.snapshots.filter(isSnapshot);
    const channels = requested.flatMap((channel): ChannelRecovery[] => {
      const snapshot = snapshots.find((s) => s.resource === channel);
      return snapshot ? [{ kind: 'snapshot', channel, snapshot }] : [];
    });
    return { shape: 'legacy', channels };
  }
  throw new UnusableReconnectResultError(result);
}

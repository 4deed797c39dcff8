import type { ActionEnvelope, ChannelRecovery, ChannelReplayCursor, Snapshot, URI } from '../protocol/index.js';
import type { Logger } from './transport.js';

/** A `reconnect` answer in one shape: which shape the host used, and one recovery per channel. */
export interface ReconnectOutcome {
  shape: 'per-channel' | 'legacy';
  /** At most one per requested channel, in request order; actions only of that channel, ascending serverSeq. */
  channels: ChannelRecovery[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isEnvelope(v: unknown): v is ActionEnvelope {
  return isObject(v) && typeof v.channel === 'string' && typeof v.serverSeq === 'number' && isObject(v.action) && typeof v.action.type === 'string';
}

function isSnapshot(v: unknown): v is Snapshot {
  return isObject(v) && typeof v.resource === 'string' && typeof v.fromSeq === 'number' && 'state' in v;
}

function envelopesOf(channel: URI, list: unknown, log: Logger): ActionEnvelope[] {
  if (!Array.isArray(list)) return [];
  const out: ActionEnvelope[] = [];
  for (const env of list) {
    if (!isEnvelope(env)) log('skipped a malformed replayed envelope', env);
    else if (env.channel === channel) out.push(env);
  }
  return out.sort((a, b) => a.serverSeq - b.serverSeq);
}

function perChannel(channels: unknown[], requested: readonly URI[], log: Logger): ChannelRecovery[] {
  const byChannel = new Map<URI, ChannelRecovery>();
  for (const r of channels) {
    if (!isObject(r) || typeof r.channel !== 'string' || byChannel.has(r.channel)) continue;
    const channel = r.channel;
    if (r.kind === 'replay') byChannel.set(channel, { kind: 'replay', channel, actions: envelopesOf(channel, r.actions, log) });
    else if (r.kind === 'snapshot' && isSnapshot(r.snapshot) && r.snapshot.resource === channel) byChannel.set(channel, { kind: 'snapshot', channel, snapshot: r.snapshot });
    else if (r.kind === 'missing') byChannel.set(channel, { kind: 'missing', channel });
    else log('skipped a malformed channel recovery', r);
  }
  return requested.flatMap((c) => byChannel.get(c) ?? []);
}

/**
 * Normalizes both `reconnect` result shapes (AHP §3.4) into per-channel recoveries. Legacy `replay`
 * splits the merged actions by channel (`missing` ones become `missing`); legacy `snapshot` gives each
 * channel its snapshot, and channels without one are `missing`. Throws on an unrecognisable result.
 */
export function normalizeReconnectResult(result: unknown, cursors: readonly ChannelReplayCursor[], log: Logger): ReconnectOutcome {
  const requested = [...new Set(cursors.map((c) => c.channel))];
  if (isObject(result) && Array.isArray(result.channels)) return { shape: 'per-channel', channels: perChannel(result.channels, requested, log) };
  if (isObject(result) && result.type === 'replay' && Array.isArray(result.actions)) {
    const missing = new Set(Array.isArray(result.missing) ? result.missing : []);
    const channels = requested.map((channel): ChannelRecovery =>
      missing.has(channel) ? { kind: 'missing', channel } : { kind: 'replay', channel, actions: envelopesOf(channel, result.actions, log) },
    );
    return { shape: 'legacy', channels };
  }
  if (isObject(result) && result.type === 'snapshot' && Array.isArray(result.snapshots)) {
    const snapshots = result.snapshots.filter(isSnapshot);
    const channels = requested.map((channel): ChannelRecovery => {
      const snapshot = snapshots.find((s) => s.resource === channel);
      return snapshot ? { kind: 'snapshot', channel, snapshot } : { kind: 'missing', channel };
    });
    return { shape: 'legacy', channels };
  }
  throw new TypeError(`Unrecognised reconnect result: ${JSON.stringify(result)?.slice(0, 200)}`);
}

import type { ActionEnvelope, ChannelRecovery, ChannelReplayCursor, ReconnectResult, Snapshot, URI } from '../protocol/index.js';
import { isRecord } from '../protocol/guards.js';
import { ACTION_OUTCOMES_META_KEY, pendingAsked, type ClientActionOutcome } from '../protocol/action-outcomes.js';

/** What recovery needs from the host, already shaped for the reconnecting connection. */
export interface RecoverySource {
  /** The last serverSeq handed out. */
  serverSeq(): number;
  /** True for a channel the host can still serve. */
  has(channel: URI): boolean;
  /** Envelopes after `afterSeq`, or undefined when the bounded log no longer reaches back that far. */
  actionsSince(channel: URI, afterSeq: number): ActionEnvelope[] | undefined;
  snapshot(channel: URI): Snapshot | undefined;
}

export type ParsedReconnect =
  | { shape: 'per-channel'; clientId: string; cursors: ChannelReplayCursor[] }
  | { shape: 'legacy'; clientId: string; lastSeenServerSeq: number; subscriptions: URI[] }
  | { error: string };

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Tells the two `reconnect` shapes apart by their `subscriptions` entries (cursor objects vs URIs). */
export function parseReconnect(params: unknown): ParsedReconnect {
  if (!isRecord(params) || typeof params.clientId !== 'string' || params.clientId === '' || !Array.isArray(params.subscriptions)) {
    return { error: "reconnect needs 'clientId' (string) and 'subscriptions' (array)" };
  }
  const { clientId, subscriptions, lastSeenServerSeq } = params;
  const legacy = subscriptions.length > 0 ? typeof subscriptions[0] === 'string' : isSeq(lastSeenServerSeq);
  if (legacy) {
    if (!isSeq(lastSeenServerSeq) || !subscriptions.every((s) => typeof s === 'string')) {
      return { error: "legacy reconnect needs 'lastSeenServerSeq' (number) and 'subscriptions' (URI[])" };
    }
    return { shape: 'legacy', clientId, lastSeenServerSeq, subscriptions: subscriptions as URI[] };
  }
  const cursors: ChannelReplayCursor[] = [];
  for (const s of subscriptions) {
    if (!isRecord(s) || typeof s.channel !== 'string' || !isSeq(s.lastSeenServerSeq)) {
      return { error: "reconnect 'subscriptions' must be { channel, lastSeenServerSeq } cursors or URIs" };
    }
    cursors.push({ channel: s.channel, lastSeenServerSeq: s.lastSeenServerSeq });
  }
  return { shape: 'per-channel', clientId, cursors };
}

/**
 * Envelopes to replay after `afterSeq`, or undefined when only a snapshot can restore the channel:
 * no baseline (0), a cursor from the future (the host restarted), or a gap the log no longer covers.
 */
function replayable(src: RecoverySource, channel: URI, afterSeq: number): ActionEnvelope[] | undefined {
  if (afterSeq <= 0 || afterSeq > src.serverSeq()) return undefined;
  return src.actionsSince(channel, afterSeq);
}

/** Per-channel recovery: exactly one outcome per cursor, in request order. */
export function recoverChannels(src: RecoverySource, cursors: readonly ChannelReplayCursor[]): ChannelRecovery[] {
  return cursors.map(({ channel, lastSeenServerSeq }): ChannelRecovery => {
    if (!src.has(channel)) return { kind: 'missing', channel };
    const actions = replayable(src, channel, lastSeenServerSeq);
    if (actions) return { kind: 'replay', channel, actions };
    const snapshot = src.snapshot(channel);
    return snapshot ? { kind: 'snapshot', channel, snapshot } : { kind: 'missing', channel };
  });
}

/** Legacy recovery from one connection-wide watermark: one merged replay if every channel can replay, else snapshots of all. */
export function recoverLegacy(src: RecoverySource, lastSeenServerSeq: number, subscriptions: readonly URI[]): ReconnectResult {
  const known = [...new Set(subscriptions)].filter((c) => src.has(c));
  const missing = subscriptions.filter((c) => !src.has(c));
  const replays = known.map((c) => replayable(src, c, lastSeenServerSeq));
  if (replays.every((r) => r !== undefined)) {
    const actions = replays.flatMap((r) => r!).sort((a, b) => a.serverSeq - b.serverSeq);
    return { type: 'replay', actions, missing };
  }
  const snapshots = known.map((c) => src.snapshot(c)).filter((s): s is Snapshot => s !== undefined);
  return { type: 'snapshot', snapshots };
}

/**
 * The `_meta` a reconnect result carries for the ahp-elements action-outcomes extension: what became of the
 * pending clientSeqs the request asked about (see protocol/action-outcomes.ts). Empty when nothing was asked.
 */
export function outcomesMeta(params: unknown, lookup: (clientSeqs: readonly number[]) => ClientActionOutcome[]): { _meta?: Record<string, unknown> } {
  const asked = pendingAsked(params);
  return asked.length > 0 ? { _meta: { [ACTION_OUTCOMES_META_KEY]: lookup(asked) } } : {};
}

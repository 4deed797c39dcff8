import type { AnyAction } from '../protocol/actions.js';
import { isAbsent } from '../reducers/guards.js';
import type { ActionEnvelope, Snapshot } from '../protocol/commands.js';
import type { ActionFailure } from './types.js';
import { isRecord } from '../protocol/guards.js';
import type { ClientActionOutcome } from '../protocol/action-outcomes.js';

/** What a ChannelReconciler needs: the channel, who we are, how state evolves and how long to wait for echoes. */
export interface ChannelReconcilerOptions<S> {
  /** The channel URI this reconciler owns. */
  channel: string;
  /** This client's id, used to recognise our own echoes. */
  clientId: string;
  /** Pure, total reducer of the channel. */
  reducer: (state: S, action: AnyAction) => S;
  /** Folds a burst of actions with one copy of each changed path; the same result as `reducer` one by one. */
  fold?: (state: S, actions: readonly AnyAction[]) => S;
  /** How long a pending action may wait for its echo. */
  pendingTimeoutMs: number;
  /** Called after a pending action timed out and was removed; the caller refreshes and reports it. */
  onTimeout(failure: ActionFailure): void;
  /**
   * Before a timeout is reported: resolves once the host has handled everything sent so far (a ping
   * round trip; the host echoes in order), rejects when that cannot be known now (disconnected). Without
   * it, the timeout alone decides.
   */
  confirmSent?: () => Promise<void>;
}

/**
 * - `idle`: no state is kept; only own echoes are matched (dispatching to an unwatched channel).
 * - `awaiting`: a snapshot is expected; envelopes are buffered until it arrives.
 * - `loaded`: envelopes are applied to the confirmed state.
 */
export type ReconcilerMode = 'idle' | 'awaiting' | 'loaded';

interface Pending {
  action: AnyAction;
  timer: ReturnType<typeof setTimeout>;
}

const isRejected = (env: ActionEnvelope): boolean => !isAbsent(env.rejectionReason);

/**
 * Deferred actions folded at once when this many wait: bounds the memory a never-read store holds and keeps
 * the burst's ownership set small, while one copy of a 10,000-server list is shared by a thousand actions.
 */
export const MAX_DEFERRED = 1024;

/**
 * Write-ahead reconciliation for one channel (AHP §3.3): confirmed state and cursor from the host,
 * pending client actions keyed by clientSeq folded on top, own echoes matched by origin, the echoed
 * action applied, rejections and timeouts reported as ActionFailure. It never notifies anyone: the
 * owner calls `refresh()` after a change and tells its listeners.
 */
export class ChannelReconciler<S extends object> {
  declare readonly channel: string;
  /** What the owner gave (the callbacks are called detached, not as its methods). */
  declare private readonly recOptions: ChannelReconcilerOptions<S>;

  declare private recMode: ReconcilerMode;
  declare private confirmedState: S | undefined;
  private lastSeq = 0;
  private readonly echoWaits = new Map<number, Pending>();
  private earlyEnvelopes: ActionEnvelope[] = [];
  declare private optimisticView: S | undefined;
  /** The view the owner last reported to its listeners (`refresh`). */
  declare private lastReported: S | undefined;
  declare private viewStale?: boolean;
  declare private readonly foldActions: (state: S, actions: readonly AnyAction[]) => S;
  /** Confirmed actions (cursor past them) not folded into `confirmed` yet: see `receive(env, defer)`. */
  private deferred: AnyAction[] = [];

  constructor(options: ChannelReconcilerOptions<S>, mode: ReconcilerMode = 'awaiting') {
    this.channel = options.channel;
    this.recOptions = options;
    this.foldActions = options.fold ?? ((state, actions) => actions.reduce(options.reducer, state));
    this.recMode = mode;
  }

  /**
   * Optimistic view (confirmed with pending actions folded on top), brought up to date first: an owner may defer
   * folding and reporting. Undefined until the snapshot.
   */
  getState(): S | undefined {
    this.foldDeferred();
    if (this.viewStale) {
      this.viewStale = false;
      const view = this.confirmedState;
      this.optimisticView = view !== undefined && this.echoWaits.size > 0 ? this.foldActions(view, [...this.echoWaits.values()].map((p) => p.action)) : view;
    }
    return this.optimisticView;
  }

  /** State as confirmed by the host, without pending actions. */
  getConfirmedState(): S | undefined {
    this.foldDeferred();
    return this.confirmedState;
  }

  /** Last serverSeq applied (the snapshot's fromSeq at first); 0 without a baseline. */
  getCursor(): number {
    return this.lastSeq;
  }

  getMode(): ReconcilerMode {
    return this.recMode;
  }

  /** Number of actions waiting for their echo. */
  get pendingCount(): number {
    return this.echoWaits.size;
  }

  /** Starts buffering envelopes until `loadSnapshot` (no-op once loaded). */
  expectSnapshot(): void {
    if (this.recMode === 'idle') this.recMode = 'awaiting';
  }

  /** Forgets the state, cursor and buffer (pending actions stay and still match their echoes). */
  forget(): void {
    this.recMode = 'idle';
    this.confirmedState = undefined;
    this.lastSeq = 0;
    this.earlyEnvelopes = [];
    this.deferred = [];
    this.viewStale = true;
  }

  /** Records an action just sent with this clientSeq and starts its timeout. */
  addPending(clientSeq: number, action: AnyAction): void {
    this.echoWaits.set(clientSeq, { action, timer: this.arm(clientSeq) });
    this.viewStale = true;
  }

  private arm(clientSeq: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => this.expire(clientSeq), this.recOptions.pendingTimeoutMs);
    // Do not keep a Node process alive just for a pending echo.
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  /** Removes a pending action; returns it, or undefined when it was not pending. */
  removePending(clientSeq: number): AnyAction | undefined {
    const p = this.echoWaits.get(clientSeq);
    if (!p) return undefined;
    clearTimeout(p.timer);
    this.echoWaits.delete(clientSeq);
    this.viewStale = true;
    return p.action;
  }

  /** Sets the confirmed state from a snapshot and applies buffered envelopes after `fromSeq`. Ignored while idle or for another channel. */
  loadSnapshot(snapshot: Snapshot): boolean {
    if (this.recMode === 'idle' || !isRecord(snapshot) || snapshot.resource !== this.channel || !isRecord(snapshot.state)) return false;
    this.confirmedState = snapshot.state as S;
    this.lastSeq = typeof snapshot.fromSeq === 'number' ? snapshot.fromSeq : 0;
    this.recMode = 'loaded';
    const buffered = this.earlyEnvelopes.sort((a, b) => a.serverSeq - b.serverSeq);
    this.earlyEnvelopes = [];
    this.deferred = buffered.filter((env) => this.advancePast(env)).map((env) => env.action as AnyAction);
    this.foldDeferred();
    this.viewStale = true;
    return true;
  }

  /**
   * Feeds one envelope of this channel: an own echo removes its pending entry first (even when the
   * envelope is overlap or the channel is idle), then the envelope is buffered, applied or ignored.
   * Returns the failure to report for an own rejected action. With `defer`, an action to apply only
   * moves the cursor and waits, to be folded with the others as one burst (reducers/burst.ts) when the
   * state is next read (`refresh`, `getConfirmedState`) or `MAX_DEFERRED` wait: for an owner whose view
   * nobody reads between envelopes, so that no intermediate state is built.
   */
  receive(env: ActionEnvelope, defer = false): ActionFailure | undefined {
    if (!isRecord(env) || env.channel !== this.channel || typeof env.serverSeq !== 'number') return undefined;
    let failure: ActionFailure | undefined;
    const origin = env.origin;
    if (isRecord(origin) && origin.clientId === this.recOptions.clientId && typeof origin.clientSeq === 'number') {
      const mine = this.removePending(origin.clientSeq);
      if (mine && isRejected(env)) failure = this.failure('rejected', origin.clientSeq, mine, String(env.rejectionReason));
    }
    if (this.recMode === 'awaiting') this.earlyEnvelopes.push(env);
    else if (this.recMode === 'loaded' && this.advancePast(env)) {
      const action = env.action as AnyAction;
      // Nobody is told about deferred actions one by one: whoever looks next sees the whole change. An action not
      // deferred, with nothing waiting, is reduced as it is, without the array of a burst.
      if (!defer && !this.deferred.length) this.adoptState(this.recOptions.reducer(this.confirmedState!, action));
      else if (this.deferred.push(action) < MAX_DEFERRED && defer) this.viewStale = true;
      else this.foldDeferred();
    }
    return failure;
  }

  /** clientSeqs of the actions waiting for their echo, oldest first. */
  pendingClientSeqs(): number[] {
    return [...this.echoWaits.keys()];
  }

  /**
   * Settles a pending action by what the host reported on reconnect (its echo was lost): an applied one leaves
   * silently (the recovered state holds its effect); a rejected one is reported `rejected` with the host's
   * reason, an ignored one `dropped`. Undefined for a clientSeq not pending here.
   */
  settle(outcome: ClientActionOutcome): { failure?: ActionFailure } | undefined {
    const action = this.removePending(outcome.clientSeq);
    if (!action) return undefined;
    if (outcome.outcome === 'applied') return {};
    return { failure: this.failure(outcome.outcome === 'rejected' ? 'rejected' : 'dropped', outcome.clientSeq, action, outcome.reason) };
  }

  /** Drops every pending action and returns each as a `dropped` failure. */
  dropPending(reason: string): ActionFailure[] {
    return [...this.echoWaits].map(([seq, p]) => {
      this.removePending(seq);
      return this.failure('dropped', seq, p.action, reason);
    });
  }

  /** A failure of the given kind for one of our actions on this channel. */
  failure(kind: ActionFailure['kind'], clientSeq: number, action: AnyAction, reason: string): ActionFailure {
    return { kind, channel: this.channel, clientSeq, action, reason };
  }

  /** Brings the view up to date and reports the change since the last report: `prev` is the view reported then (reads in between do not count). */
  refresh(): { changed: boolean; prev: S | undefined } {
    const view = this.getState();
    const prev = this.lastReported;
    this.lastReported = view;
    return { changed: view !== prev, prev };
  }

  /** Clears every timer (pending actions are forgotten without being reported). */
  dispose(): void {
    for (const p of this.echoWaits.values()) clearTimeout(p.timer);
    this.echoWaits.clear();
  }

  /** Moves the cursor past `env`; true when its action is to be applied (not overlap, not rejected). */
  private advancePast(env: ActionEnvelope): boolean {
    // Overlap with the snapshot or a replay: already part of confirmed state.
    if (env.serverSeq <= this.lastSeq || this.confirmedState === undefined) return false;
    this.lastSeq = env.serverSeq;
    return !isRejected(env);
  }

  /** Applies the actions that wait (one, or a burst with one copy of each changed path). */
  private foldDeferred(): void {
    const actions = this.deferred;
    if (actions.length === 0 || this.confirmedState === undefined) return;
    this.deferred = [];
    this.adoptState(this.foldActions(this.confirmedState, actions));
  }

  private adoptState(next: S): void {
    if (next !== this.confirmedState) {
      this.confirmedState = next;
      this.viewStale = true;
    }
  }

  private expire(clientSeq: number): void {
    const { confirmSent: confirm, onTimeout } = this.recOptions;
    if (!confirm) {
      const action = this.removePending(clientSeq);
      if (action) onTimeout(this.failure('timeout', clientSeq, action, `no echo from the host within ${this.recOptions.pendingTimeoutMs} ms`));
      return;
    }
    // A slow echo (a big action on a slow link) is not a failure: only once the host answered something
    // sent after the action, and the echo still has not come, is it known that none will.
    confirm().then(
      () => {
        const action = this.removePending(clientSeq);
        if (action) onTimeout(this.failure('timeout', clientSeq, action, 'the host handled it but sent no echo (unknown channel?)'));
      },
      () => {
        const p = this.echoWaits.get(clientSeq);
        if (p) p.timer = this.arm(clientSeq);
      },
    );
  }
}

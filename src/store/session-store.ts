import type { AnyAction } from '../protocol/actions.js';
import type { ActionEnvelope, ChannelReplayCursor, DispatchActionParams, Snapshot } from '../protocol/commands.js';
import type { McpServerCustomization } from '../protocol/customizations.js';
import type { ChatState, SessionState } from '../protocol/session.js';
import type { ToolCallState } from '../protocol/tool-calls.js';
import { sessionReducer } from '../reducers/session-reducer.js';
import { ChannelReconciler, type ReconcilerMode } from './channel-reconciler.js';
import { checkActionSize, isChatChannel, routeAction, type ActionSizeLimits } from './channel-routing.js';
import { StoreListeners } from './store-listeners.js';
import { foldBurst } from '../reducers/burst.js';
import { changedToolCallIds, chatReducersLoading, findToolCall, foldChat, reduceChat } from './chat-reducers-lazy.js';
import type { ActionFailure, SessionStoreLike } from './types.js';
import { errorText, isRecord } from '../protocol/guards.js';
import type { ClientActionOutcome } from '../protocol/action-outcomes.js';

/** What a SessionStore needs from the connection that feeds it. */
export interface SessionStoreOptions {
  /** The session channel URI (`ahp-session:/…`). */
  channel: string;
  /** This client's id, used to recognise our own echoes. */
  clientId: string;
  /** Sends a `dispatchAction` notification. */
  send(params: DispatchActionParams): void;
  /** Next client-wide monotonic clientSeq (never reused while clientId is unchanged). */
  nextClientSeq(): number;
  /** How long a dispatched action may wait for its echo; default 10 000 ms. */
  pendingTimeoutMs?: number;
  /**
   * Size limits checked before an action is sent (defaults: the host's, 10 MiB per action as JSON and
   * 256 KiB of message text). Counted in characters, which never exceed UTF-8 bytes, so nothing the host
   * would accept is refused; the host checks the exact byte sizes.
   */
  limits?: ActionSizeLimits;
  /** See ChannelReconcilerOptions.confirmSent: lets a slow echo arrive instead of reporting a timeout. */
  confirmSent?(): Promise<void>;
  /** Subscribes a chat channel and resolves with its snapshot; `watchChat` calls it for the first watcher. */
  subscribeChannel?(uri: string): Promise<Snapshot>;
  /** Unsubscribes a chat channel; called when its last watcher releases it. */
  unsubscribeChannel?(uri: string): void;
  /**
   * When listeners hear of received envelopes. Without it, at once: each `receive` folds its action and wakes the
   * listeners of what changed. With it, envelopes only move the cursor and settle own echoes; the first one after a
   * flush calls `scheduleNotify(flush)`, and `flush` (called once: at the next microtask by default in
   * `connectSession`, at the next animation frame in `<ahp-session>`) folds everything received since as one burst and wakes each listener once, for the whole
   * change. Reads in between see the current state; a listener that subscribes in between hears of the change
   * only if it happens after it subscribed. Dispatches, snapshots and failures are told at once in both modes.
   */
  scheduleNotify?(flush: () => void): void;
}

interface ChatWatch {
  count: number;
  /** Tells a late snapshot of an earlier watch cycle from the current one. */
  generation: number;
}

type AnyReconciler = ChannelReconciler<SessionState> | ChannelReconciler<ChatState>;

const foldSession = (state: SessionState, actions: readonly AnyAction[]): SessionState => foldBurst(sessionReducer, state, actions);

/**
 * Optimistic store for one session and the chats watched in it (AHP §3.3): one ChannelReconciler
 * per channel keeps confirmed state, cursor and pending client actions; the store routes envelopes
 * by channel and wakes only the listeners whose object changed. A channel nobody listens to is not
 * folded envelope by envelope: its actions wait and are folded as one burst when its state is read
 * (or a thousand wait), so reading after N envelopes costs what `receiveAll` of them costs.
 */
export class SessionStore implements SessionStoreLike {
  readonly channel: string;
  /** What the connection gave: its callbacks (send, subscribeChannel… are called as its methods) and settings. */
  declare private readonly storeOptions: SessionStoreOptions;

  declare private readonly sessionRec: ChannelReconciler<SessionState>;
  /** Chat reconcilers: watched chats, and unwatched ones that still have pending actions. */
  private readonly chatRecs = new Map<string, ChannelReconciler<ChatState>>();
  private readonly chatWatchCounts = new Map<string, ChatWatch>();
  private lastGeneration = 0;
  /** Channels with received envelopes their listeners have not heard of yet (see `scheduleNotify`). */
  private readonly dueRecs = new Set<AnyReconciler>();

  private readonly storeHub = new StoreListeners(
    () => this.getState(),
    (uri) => this.getChatState(uri),
    findToolCall,
    changedToolCallIds,
  );

  constructor(options: SessionStoreOptions) {
    this.channel = options.channel;
    this.storeOptions = options;
    this.sessionRec = this.reconciler(this.channel, sessionReducer, foldSession, 'awaiting');
  }

  /** Optimistic view; undefined before the snapshot. */
  getState(): SessionState | undefined {
    return this.sessionRec.getState();
  }

  /** State as confirmed by the host, without pending actions. */
  getConfirmedState(): SessionState | undefined {
    return this.sessionRec.getConfirmedState();
  }

  /** Number of dispatched actions still waiting for their echo, on one channel or on all. */
  getPendingCount(channel?: string): number {
    if (channel !== undefined) return this.reconcilerOf(channel)?.pendingCount ?? 0;
    return this.reconcilers().reduce((n, rec) => n + rec.pendingCount, 0);
  }

  /** Last serverSeq applied to a channel (the session by default; the snapshot's fromSeq at first); 0 without a baseline. */
  getCursor(channel: string = this.channel): number {
    return this.reconcilerOf(channel)?.getCursor() ?? 0;
  }

  /** Replay cursors for `reconnect`: the session and every watched chat (0 = no baseline yet). */
  getChannelCursors(): ChannelReplayCursor[] {
    return [this.channel, ...this.chatWatchCounts.keys()].map((channel) => ({ channel, lastSeenServerSeq: this.getCursor(channel) }));
  }

  /** URIs of the chats currently watched. */
  getWatchedChats(): string[] {
    return [...this.chatWatchCounts.keys()];
  }

  subscribe(listener: () => void): () => void {
    this.report(this.sessionRec);
    return this.storeHub.subscribe(listener);
  }

  subscribeMcpServer(id: string, listener: (server: McpServerCustomization | undefined) => void): () => void {
    this.report(this.sessionRec);
    return this.storeHub.subscribeMcpServer(id, listener);
  }

  watchChat(uri: string): () => void {
    if (!isChatChannel(this.channel, uri)) throw new TypeError(`SessionStore.watchChat: "${String(uri)}" is not a chat channel`);
    let watch = this.chatWatchCounts.get(uri);
    if (watch) watch.count++;
    else {
      watch = { count: 1, generation: ++this.lastGeneration };
      this.chatWatchCounts.set(uri, watch);
      (this.chatRecs.get(uri) ?? this.addChatRec(uri, 'awaiting')).expectSnapshot();
      this.loadChat(uri, watch.generation);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.releaseChatRec(uri);
    };
  }

  getChatState(uri: string): ChatState | undefined {
    // An unwatched chat's reconciler is idle, and an idle one holds no state: one lookup, not two (read after every envelope).
    return this.chatRecs.get(uri)?.getState();
  }

  subscribeChat(uri: string, listener: () => void): () => void {
    this.report(this.chatRecs.get(uri));
    return this.storeHub.subscribeChat(uri, listener);
  }

  subscribeToolCall(chat: string, toolCallId: string, listener: (toolCall: ToolCallState | undefined) => void): () => void {
    this.report(this.chatRecs.get(chat));
    return this.storeHub.subscribeToolCall(chat, toolCallId, listener);
  }

  onActionFailed(listener: (failure: ActionFailure) => void): () => void {
    return this.storeHub.onActionFailed(listener);
  }

  dispatch(action: AnyAction, channel?: string): number {
    const target = routeAction('SessionStore', this.channel, action, channel);
    checkActionSize('SessionStore', action, this.storeOptions.limits);
    const rec = target === this.channel ? this.sessionRec : (this.chatRecs.get(target) ?? this.addChatRec(target, 'idle'));
    const clientSeq = this.storeOptions.nextClientSeq();
    rec.addPending(clientSeq, action);
    const failures: ActionFailure[] = [];
    try {
      this.storeOptions.send({ channel: target, clientSeq, action });
    } catch (err) {
      const dropped = rec.removePending(clientSeq);
      if (dropped) failures.push(rec.failure('dropped', clientSeq, dropped, `send failed: ${errorText(err)}`));
    }
    this.afterChange(rec, failures);
    return clientSeq;
  }

  /** Sets the confirmed state of the session or a watched chat (by `snapshot.resource`) and applies buffered envelopes after `fromSeq`. */
  loadSnapshot(snapshot: Snapshot): void {
    if (!isRecord(snapshot) || typeof snapshot.resource !== 'string') return;
    const rec = snapshot.resource === this.channel ? this.sessionRec : this.chatWatchCounts.has(snapshot.resource) ? this.chatRecs.get(snapshot.resource) : undefined;
    if (!rec) return;
    // A chat is re-armed so a reconnect snapshot also loads one that failed to load before.
    rec.expectSnapshot();
    const reducers = rec === this.sessionRec ? undefined : chatReducersLoading();
    if (reducers) return void reducers.then(() => this.chatRecs.get(snapshot.resource) === rec && this.loadSnapshot(snapshot), (err: unknown) => console.error(`SessionStore: could not load chat ${snapshot.resource}`, err));
    if (rec.loadSnapshot(snapshot)) this.afterChange(rec);
  }

  /**
   * Feeds one action envelope (live or replayed), routed by `env.channel` to the session or a
   * watched chat. Envelopes for other channels are ignored, except that own echoes still settle
   * actions dispatched to them.
   */
  receive(env: ActionEnvelope): void {
    // A channel that is not a string names no reconciler.
    const rec = isRecord(env) ? this.reconcilerOf(env.channel) : undefined;
    if (!rec) return;
    const unobserved = this.unobserved(rec);
    const failure = rec.receive(env, !!this.storeOptions.scheduleNotify || unobserved);
    this.afterChange(rec, failure && [failure], true, unobserved);
  }

  /**
   * Feeds a burst of envelopes (a replay, everything one socket read delivered): the same end state as
   * `receive` for each in turn, but each channel folds its actions with one copy of what changed and its
   * listeners are told once.
   */
  receiveAll(envs: readonly ActionEnvelope[]): void {
    if (!Array.isArray(envs)) return;
    // Deferred (see ChannelReconciler.receive) and folded by the commit, or by the next read when nobody listens.
    const touched = new Set<AnyReconciler>();
    const failures: ActionFailure[] = [];
    for (const env of envs) {
      const rec = isRecord(env) ? this.reconcilerOf(env.channel as string) : undefined;
      const failure = rec?.receive(env, true);
      if (failure) failures.push(failure);
      if (rec) touched.add(rec);
    }
    for (const rec of touched) this.afterChange(rec, [], true);
    this.storeHub.failed(failures);
  }

  /** clientSeqs of every action still waiting for its echo (all channels), for `reconnect` to ask the host about. */
  getPendingClientSeqs(): number[] {
    return this.reconcilers().flatMap((rec) => rec.pendingClientSeqs());
  }

  /**
   * Settles pending actions by the outcomes the host reported on reconnect: applied ones silently (their
   * echo was lost, the recovered state holds them), rejected / ignored ones reported as failures.
   */
  settlePending(outcomes: readonly ClientActionOutcome[]): void {
    for (const rec of this.reconcilers()) {
      const settled = outcomes.map((outcome) => rec.settle(outcome)).filter((result) => result !== undefined);
      if (settled.length) this.afterChange(rec, settled.flatMap((result) => result.failure ?? []));
    }
  }

  /** Drops pending actions (of one channel, or all) and reports each as `dropped` (after reconnect recovery). */
  dropPending(reason: string, channel?: string): void {
    const recs = channel !== undefined ? [this.reconcilerOf(channel)] : this.reconcilers();
    for (const rec of recs) if (rec) this.afterChange(rec, rec.dropPending(reason));
  }

  /** Clears timers and listeners; the store stays readable. */
  dispose(): void {
    for (const rec of this.reconcilers()) rec.dispose();
    this.storeHub.clear();
  }

  private reconciler<S extends object>(
    channel: string,
    reducer: (s: S, a: AnyAction) => S,
    fold: (s: S, a: readonly AnyAction[]) => S,
    mode: ReconcilerMode,
  ): ChannelReconciler<S> {
    const options = this.storeOptions;
    const rec: ChannelReconciler<S> = new ChannelReconciler<S>(
      {
        channel,
        clientId: options.clientId,
        reducer,
        fold,
        pendingTimeoutMs: options.pendingTimeoutMs ?? 10_000,
        onTimeout: (f) => this.afterChange(rec as unknown as AnyReconciler, [f]),
        ...(options.confirmSent && { confirmSent: () => options.confirmSent!() }),
      },
      mode,
    );
    return rec;
  }

  private addChatRec(uri: string, mode: ReconcilerMode): ChannelReconciler<ChatState> {
    const rec = this.reconciler<ChatState>(uri, reduceChat, foldChat, mode);
    this.chatRecs.set(uri, rec);
    return rec;
  }

  /** The session's reconciler and every chat's. */
  private reconcilers(): AnyReconciler[] {
    return [this.sessionRec, ...this.chatRecs.values()];
  }

  private reconcilerOf(channel: string): AnyReconciler | undefined {
    return channel === this.channel ? this.sessionRec : this.chatRecs.get(channel);
  }

  private loadChat(uri: string, generation: number): void {
    const options = this.storeOptions;
    if (!options.subscribeChannel) return;
    const subscribe = (uri: string) => options.subscribeChannel!(uri);
    let request: Promise<Snapshot>;
    try {
      // A chat holds state only once the chat reducers are here (see chat-reducers-lazy.ts).
      const reducers = chatReducersLoading();
      request = reducers ? reducers.then(() => subscribe(uri)) : Promise.resolve(subscribe(uri));
    } catch (err) {
      request = Promise.reject(err);
    }
    request
      .then((snapshot) => {
        const rec = this.chatRecs.get(uri);
        if (this.chatWatchCounts.get(uri)?.generation !== generation || !rec || rec.getMode() !== 'awaiting') return;
        if (!rec.loadSnapshot(snapshot)) throw new Error('no usable snapshot');
        this.afterChange(rec);
      })
      .catch((err: unknown) => {
        if (this.chatWatchCounts.get(uri)?.generation !== generation) return;
        // Stop buffering; the chat stays watched and a later loadSnapshot (e.g. after reconnect) can still load it.
        const rec = this.chatRecs.get(uri);
        if (rec?.getMode() === 'awaiting') rec.forget();
        console.error(`SessionStore: could not load chat ${uri}`, err);
      });
  }

  private releaseChatRec(uri: string): void {
    const watch = this.chatWatchCounts.get(uri);
    if (!watch || --watch.count > 0) return;
    this.chatWatchCounts.delete(uri);
    const rec = this.chatRecs.get(uri);
    rec?.forget();
    try {
      this.storeOptions.unsubscribeChannel?.(uri);
    } catch (err) {
      console.error(`SessionStore: unsubscribing ${uri} failed`, err);
    }
    if (rec) this.afterChange(rec);
  }

  /** True when no listener would be told about a change of this channel: its view may wait until it is read. */
  private unobserved(rec: AnyReconciler): boolean {
    return !this.storeHub.observes(rec === this.sessionRec ? undefined : rec.channel);
  }

  /**
   * After a change of a channel: wakes the listeners of what changed (now, or at the scheduled flush for `received`
   * envelopes; nobody when nobody listens), forgets idle chats and reports failures.
   */
  private afterChange(rec: AnyReconciler, failures?: readonly ActionFailure[], received?: boolean, unobserved = this.unobserved(rec)): void {
    // With nobody to tell, the view waits: the next listener catches up when it subscribes (`report`).
    if (!unobserved) {
      const schedule = received && this.storeOptions.scheduleNotify;
      if (!schedule) this.report(rec);
      else {
        // An empty set has no flush queued (a second one, if `report` emptied it early, finds nothing to do). The
        // flush walks the live set: a channel a listener feeds during the flush is reported in it too.
        if (!this.dueRecs.size) schedule(() => this.dueRecs.forEach((r) => this.report(r)));
        this.dueRecs.add(rec);
      }
    }
    // Only an idle chat can be unwatched (a release forgets it; the session never is): a watched one costs no lookup.
    if (rec.getMode() === 'idle' && rec.pendingCount === 0 && !this.chatWatchCounts.has(rec.channel) && this.chatRecs.get(rec.channel) === rec) {
      rec.dispose();
      this.chatRecs.delete(rec.channel);
    }
    if (failures) this.storeHub.failed(failures);
  }

  /**
   * Recomputes a channel's view and wakes the listeners of what changed since they last heard. Called before a
   * listener is added too: the others hear of what is due first, and the new one only of later changes.
   */
  private report(rec: AnyReconciler | undefined): void {
    if (!rec) return;
    this.dueRecs.delete(rec);
    const { changed, prev } = rec.refresh();
    if (!changed) return;
    if (rec === this.sessionRec) this.storeHub.sessionChanged(prev as SessionState | undefined, this.sessionRec.getState());
    else this.storeHub.chatChanged(rec.channel, prev as ChatState | undefined, rec.getState() as ChatState | undefined);
  }
}

import type { AnyAction } from '../protocol/actions.js';
import type { McpServerCustomization } from '../protocol/customizations.js';
import type { ChatState, SessionState } from '../protocol/session.js';
import type { ToolCallState } from '../protocol/tool-calls.js';
import { chatReducer } from '../reducers/chat-reducer.js';
import { sessionReducer } from '../reducers/session-reducer.js';
import { checkActionSize, isChatChannel, routeAction, type ActionSizeLimits } from '../store/channel-routing.js';
import { StoreListeners } from '../store/store-listeners.js';
import { changedToolCallIds, findToolCall } from '../store/tool-call-selectors.js';
import type { ActionFailure, SessionStoreLike } from '../store/types.js';
import { applyPatch, type PatchOp } from './state-patch.js';
import { reuseEqual } from './structural-merge.js';
import type { WorkerEvent } from './worker-messages.js';
import { errorText } from '../protocol/guards.js';

/** How a WorkerSessionStore reaches the store in the worker (fire and forget; answers come back as events). */
export interface WorkerStoreBridge {
  dispatch(localId: number, action: AnyAction, channel: string | undefined): void;
  watchChat(uri: string): void;
  releaseChat(uri: string): void;
  /** Asks the worker for whole views again (a patch did not fit). */
  resync?(): void;
}

/** A failure as a page sees it: `clientSeq` is the page-local id `dispatch` returned. */
export interface WorkerActionFailure extends ActionFailure {
  /** The clientSeq the worker's client sent on the wire (0 if the action never got one). */
  wireClientSeq: number;
}

interface PendingAction {
  action: AnyAction;
  channel: string;
}

interface ChatMirror {
  count: number;
  base: ChatState | undefined;
  view: ChatState | undefined;
}


/**
 * The page side of worker mode: a synchronous `SessionStoreLike` over a local mirror of the store in
 * a worker. The worker sends a view whole once, then only its changes (`patch` events, applied by copying
 * just the changed paths), so unchanged subtrees keep their identity and per-server / per-tool-call
 * listeners wake only on real changes. A whole view sent again (after a resync) is merged into the
 * previous one for the same reason; a patch that does not fit asks the worker for whole views.
 *
 * Dispatch across the async boundary: `dispatch` applies the action to the mirror at once (with the
 * same reducers), forwards it to the worker and returns a page-local id (1, 2, 3, … per page store),
 * not the wire clientSeq, which the worker's client assigns later. The action stays folded into the
 * mirror until the worker acks it (from then on the worker's own view carries it); a failure of that
 * action is reported through `onActionFailed` with `clientSeq` set to the same page-local id (and the
 * wire clientSeq in `wireClientSeq`). Only failures of this page's own dispatches are reported here.
 */
export class WorkerSessionStore implements SessionStoreLike {
  readonly channel: string;
  declare private readonly bridge: WorkerStoreBridge;
  declare private base: SessionState | undefined;
  declare private view: SessionState | undefined;
  /** This page's dispatches the worker has not acked yet, in dispatch order. */
  private readonly pending = new Map<number, PendingAction>();
  private lastLocalId = 0;
  private readonly chats = new Map<string, ChatMirror>();
  declare private closed?: boolean;
  declare private readonly limits: ActionSizeLimits | undefined;

  private readonly listeners = new StoreListeners<WorkerActionFailure>(
    () => this.view,
    (uri) => this.getChatState(uri),
    findToolCall,
    changedToolCallIds,
  );

  /** `limits`: the size limits checked before sending (as SessionStore's; defaults: the host's). */
  constructor(options: { channel: string; bridge: WorkerStoreBridge; limits?: ActionSizeLimits }) {
    this.channel = options.channel;
    this.bridge = options.bridge;
    this.limits = options.limits;
  }

  getState(): SessionState | undefined {
    return this.view;
  }

  /** Number of this page's dispatches the worker has not acked yet. */
  getPendingCount(): number {
    return this.pending.size;
  }

  subscribe(listener: () => void): () => void {
    return this.listeners.subscribe(listener);
  }

  subscribeMcpServer(id: string, listener: (server: McpServerCustomization | undefined) => void): () => void {
    return this.listeners.subscribeMcpServer(id, listener);
  }

  dispatch(action: AnyAction, channel?: string): number {
    const target = routeAction('WorkerSessionStore', this.channel, action, channel);
    checkActionSize('WorkerSessionStore', action, this.limits);
    const localId = ++this.lastLocalId;
    if (this.closed) {
      this.reportFailures([{ kind: 'dropped', channel: target, clientSeq: localId, wireClientSeq: 0, action, reason: 'the connection is closed' }]);
      return localId;
    }
    this.pending.set(localId, { action, channel: target });
    this.refresh(target);
    try {
      this.bridge.dispatch(localId, action, channel);
    } catch (err) {
      const reason = `could not reach the worker: ${errorText(err)}`;
      this.receive([{ type: 'failure', localId, failure: { kind: 'dropped', channel: target, clientSeq: 0, action, reason } }]);
    }
    return localId;
  }

  watchChat(uri: string): () => void {
    if (!isChatChannel(this.channel, uri)) throw new TypeError(`WorkerSessionStore.watchChat: "${String(uri)}" is not a chat channel`);
    const mirror = this.chats.get(uri);
    if (mirror) mirror.count++;
    else {
      this.chats.set(uri, { count: 1, base: undefined, view: undefined });
      this.bridge.watchChat(uri);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const m = this.chats.get(uri);
      if (!m || --m.count > 0) return;
      this.chats.delete(uri);
      this.bridge.releaseChat(uri);
      if (m.view !== undefined) this.listeners.chatChanged(uri, m.view, undefined);
    };
  }

  getChatState(uri: string): ChatState | undefined {
    return this.chats.get(uri)?.view;
  }

  subscribeChat(uri: string, listener: () => void): () => void {
    return this.listeners.subscribeChat(uri, listener);
  }

  subscribeToolCall(chat: string, toolCallId: string, listener: (toolCall: ToolCallState | undefined) => void): () => void {
    return this.listeners.subscribeToolCall(chat, toolCallId, listener);
  }

  onActionFailed(listener: (failure: WorkerActionFailure) => void): () => void {
    return this.listeners.onActionFailed(listener);
  }

  /** Applies one batch of worker events: new views first, then acks and failures, then listeners. */
  receive(events: readonly WorkerEvent[]): void {
    if (this.closed || !Array.isArray(events)) return;
    const touched = new Set<string>();
    /** Channels where this batch settled one of this page's actions (acked or failed). */
    const settled = new Set<string>();
    const failures: WorkerActionFailure[] = [];
    for (const event of events) {
      if (typeof event !== 'object' || event === null) continue;
      switch (event.type) {
        case 'state':
          this.base = reuseEqual(this.view, event.state);
          touched.add(this.channel);
          break;
        case 'patch': {
          const next = this.patched(this.base, event.ops);
          if (next === undefined) break;
          this.base = next;
          touched.add(this.channel);
          break;
        }
        case 'chat': {
          const mirror = this.chats.get(event.uri);
          if (!mirror) break;
          mirror.base = reuseEqual(mirror.view, event.state);
          touched.add(event.uri);
          break;
        }
        case 'chat-patch': {
          const mirror = this.chats.get(event.uri);
          const next = mirror ? this.patched(mirror.base, event.ops) : undefined;
          if (!mirror || next === undefined) break;
          mirror.base = next;
          touched.add(event.uri);
          break;
        }
        case 'ack':
        case 'failure': {
          const p = this.pending.get(event.localId);
          if (p) {
            this.pending.delete(event.localId);
            touched.add(p.channel);
            settled.add(p.channel);
          }
          if (event.type === 'failure') failures.push({ ...event.failure, clientSeq: event.localId, wireClientSeq: event.failure.clientSeq });
          break;
        }
      }
    }
    for (const channel of touched) this.refresh(channel, settled.has(channel));
    this.reportFailures(failures);
  }

  /** `base` with the worker's changes applied; undefined (and a resync asked for) when they do not fit. */
  private patched<S>(base: S | undefined, ops: PatchOp[]): S | undefined {
    if (base === undefined) {
      this.bridge.resync?.();
      return undefined;
    }
    try {
      return applyPatch(base, ops);
    } catch (err) {
      console.warn('WorkerSessionStore: a patch from the worker did not fit; asking for the whole state', err);
      this.bridge.resync?.();
      return undefined;
    }
  }

  /** Marks the store closed for good: unacked dispatches are reported as dropped, later events are ignored. */
  close(reason = 'closed by client'): void {
    if (this.closed) return;
    const dropped: WorkerActionFailure[] = [...this.pending].map(([localId, p]) => ({ kind: 'dropped', channel: p.channel, clientSeq: localId, wireClientSeq: 0, action: p.action, reason }));
    this.pending.clear();
    const channels = new Set(dropped.map((f) => f.channel));
    for (const channel of channels) this.refresh(channel);
    this.closed = true;
    this.reportFailures(dropped);
  }

  private reportFailures(failures: readonly WorkerActionFailure[]): void {
    this.listeners.failed(failures);
  }

  /** Recomputes a channel's view (confirmed-in-worker base + this page's unacked actions) and wakes what changed. */
  private refresh(channel: string, settled = false): void {
    if (channel === this.channel) {
      const prev = this.view;
      let next = this.fold(this.base, channel, sessionReducer, prev);
      // This page's actions were just settled: what they built and what the worker confirmed look alike but
      // are other objects; keep the ones the page already had (and patch that base from now on).
      if (settled && next === this.base && next !== undefined && prev !== undefined) next = this.base = reuseEqual(prev, next);
      if (next === prev) return;
      this.view = next;
      this.listeners.sessionChanged(prev, next);
      return;
    }
    const mirror = this.chats.get(channel);
    if (!mirror) return;
    const prev = mirror.view;
    let next = this.fold(mirror.base, channel, chatReducer, prev);
    if (settled && next === mirror.base && next !== undefined && prev !== undefined) next = mirror.base = reuseEqual(prev, next);
    if (next === prev) return;
    mirror.view = next;
    this.listeners.chatChanged(channel, prev, next);
  }

  private fold<S extends object>(base: S | undefined, channel: string, reducer: (s: S, a: AnyAction) => S, prev: S | undefined): S | undefined {
    if (base === undefined) return undefined;
    let state = base;
    for (const p of this.pending.values()) if (p.channel === channel) state = reducer(state, p.action);
    // Re-applying the same actions on a new base rebuilds what they touch; keep it if nothing really changed.
    return state === base ? base : reuseEqual(prev, state);
  }
}

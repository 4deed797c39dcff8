import type { AnyAction } from '../protocol/actions.js';
import { isClientDispatchable } from '../protocol/actions.js';
import type { ActionEnvelope, DispatchActionParams, Snapshot } from '../protocol/commands.js';
import type { McpServerCustomization } from '../protocol/customizations.js';
import type { SessionState } from '../protocol/session.js';
import { forEachMcpServer } from '../reducers/customizations.js';
import { sessionReducer } from '../reducers/session-reducer.js';
import type { ActionFailure, ConnectionState, SessionStoreLike } from './types.js';

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
}

interface Pending {
  action: AnyAction;
  timer: ReturnType<typeof setTimeout>;
}

type ServerListener = (server: McpServerCustomization | undefined) => void;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Two server objects that render the same: identical, or same keys with identical values (state compared one level deeper). */
function sameServer(a: McpServerCustomization | undefined, b: McpServerCustomization | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => {
    const va = (a as unknown as Record<string, unknown>)[k];
    const vb = (b as unknown as Record<string, unknown>)[k];
    return va === vb || (k === 'state' && isObject(va) && isObject(vb) && shallowEqual(va, vb));
  });
}

function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k], b[k]));
}

function report(what: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    console.error(`SessionStore: ${what} listener threw`, err);
  }
}

/**
 * Optimistic store for one session channel (AHP §3.3): confirmed state + cursor from the host,
 * pending client actions folded on top until their echo arrives.
 */
export class SessionStore implements SessionStoreLike {
  readonly channel: string;
  private readonly clientId: string;
  private readonly sendAction: (params: DispatchActionParams) => void;
  private readonly nextClientSeq: () => number;
  private readonly pendingTimeoutMs: number;

  private confirmed: SessionState | undefined;
  private cursor = 0;
  private readonly pending = new Map<number, Pending>();
  /** Envelopes that arrived before the snapshot. */
  private buffer: ActionEnvelope[] = [];
  private view: SessionState | undefined;
  private dirty = false;
  private connection: ConnectionState = { kind: 'connecting' };

  private readonly listeners = new Set<() => void>();
  private readonly failureListeners = new Set<(failure: ActionFailure) => void>();
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  private readonly serverListeners = new Map<string, Set<ServerListener>>();
  /** Last server object each watched id was notified with. */
  private readonly lastServers = new Map<string, McpServerCustomization | undefined>();

  constructor(options: SessionStoreOptions) {
    this.channel = options.channel;
    this.clientId = options.clientId;
    this.sendAction = options.send;
    this.nextClientSeq = options.nextClientSeq;
    this.pendingTimeoutMs = options.pendingTimeoutMs ?? 10_000;
  }

  /** Optimistic view; undefined before the snapshot. */
  getState(): SessionState | undefined {
    return this.view;
  }

  /** State as confirmed by the host, without pending actions. */
  getConfirmedState(): SessionState | undefined {
    return this.confirmed;
  }

  /** Number of dispatched actions still waiting for their echo. */
  getPendingCount(): number {
    return this.pending.size;
  }

  /** Last serverSeq applied to this channel (the snapshot's fromSeq at first); 0 before the snapshot. For reconnect cursors. */
  getCursor(): number {
    return this.cursor;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  subscribeMcpServer(id: string, listener: ServerListener): () => void {
    let set = this.serverListeners.get(id);
    if (!set) {
      set = new Set();
      this.serverListeners.set(id, set);
      this.lastServers.set(id, this.serverIndex().get(id));
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.serverListeners.get(id) === set) {
        this.serverListeners.delete(id);
        this.lastServers.delete(id);
      }
    };
  }

  onActionFailed(listener: (failure: ActionFailure) => void): () => void {
    this.failureListeners.add(listener);
    return () => void this.failureListeners.delete(listener);
  }

  getConnectionState(): ConnectionState {
    return this.connection;
  }

  subscribeConnection(listener: (state: ConnectionState) => void): () => void {
    this.connectionListeners.add(listener);
    return () => void this.connectionListeners.delete(listener);
  }

  /** Sets the connection state and tells connection listeners. */
  setConnectionState(state: ConnectionState): void {
    if (state === this.connection) return;
    this.connection = state;
    for (const l of [...this.connectionListeners]) report('connection', () => l(state));
  }

  dispatch(action: AnyAction): number {
    if (!isClientDispatchable(action)) {
      const type = isObject(action) ? String((action as { type?: unknown }).type) : String(action);
      throw new TypeError(`SessionStore.dispatch: "${type}" is not a client-dispatchable action type`);
    }
    const clientSeq = this.nextClientSeq();
    const timer = setTimeout(() => this.expire(clientSeq), this.pendingTimeoutMs);
    // Do not keep a Node process alive just for a pending echo.
    (timer as { unref?: () => void }).unref?.();
    this.pending.set(clientSeq, { action, timer });
    this.dirty = true;
    const failures: ActionFailure[] = [];
    try {
      this.sendAction({ channel: this.channel, clientSeq, action });
    } catch (err) {
      if (this.removePending(clientSeq)) {
        failures.push(this.failure('dropped', clientSeq, action, `send failed: ${err instanceof Error ? err.message : String(err)}`));
      }
    }
    this.commit(failures);
    return clientSeq;
  }

  /** Sets the confirmed state from a snapshot (first subscribe or reconnect) and applies buffered envelopes after `fromSeq`. */
  loadSnapshot(snapshot: Snapshot): void {
    if (!isObject(snapshot) || snapshot.resource !== this.channel || !isObject(snapshot.state)) return;
    this.confirmed = snapshot.state as unknown as SessionState;
    this.cursor = typeof snapshot.fromSeq === 'number' ? snapshot.fromSeq : 0;
    const buffered = this.buffer.sort((a, b) => a.serverSeq - b.serverSeq);
    this.buffer = [];
    for (const env of buffered) this.apply(env);
    this.dirty = true;
    this.commit([]);
  }

  /** Feeds one action envelope (live or replayed). Envelopes for other channels are ignored. */
  receive(env: ActionEnvelope): void {
    if (!isObject(env) || env.channel !== this.channel || typeof env.serverSeq !== 'number') return;
    const failures: ActionFailure[] = [];
    const origin = env.origin;
    if (isObject(origin) && origin.clientId === this.clientId && typeof origin.clientSeq === 'number') {
      const mine = this.pending.get(origin.clientSeq);
      if (mine && this.removePending(origin.clientSeq) && isRejected(env)) {
        failures.push(this.failure('rejected', origin.clientSeq, mine.action, String(env.rejectionReason)));
      }
    }
    if (this.confirmed === undefined) this.buffer.push(env);
    else this.apply(env);
    this.commit(failures);
  }

  /** Drops every pending action and reports each as `dropped` (after reconnect recovery). */
  dropPending(reason: string): void {
    const failures = [...this.pending].map(([seq, p]) => this.failure('dropped', seq, p.action, reason));
    for (const seq of [...this.pending.keys()]) this.removePending(seq);
    this.commit(failures);
  }

  /** Clears timers and listeners; the store stays readable. */
  dispose(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    this.listeners.clear();
    this.failureListeners.clear();
    this.connectionListeners.clear();
    this.serverListeners.clear();
    this.lastServers.clear();
  }

  private apply(env: ActionEnvelope): void {
    // Overlap with the snapshot or a replay: already part of confirmed state.
    if (env.serverSeq <= this.cursor || this.confirmed === undefined) return;
    this.cursor = env.serverSeq;
    if (isRejected(env)) return;
    const next = sessionReducer(this.confirmed, env.action);
    if (next !== this.confirmed) {
      this.confirmed = next;
      this.dirty = true;
    }
  }

  private expire(clientSeq: number): void {
    const p = this.pending.get(clientSeq);
    if (!p || !this.removePending(clientSeq)) return;
    this.commit([this.failure('timeout', clientSeq, p.action, `no echo from the host within ${this.pendingTimeoutMs} ms`)]);
  }

  private removePending(clientSeq: number): boolean {
    const p = this.pending.get(clientSeq);
    if (!p) return false;
    clearTimeout(p.timer);
    this.pending.delete(clientSeq);
    this.dirty = true;
    return true;
  }

  private failure(kind: ActionFailure['kind'], clientSeq: number, action: AnyAction, reason: string): ActionFailure {
    return { kind, channel: this.channel, clientSeq, action, reason };
  }

  /** Recomputes the view when something changed, then notifies view, server and failure listeners. */
  private commit(failures: ActionFailure[]): void {
    if (this.dirty) {
      this.dirty = false;
      const prev = this.view;
      let view = this.confirmed;
      if (view !== undefined) for (const p of this.pending.values()) view = sessionReducer(view, p.action);
      this.view = view;
      if (view !== prev) {
        for (const l of [...this.listeners]) report('subscribe', l);
        this.notifyServers(prev, view);
      }
    }
    for (const f of failures) for (const l of [...this.failureListeners]) report('onActionFailed', () => l(f));
  }

  private notifyServers(prev: SessionState | undefined, next: SessionState | undefined): void {
    if (this.serverListeners.size === 0 || prev?.customizations === next?.customizations) return;
    const index = this.serverIndex();
    for (const [id, set] of [...this.serverListeners]) {
      const server = index.get(id);
      if (sameServer(this.lastServers.get(id), server)) continue;
      this.lastServers.set(id, server);
      for (const l of [...set]) report('subscribeMcpServer', () => l(server));
    }
  }

  private serverIndex(): Map<string, McpServerCustomization> {
    // Same precedence as the reducers: a top-level server wins over a child with the same id.
    const index = new Map<string, McpServerCustomization>();
    forEachMcpServer(this.view, (s, container) => {
      if (!container || !index.has(s.id)) index.set(s.id, s);
    });
    return index;
  }
}

const isRejected = (env: ActionEnvelope): boolean => env.rejectionReason !== undefined && env.rejectionReason !== null;

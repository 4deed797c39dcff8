import type { AnyAction } from '../protocol/actions.js';
import type { McpServerCustomization } from '../protocol/customizations.js';
import type { SessionState } from '../protocol/session.js';

/** Why a dispatched action did not take effect. */
export interface ActionFailure {
  /** `rejected`: the host broadcast it with a rejectionReason. `timeout`: no echo in time. `dropped`: still pending after reconnect recovery. */
  kind: 'rejected' | 'timeout' | 'dropped';
  channel: string;
  clientSeq: number;
  action: AnyAction;
  reason: string;
}

/** Lifecycle of the connection behind a store. */
export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'open' }
  | { kind: 'reconnecting'; attempt: number }
  | { kind: 'closed'; reason?: string };

/**
 * What elements (and any UI) use: read the optimistic view, listen for changes, dispatch intents.
 * The same interface whether the store runs in the page or in a worker.
 */
export interface SessionStoreLike {
  /** The session channel URI (`ahp-session:/…`). */
  readonly channel: string;
  /** Optimistic view: confirmed state with pending client actions folded on top; undefined before the snapshot. */
  getState(): SessionState | undefined;
  /** Called after every change of the view. Returns an unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Called only when the MCP server with this id changed (by identity), appeared or disappeared. */
  subscribeMcpServer(id: string, listener: (server: McpServerCustomization | undefined) => void): () => void;
  /** Dispatches a client-dispatchable action optimistically; returns its clientSeq. Throws a TypeError for other types. */
  dispatch(action: AnyAction): number;
  /** Called when a dispatched action is rejected, times out or is dropped. */
  onActionFailed(listener: (failure: ActionFailure) => void): () => void;
  /** Current connection state of the client feeding this store. */
  getConnectionState(): ConnectionState;
  /** Called when the connection state changes. */
  subscribeConnection(listener: (state: ConnectionState) => void): () => void;
}

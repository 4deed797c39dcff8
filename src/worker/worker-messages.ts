import type { AnyAction } from '../protocol/actions.js';
import type { ChatState, SessionState } from '../protocol/session.js';
import type { ActionFailure, ConnectionState } from '../store/types.js';

/** What a page asks the worker for when it attaches to a session. */
export interface AttachOptions {
  /** Host WebSocket URL (`ws://…`). */
  url: string;
  /** Session channel URI (`ahp-session:/…`). */
  session: string;
  /** Client id; pages that pass different ids get different connections. */
  clientId?: string;
  /** How long a dispatched action may wait for its echo (used when this attach opens the connection). */
  pendingTimeoutMs?: number;
  /** A Web Lock the page holds for its lifetime; when the worker is granted it, the page is gone and is detached. */
  lockName?: string;
}

/**
 * What the worker tells one attached page, in order, batched per task. A batch starting with `state`
 * carries the worker's newest view; later events in the batch already happened before it.
 */
export type WorkerEvent =
  /** The session's optimistic view in the worker. */
  | { type: 'state'; state: SessionState | undefined }
  /** A chat this page watches: its optimistic view in the worker. */
  | { type: 'chat'; uri: string; state: ChatState | undefined }
  | { type: 'connection'; state: ConnectionState }
  /** The worker's store took the page's action `localId` (its view includes it from now on) as wire clientSeq `clientSeq`. */
  | { type: 'ack'; localId: number; clientSeq: number }
  /** The page's action `localId` failed (`failure.clientSeq` is the wire clientSeq). */
  | { type: 'failure'; localId: number; failure: ActionFailure }
  /** The session snapshot loaded (`error` unset) or connecting failed for good. */
  | { type: 'ready'; error?: string };

/** The API a session worker exposes with comlink (one instance serves every attached page). */
export interface SessionWorkerApi {
  /**
   * Attaches a page to the connection for (url, session, clientId), opening it if there is none or it
   * is closed for good; `sink` gets the page's events. Returns the attachment id.
   */
  attach(options: AttachOptions, sink: (events: WorkerEvent[]) => unknown): number;
  /** Dispatches an action for the page; answered with `ack` (and maybe `failure`) events. */
  dispatch(attachment: number, localId: number, action: AnyAction, channel?: string): void;
  /** Watches a chat for the page (once per page; the page ref-counts its own watchers). */
  watchChat(attachment: number, uri: string): void;
  /** Releases the page's watch of a chat. */
  releaseChat(attachment: number, uri: string): void;
  /** Skips the backoff wait of a pending reconnect. */
  reconnectNow(attachment: number): void;
  /** Detaches the page; the last page of a connection closes it. */
  detach(attachment: number): void;
  /** Connections in use by attached pages (one WebSocket each) and the attached pages, in this worker. */
  stats(): { connections: number; attachments: number };
}

import type { AnyAction } from '../protocol/actions.js';
import type { ChatState, SessionState } from '../protocol/session.js';
import type { AuthenticateRequest } from '../client/ahp-client.js';
import type { ConnectionState } from '../client/connection-state.js';
import type { ActionFailure } from '../store/types.js';
import type { ActionSizeLimits } from '../store/channel-routing.js';
import type { PatchOp } from './state-patch.js';

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
  /** Size limits checked before sending (used when this attach opens the connection). */
  limits?: ActionSizeLimits;
  /** A Web Lock the page holds for its lifetime; when the worker is granted it, the page is gone and is detached. */
  lockName?: string;
}

/**
 * What the worker tells one attached page, in order, batched per task. A batch starting with `state`
 * carries the worker's newest view; later events in the batch already happened before it.
 */
export type WorkerEvent =
  /** The session's optimistic view in the worker, whole (the first time, after a resync, or when it went away). */
  | { type: 'state'; state: SessionState | undefined }
  /** The session's view changed: the changes from the view last sent to this page. */
  | { type: 'patch'; ops: PatchOp[] }
  /** A chat this page watches: its optimistic view in the worker, whole. */
  | { type: 'chat'; uri: string; state: ChatState | undefined }
  /** A chat this page watches changed: the changes from the view last sent to this page. */
  | { type: 'chat-patch'; uri: string; ops: PatchOp[] }
  | { type: 'connection'; state: ConnectionState }
  /** The worker's store took the page's action `localId` (its view includes it from now on) as wire clientSeq `clientSeq`. */
  | { type: 'ack'; localId: number; clientSeq: number }
  /** The page's action `localId` failed (`failure.clientSeq` is the wire clientSeq). */
  | { type: 'failure'; localId: number; failure: ActionFailure }
  /** The session snapshot loaded (`error` unset) or connecting failed for good. */
  | { type: 'ready'; error?: string }
  /** A host→client notification of a method this page listens to (`listenMcp`), as the host sent it (with `channel`). */
  | { type: 'notification'; method: string; params: unknown };

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
  /** Sends the page whole views again (it could not apply a patch). */
  resync(attachment: number): void;
  /** Hands a token to the host over the worker's connection (`authenticate`). */
  authenticate(attachment: number, params: AuthenticateRequest): Promise<void>;
  /** Sends `createChat` for the session with these params (`chat`, `initialMessage?`, `workingDirectories?`). */
  createChat(attachment: number, params: Record<string, unknown>): Promise<void>;
  /**
   * Sends an MCP request on an `mcp://` channel (`params.channel`), with the client's timeout unless `timeoutMs`
   * is given. Resolves with the result; rejects with a `WorkerCallError` (JSON-RPC `code` and `data` kept).
   */
  mcpRequest(attachment: number, method: string, params: Record<string, unknown>, timeoutMs?: number): Promise<unknown>;
  /** Sends an MCP notification on an `mcp://` channel (`params.channel`). */
  mcpNotify(attachment: number, method: string, params: Record<string, unknown>): void;
  /** Forwards host notifications of `method` to the page as `notification` events (ref-counted per page). */
  listenMcp(attachment: number, method: string): void;
  /** Stops one `listenMcp`. */
  unlistenMcp(attachment: number, method: string): void;
  /** Detaches the page; the last page of a connection closes it. */
  detach(attachment: number): void;
  /** Connections in use by attached pages (one WebSocket each) and the attached pages, in this worker. */
  stats(): { connections: number; attachments: number };
}

/** What a failed call sends back over comlink: a plain object, so the JSON-RPC `code` and `data` survive. */
export interface WorkerCallError {
  name: string;
  message: string;
  code?: number;
  data?: unknown;
}

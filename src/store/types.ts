import type { AnyAction } from '../protocol/actions.js';
import type { McpServerCustomization } from '../protocol/customizations.js';
import type { ChatState, SessionState } from '../protocol/session.js';
import type { ToolCallState } from '../protocol/tool-calls.js';

/** Why a dispatched action did not take effect. */
export interface ActionFailure {
  /** `rejected`: the host broadcast it with a rejectionReason. `timeout`: no echo in time. `dropped`: still pending after reconnect recovery. */
  kind: 'rejected' | 'timeout' | 'dropped';
  channel: string;
  clientSeq: number;
  action: AnyAction;
  reason: string;
}

/**
 * What elements (and any UI) use: read the optimistic view, listen for changes, dispatch intents.
 * The same interface whether the store runs in the page or in a worker. State, selectors and dispatch
 * only: what the connection can do beyond that (connection state, authenticate, `mcp://`, createChat)
 * is the `SessionHandle` provided next to it.
 */
export interface SessionStoreLike {
  /** The session channel URI (`ahp-session:/…`). */
  readonly channel: string;
  /** Optimistic view: confirmed state with pending client actions folded on top; undefined before the snapshot. */
  getState(): SessionState | undefined;
  /**
   * Called after the session view changed (not for chat changes): at once, or, for received envelopes of a store with
   * `scheduleNotify`, once per flush for all of them. Returns an unsubscribe function.
   */
  subscribe(listener: () => void): () => void;
  /** Called only when the MCP server with this id changed (by identity), appeared or disappeared. */
  subscribeMcpServer(id: string, listener: (server: McpServerCustomization | undefined) => void): () => void;
  /**
   * Dispatches a client-dispatchable action optimistically; returns its clientSeq. `chat/*` actions need
   * `channel` (a chat URI; an unwatched chat is fine, it just has no optimistic state). Throws a TypeError otherwise, and a RangeError (before sending anything) for an action over the size limits.
   */
  dispatch(action: AnyAction, channel?: string): number;
  /** Watches a chat channel (ref-counted): the first watcher subscribes and loads it, the last release unsubscribes and forgets it. Returns the release. */
  watchChat(uri: string): () => void;
  /** Optimistic view of a watched chat; undefined until its snapshot arrives or when nobody watches it. */
  getChatState(uri: string): ChatState | undefined;
  /** Called after that chat's view changed (loaded, changed, forgotten), like `subscribe`. Returns an unsubscribe function. */
  subscribeChat(uri: string, listener: () => void): () => void;
  /** Called only when the tool call with this id in that chat changed (by identity), appeared or disappeared. */
  subscribeToolCall(chat: string, toolCallId: string, listener: (toolCall: ToolCallState | undefined) => void): () => void;
  /** Called when a dispatched action is rejected, times out or is dropped. */
  onActionFailed(listener: (failure: ActionFailure) => void): () => void;
}

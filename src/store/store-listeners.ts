import type { McpServerCustomization } from '../protocol/customizations.js';
import type { ChatState, SessionState } from '../protocol/session.js';
import type { ToolCallState } from '../protocol/tool-calls.js';
import { chunksOf } from '../reducers/customization-chunks.js';
import { locateMcpServer } from '../reducers/customizations.js';
import { KeyedWatchers, addGroupedWatcher, addKeyedListener, report, reportEach, sameObject } from './keyed-watchers.js';
import { changedIdsOfChunks } from './server-changes.js';
import type { changedToolCallIds, findToolCall } from './tool-call-selectors.js';
import type { ActionFailure } from './types.js';

// `state` and `enablement` are rebuilt by rebased optimistic actions and by the echo of our own toggle (its list
// arrives as new objects), so they are compared by value (as JSON: another key order only costs a wake-up).
const sameServer = (a: McpServerCustomization | undefined, b: McpServerCustomization | undefined): boolean => sameObject(a, b, (k) => k === 'state' || k === 'enablement');

/**
 * The listener hub every `SessionStoreLike` uses (the page store and the worker-backed store): session,
 * per-server, per-chat and per-tool-call listeners and failure listeners. A store tells it what changed
 * (`sessionChanged`, `chatChanged`, `failed`); it wakes only the listeners whose object changed, and a
 * throwing listener never stops the others.
 */
export class StoreListeners<F extends ActionFailure = ActionFailure> {
  private readonly sessionListeners = new Set<() => void>();
  private readonly failureListeners = new Set<(failure: F) => void>();
  private readonly serverWatchers = new KeyedWatchers<McpServerCustomization>('subscribeMcpServer', sameServer);
  private readonly chatListeners = new Map<string, Set<() => void>>();
  private readonly toolCallWatchers = new Map<string, KeyedWatchers<ToolCallState>>();

  constructor(
    private readonly readState: () => SessionState | undefined,
    private readonly readChatState: (uri: string) => ChatState | undefined,
    // How the chat's tool calls are found (the page store passes the chat code it loads on first use).
    private readonly lookUpToolCall: typeof findToolCall,
    private readonly changedToolCalls: typeof changedToolCallIds,
  ) {}

  subscribe(listener: () => void): () => void {
    this.sessionListeners.add(listener);
    return () => void this.sessionListeners.delete(listener);
  }

  subscribeMcpServer(id: string, listener: (server: McpServerCustomization | undefined) => void): () => void {
    return this.serverWatchers.add(id, listener, () => locateMcpServer(this.readState(), id)?.server);
  }

  subscribeChat(uri: string, listener: () => void): () => void {
    return addKeyedListener(this.chatListeners, uri, listener);
  }

  subscribeToolCall(chat: string, toolCallId: string, listener: (toolCall: ToolCallState | undefined) => void): () => void {
    const create = () => new KeyedWatchers<ToolCallState>('subscribeToolCall', sameObject);
    const read = () => this.lookUpToolCall(this.readChatState(chat), toolCallId);
    return addGroupedWatcher(this.toolCallWatchers, chat, create, toolCallId, listener, read);
  }

  /** True when a listener would be told about a change of this chat (or of the session, without one). */
  observes(chat?: string): boolean {
    return chat === undefined ? this.sessionListeners.size + this.serverWatchers.size > 0 : this.chatListeners.has(chat) || this.toolCallWatchers.has(chat);
  }

  onActionFailed(listener: (failure: F) => void): () => void {
    this.failureListeners.add(listener);
    return () => void this.failureListeners.delete(listener);
  }

  /**
   * The session view changed from `prev` to `next`: wakes session listeners and the servers that changed, found by
   * comparing the chunks of the two lists (reducers/customization-chunks.ts; a server change differs in one chunk).
   * Without two lists every watched server is looked up. O(1) per id: the lists carry their id index.
   */
  sessionChanged(prev: SessionState | undefined, next: SessionState | undefined): void {
    reportEach('subscribe', this.sessionListeners);
    if (this.serverWatchers.size === 0) return;
    const a = prev && chunksOf(prev);
    const b = next && chunksOf(next);
    this.serverWatchers.notify((id) => locateMcpServer(next, id)?.server, a && b && changedIdsOfChunks(a, b));
  }

  /** A chat view changed (loaded, changed, forgotten): wakes its listeners and the tool calls that changed. */
  chatChanged(uri: string, prev: ChatState | undefined, next: ChatState | undefined): void {
    const listeners = this.chatListeners.get(uri);
    if (listeners) reportEach('subscribeChat', listeners);
    const watchers = this.toolCallWatchers.get(uri);
    if (!watchers || watchers.size === 0) return;
    watchers.notify((id) => this.lookUpToolCall(next, id), this.changedToolCalls(prev, next));
  }

  /** Reports failed actions to every failure listener. */
  failed(failures: readonly F[]): void {
    for (const f of failures) for (const l of [...this.failureListeners]) report('onActionFailed', () => l(f));
  }

  clear(): void {
    this.sessionListeners.clear();
    this.failureListeners.clear();
    this.serverWatchers.clear();
    this.chatListeners.clear();
    this.toolCallWatchers.clear();
  }
}

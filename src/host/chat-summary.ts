import type { ChatState, ChatSummary, SessionAction, SessionState } from '../protocol/index.js';

/** The ChatState fields the session catalog (`SessionState.chats[]`) mirrors. */
const SUMMARY_KEYS = ['title', 'status', 'activity', 'modifiedAt', 'changes', 'origin', 'movable', 'interactivity', 'workingDirectories'] as const;

/** The catalog entry of a chat, built from its state. */
export function chatSummaryOf(chat: ChatState): ChatSummary {
  const summary: Record<string, unknown> = { resource: chat.resource };
  for (const key of SUMMARY_KEYS) if (chat[key] !== undefined) summary[key] = chat[key];
  return summary as unknown as ChatSummary;
}

/**
 * The session action that brings the catalog entry of a chat in line after its state went from
 * `before` to `after`: `session/chatUpdated` with the changed fields, or — when a field was removed,
 * which a JSON `changes` object cannot say — `session/chatAdded` with the whole entry (an upsert).
 * Undefined when nothing the catalog shows changed or the session does not list the chat.
 */
export function chatSummarySync(session: SessionState, before: ChatState, after: ChatState): SessionAction | undefined {
  if (before === after) return undefined;
  const entry = Array.isArray(session.chats) ? session.chats.find((c) => c?.resource === after.resource) : undefined;
  if (!entry) return undefined;
  const changes: Record<string, unknown> = {};
  const removed: string[] = [];
  for (const key of SUMMARY_KEYS) {
    if (before[key] === after[key]) continue;
    if (after[key] === undefined) removed.push(key);
    else changes[key] = after[key];
  }
  if (removed.length > 0) {
    const summary: Record<string, unknown> = { ...entry, ...changes };
    for (const key of removed) delete summary[key];
    return { type: 'session/chatAdded', summary: summary as unknown as ChatSummary };
  }
  if (Object.keys(changes).length === 0) return undefined;
  return { type: 'session/chatUpdated', chat: after.resource, changes: changes as Partial<ChatSummary> };
}

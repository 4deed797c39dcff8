import type { ChatState, SessionInputRequest, SessionState } from '../protocol/session.js';
import type { ToolCallAuthRequiredState } from '../protocol/tool-calls.js';
import { listToolCalls, selectToolCall } from './tool-call-selectors.js';
import { isRecord } from '../protocol/guards.js';

type Rec = Record<string, unknown>;

const inputCache = new WeakMap<object, Map<string | undefined, SessionInputRequest[]>>();

/** The session's `inputNeeded` entries (well-formed ones), optionally only those of one kind. Memoized per list. */
export function listInputNeeded(state: SessionState | undefined, kind?: SessionInputRequest['kind'] | (string & {})): SessionInputRequest[] {
  const list: unknown = state?.inputNeeded;
  if (!Array.isArray(list)) return [];
  let byKind = inputCache.get(list);
  if (!byKind) inputCache.set(list, (byKind = new Map()));
  let out = byKind.get(kind);
  if (!out) {
    out = list.filter((r): r is SessionInputRequest => isRecord(r) && typeof r.id === 'string' && typeof r.kind === 'string' && (kind === undefined || r.kind === kind));
    byKind.set(kind, out);
  }
  return out;
}

/** A tool call waiting for the user to authenticate with its MCP server. */
export interface AuthBlockedToolCall {
  toolCall: ToolCallAuthRequiredState;
  /** The chat channel URI. */
  chat: string;
  turnId: string;
  /** `chat`: seen in a chat state given; `inputNeeded`: only known from the session's roll-up. */
  source: 'chat' | 'inputNeeded';
  /** Id of the session's `toolAuthentication` entry, when it lists this tool call. */
  requestId?: string;
}

const keyOf = (chat: string, toolCallId: string): string => `${chat}\n${toolCallId}`;

/**
 * Tool calls in `auth-required`: those in the given chat states, plus the session's `toolAuthentication`
 * entries for tool calls those chats do not show (a chat state that has the tool call decides its status).
 */
export function listAuthBlockedToolCalls(
  chats: Iterable<ChatState | undefined> | undefined,
  session?: SessionState,
): AuthBlockedToolCall[] {
  const out: AuthBlockedToolCall[] = [];
  const seen = new Set<string>();
  const requests = new Map<string, string>();
  const authEntries = (listInputNeeded(session, 'toolAuthentication') as unknown as Rec[]).filter(
    (r) => isRecord(r.toolCall) && typeof r.toolCall.toolCallId === 'string' && typeof r.chat === 'string' && typeof (r as { turnId?: unknown }).turnId === 'string',
  ) as unknown as Extract<SessionInputRequest, { kind: 'toolAuthentication' }>[];
  for (const r of authEntries) requests.set(keyOf(r.chat, r.toolCall.toolCallId), r.id);

  for (const state of chats ?? []) {
    for (const e of listToolCalls(state)) {
      const key = keyOf(e.chat, e.toolCall.toolCallId);
      if (seen.has(key)) continue;
      seen.add(key);
      // A repeated id resolves like selectToolCall: the active turn first.
      const current = selectToolCall(state, e.toolCall.toolCallId) ?? e;
      if (current.toolCall.status !== 'auth-required') continue;
      const requestId = requests.get(key);
      const entry: AuthBlockedToolCall = { toolCall: current.toolCall as ToolCallAuthRequiredState, chat: e.chat, turnId: current.turnId, source: 'chat' };
      if (requestId !== undefined) entry.requestId = requestId;
      out.push(entry);
    }
  }
  for (const r of authEntries) {
    const key = keyOf(r.chat, r.toolCall.toolCallId);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ toolCall: r.toolCall, chat: r.chat, turnId: r.turnId, source: 'inputNeeded', requestId: r.id });
  }
  return out;
}

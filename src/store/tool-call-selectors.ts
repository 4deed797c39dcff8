import type { ActiveTurn, ChatState, Turn } from '../protocol/session.js';
import type { ToolCallState } from '../protocol/tool-calls.js';

/** One tool call of a chat with where it sits. */
export interface ToolCallEntry {
  toolCall: ToolCallState;
  /** The chat channel URI (the chat's `resource`). */
  chat: string;
  turnId: string;
  /** True while the tool call is in the active turn. */
  active: boolean;
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function toolCallOf(part: unknown): ToolCallState | undefined {
  return isRecord(part) && part.kind === 'toolCall' && isRecord(part.toolCall) && typeof part.toolCall.toolCallId === 'string'
    ? (part.toolCall as unknown as ToolCallState)
    : undefined;
}

function entriesOfTurn(turn: Turn | ActiveTurn | undefined, chat: string, active: boolean, out: ToolCallEntry[]): void {
  if (!isRecord(turn) || typeof turn.id !== 'string' || !Array.isArray(turn.responseParts)) return;
  for (const part of turn.responseParts) {
    const toolCall = toolCallOf(part);
    if (toolCall) out.push({ toolCall, chat, turnId: turn.id, active });
  }
}

const chatUri = (state: ChatState): string => (typeof state.resource === 'string' ? state.resource : '');

interface PastCache { chat: string; list: ToolCallEntry[]; index: Map<string, ToolCallEntry> }
const pastCache = new WeakMap<object, PastCache>();
interface ActiveCache { chat: string; turnId: string; list: ToolCallEntry[]; index: Map<string, ToolCallEntry> }
const activeCache = new WeakMap<object, ActiveCache>();
const listCache = new WeakMap<ChatState, ToolCallEntry[]>();

/** Past-turn tool calls, memoized per `turns` array (it only changes when a turn ends or history loads). */
function pastOf(state: ChatState): PastCache {
  const turns: unknown = state.turns;
  const chat = chatUri(state);
  if (!Array.isArray(turns)) return { chat, list: [], index: new Map() };
  const hit = pastCache.get(turns);
  if (hit && hit.chat === chat) return hit;
  const list: ToolCallEntry[] = [];
  for (const turn of turns) entriesOfTurn(turn as Turn, chat, false, list);
  // Newest turn wins for a repeated id; within one turn the first part wins, as in the reducer.
  const index = new Map<string, ToolCallEntry>();
  for (let i = list.length - 1; i >= 0; i--) {
    const e = list[i]!;
    const prev = index.get(e.toolCall.toolCallId);
    if (!prev || prev.turnId === e.turnId) index.set(e.toolCall.toolCallId, e);
  }
  const cache = { chat, list, index };
  pastCache.set(turns, cache);
  return cache;
}

/** Active-turn tool calls, memoized per `responseParts` array. */
function activeOf(state: ChatState): ActiveCache | undefined {
  const turn = state.activeTurn;
  if (!isRecord(turn) || typeof turn.id !== 'string' || !Array.isArray(turn.responseParts)) return undefined;
  const chat = chatUri(state);
  const hit = activeCache.get(turn.responseParts);
  if (hit && hit.chat === chat && hit.turnId === turn.id) return hit;
  const list: ToolCallEntry[] = [];
  entriesOfTurn(turn, chat, true, list);
  const index = new Map<string, ToolCallEntry>();
  for (const e of list) if (!index.has(e.toolCall.toolCallId)) index.set(e.toolCall.toolCallId, e);
  const cache = { chat, turnId: turn.id, list, index };
  activeCache.set(turn.responseParts, cache);
  return cache;
}

/** Every tool call of the chat: past turns oldest first, then the active turn. Memoized per chat state. */
export function listToolCalls(state: ChatState | undefined): ToolCallEntry[] {
  if (!isRecord(state)) return [];
  const cached = listCache.get(state);
  if (cached) return cached;
  const past = pastOf(state).list;
  const active = activeOf(state)?.list ?? [];
  const list = active.length === 0 ? past : past.length === 0 ? active : [...past, ...active];
  listCache.set(state, list);
  return list;
}

/** The tool call with this id: the active turn first, then past turns newest first. */
export function selectToolCall(state: ChatState | undefined, toolCallId: string): ToolCallEntry | undefined {
  if (!isRecord(state) || typeof toolCallId !== 'string') return undefined;
  return activeOf(state)?.index.get(toolCallId) ?? pastOf(state).index.get(toolCallId);
}

/** Same answer as `selectToolCall`, found by scanning the active turn instead of indexing it: cheaper for one lookup per state. */
export function findToolCall(state: ChatState | undefined, toolCallId: string): ToolCallState | undefined {
  if (!isRecord(state)) return undefined;
  const turn = state.activeTurn;
  if (isRecord(turn) && typeof turn.id === 'string' && Array.isArray(turn.responseParts)) {
    for (const part of turn.responseParts) {
      const tc = toolCallOf(part);
      if (tc?.toolCallId === toolCallId) return tc;
    }
  }
  return pastOf(state).index.get(toolCallId)?.toolCall;
}

const serverCache = new WeakMap<ChatState, Map<string, ToolCallEntry[]>>();

function ofServer(state: ChatState, customizationId: string): ToolCallEntry[] {
  let byServer = serverCache.get(state);
  if (!byServer) serverCache.set(state, (byServer = new Map()));
  let list = byServer.get(customizationId);
  if (!list) {
    list = listToolCalls(state).filter((e) => {
      const c: unknown = e.toolCall.contributor;
      return isRecord(c) && c.kind === 'mcp' && c.customizationId === customizationId;
    });
    byServer.set(customizationId, list);
  }
  return list;
}

/** Tool calls contributed by the MCP server with this customization id, across the given chats. Memoized per chat state. */
export function listToolCallsOfServer(chats: Iterable<ChatState | undefined> | undefined, customizationId: string): ToolCallEntry[] {
  if (!chats || typeof customizationId !== 'string') return [];
  const out: ToolCallEntry[] = [];
  let only: ToolCallEntry[] | undefined;
  let count = 0;
  for (const state of chats) {
    if (!isRecord(state)) continue;
    const list = ofServer(state, customizationId);
    if (list.length === 0) continue;
    count++;
    only = list;
    out.push(...list);
  }
  // A single contributing chat returns its memoized list, so callers can compare by identity.
  return count === 1 && only ? only : out;
}

const toolCallIdOf = (part: unknown): string | undefined => toolCallOf(part)?.toolCallId;

/**
 * Ids of the tool calls whose part changed between two states of one chat when only the active
 * turn's parts changed (the common streaming case); undefined when anything else moved, meaning
 * "look every tool call up".
 */
export function changedToolCallIds(prev: ChatState | undefined, next: ChatState | undefined): Set<string> | undefined {
  if (!isRecord(prev) || !isRecord(next) || prev.turns !== next.turns) return undefined;
  const a = prev.activeTurn;
  const b = next.activeTurn;
  if (a === b) return new Set();
  if (!isRecord(a) || !isRecord(b) || a.id !== b.id || !Array.isArray(a.responseParts) || !Array.isArray(b.responseParts)) return undefined;
  const pa = a.responseParts;
  const pb = b.responseParts;
  const ids = new Set<string>();
  if (pa === pb) return ids;
  for (let i = 0, n = Math.max(pa.length, pb.length); i < n; i++) {
    if (pa[i] === pb[i]) continue;
    const before = toolCallIdOf(pa[i]);
    const after = toolCallIdOf(pb[i]);
    if (before !== undefined) ids.add(before);
    if (after !== undefined) ids.add(after);
  }
  return ids;
}

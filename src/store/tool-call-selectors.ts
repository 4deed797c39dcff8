import type { ActiveTurn, ChatState, Turn } from '../protocol/session.js';
import type { ToolCallState } from '../protocol/tool-calls.js';
import { isRecord } from '../protocol/guards.js';

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

interface IndexedEntry {
  entry: ToolCallEntry;
  /** Position of its turn in `turns`. */
  turn: number;
  /** The entry with the same id in an older turn. */
  older: IndexedEntry | undefined;
}

/**
 * Tool calls of a chat's past turns, shared by every `turns` array that starts with the same turns:
 * ending a turn appends one, so the index grows by that turn instead of re-indexing the whole history.
 */
interface SharedPast {
  chat: string;
  /** The turns indexed so far, oldest first. */
  turns: unknown[];
  /** Every past tool call in order, each turn's entries after the previous turn's. */
  list: ToolCallEntry[];
  /** `list.length` after each indexed turn. */
  ends: number[];
  /** Newest entry per id; `older` leads to the same id in earlier turns. */
  byId: Map<string, IndexedEntry>;
}

/** One `turns` array's view of a shared index: its first `count` turns. */
interface PastView {
  shared: SharedPast;
  count: number;
  list?: ToolCallEntry[];
}

const sharedByFirstTurn = new WeakMap<object, SharedPast>();
const pastViews = new WeakMap<object, PastView>();
interface ActiveCache { chat: string; turnId: string; list: ToolCallEntry[]; index: Map<string, ToolCallEntry> }
const activeCache = new WeakMap<object, ActiveCache>();
const listCache = new WeakMap<ChatState, ToolCallEntry[]>();
const EMPTY: PastView = { shared: { chat: '', turns: [], list: [], ends: [], byId: new Map() }, count: 0, list: [] };

function indexTurn(shared: SharedPast, turn: unknown): void {
  const at = shared.turns.length;
  shared.turns.push(turn);
  const entries: ToolCallEntry[] = [];
  entriesOfTurn(turn as Turn, shared.chat, false, entries);
  const seen = new Set<string>();
  for (const e of entries) {
    const entry: IndexedEntry = { entry: e, turn: at, older: undefined };
    shared.list.push(e);
    // Within one turn the first part wins, as in the reducer.
    const id = e.toolCall.toolCallId;
    if (seen.has(id)) continue;
    seen.add(id);
    entry.older = shared.byId.get(id);
    shared.byId.set(id, entry);
  }
  shared.ends.push(shared.list.length);
}

/** Past-turn tool calls of a state: its `turns` array's view, extending the shared index when turns were appended. */
function pastOf(state: ChatState): PastView {
  const turns: unknown = state.turns;
  if (!Array.isArray(turns) || turns.length === 0) return EMPTY;
  const chat = chatUri(state);
  const hit = pastViews.get(turns);
  if (hit && hit.shared.chat === chat) return hit;
  const first = turns[0];
  let shared = isRecord(first) ? sharedByFirstTurn.get(first) : undefined;
  let common = 0;
  if (shared && shared.chat === chat) while (common < turns.length && common < shared.turns.length && shared.turns[common] === turns[common]) common++;
  if (!shared || shared.chat !== chat || (common < turns.length && common < shared.turns.length)) {
    // Another history (loaded, truncated, rewritten): index it from scratch.
    shared = { chat, turns: [], list: [], ends: [], byId: new Map() };
    if (isRecord(first)) sharedByFirstTurn.set(first, shared);
    common = 0;
  }
  for (let i = common; i < turns.length; i++) indexTurn(shared, turns[i]);
  const view: PastView = { shared, count: turns.length };
  pastViews.set(turns, view);
  return view;
}

/** The past tool call with this id as `view` sees it: the newest of its turns. */
function pastEntry(view: PastView, id: string): ToolCallEntry | undefined {
  let e = view.shared.byId.get(id);
  while (e && e.turn >= view.count) e = e.older;
  return e?.entry;
}

/** The past tool calls `view` sees, oldest first. */
function pastList(view: PastView): ToolCallEntry[] {
  if (!view.list) {
    const end = view.count > 0 ? view.shared.ends[view.count - 1]! : 0;
    view.list = view.shared.list.slice(0, end);
  }
  return view.list;
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
  const past = pastList(pastOf(state));
  const active = activeOf(state)?.list ?? [];
  const list = active.length === 0 ? past : past.length === 0 ? active : [...past, ...active];
  listCache.set(state, list);
  return list;
}

/** The tool call with this id: the active turn first, then past turns newest first. */
export function selectToolCall(state: ChatState | undefined, toolCallId: string): ToolCallEntry | undefined {
  if (!isRecord(state) || typeof toolCallId !== 'string') return undefined;
  return activeOf(state)?.index.get(toolCallId) ?? pastEntry(pastOf(state), toolCallId);
}

/** The tool call with this id, as `selectToolCall` finds it, without its turn. */
export function findToolCall(state: ChatState | undefined, toolCallId: string): ToolCallState | undefined {
  return selectToolCall(state, toolCallId)?.toolCall;
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
  const lists = [...chats].filter(isRecord).map((state) => ofServer(state as ChatState, customizationId)).filter((list) => list.length > 0);
  // A single contributing chat returns its memoized list, so callers can compare by identity.
  return lists.length === 1 ? lists[0]! : lists.flat();
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
  for (let i = 0, n = Math.max(pa.length, pb.length); i < n; i++) {
    if (pa[i] !== pb[i]) for (const id of [toolCallIdOf(pa[i]), toolCallIdOf(pb[i])]) if (id !== undefined) ids.add(id);
  }
  return ids;
}

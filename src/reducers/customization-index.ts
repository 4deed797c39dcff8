import { isRecord } from '../protocol/guards.js';
/** Where an MCP server sits: `list[at]`, or `list[at].children[child]` when `child >= 0`. */
export interface ServerSlot {
  at: number;
  child: number;
}

/** Children per container the compact slot encoding covers; beyond it a slot is kept as an object. */
const CHILD_SPAN = 100_000;

type Rec = Record<string, unknown>;
const isMcpServer = (c: unknown): boolean => isRecord(c) && c.type === 'mcpServer';
const idOf = (c: unknown): string | undefined => (isRecord(c) && typeof c.id === 'string' ? c.id : undefined);

/**
 * The slot map of a list, kept small because it lives as long as the list: a top-level server maps to its
 * index, a child to `-1 - (at * CHILD_SPAN + child)` (an object only past CHILD_SPAN children), and an id
 * claimed by a non-server top-level entry to null (the search ends there).
 */
type Slots = Map<string, number | ServerSlot | null>;

const encodeChild = (at: number, child: number): number | ServerSlot => (child < CHILD_SPAN ? -1 - (at * CHILD_SPAN + child) : { at, child });

/** The slot of `id` in `slots`, or undefined when no server of the list has that id. */
export function slotOf(slots: Slots, id: string): ServerSlot | undefined {
  const v = slots.get(id);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') return v;
  if (v >= 0) return { at: v, child: -1 };
  const n = -1 - v;
  return { at: Math.floor(n / CHILD_SPAN), child: n % CHILD_SPAN };
}

const slotsByList = new WeakMap<readonly unknown[], Slots>();

/**
 * MCP servers of a customizations list by id, with `locateMcpServer`'s precedence: the first top-level
 * entry with an id owns it (a non-server there hides same-id children); otherwise the first container
 * whose first child with that id is a server. Built once per list (O(n)) and carried to the lists
 * derived from it by `carrySlots`, so a server update finds its server in O(1) instead of scanning.
 */
export function serverSlots(list: readonly unknown[]): Slots {
  let slots = slotsByList.get(list);
  if (slots) return slots;
  slots = new Map();
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    const id = idOf(c);
    if (id !== undefined && !slots.has(id)) slots.set(id, isMcpServer(c) ? i : null);
  }
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (!isRecord(c) || c.type === 'mcpServer' || !Array.isArray(c.children)) continue;
    const seenHere = new Set<string>();
    c.children.forEach((child: unknown, j: number) => {
      const id = idOf(child);
      if (id === undefined || seenHere.has(id)) return;
      seenHere.add(id);
      if (!slots!.has(id) && isMcpServer(child)) slots!.set(id, encodeChild(i, j));
    });
  }
  slotsByList.set(list, slots);
  return slots;
}

/** Hands `from`'s slot map to `to`, a list with the same ids in the same places (an entry replaced by one with its id). */
export function carrySlots(from: readonly unknown[], to: readonly unknown[]): void {
  if (from === to) return;
  const slots = slotsByList.get(from);
  if (slots) slotsByList.set(to, slots);
}

import type { Customization, McpServerCustomization } from '../protocol/customizations.js';
import type { SessionState } from '../protocol/session.js';
import { editable, editableList } from './burst.js';
import { carrySlots, findSlot, serverIndex, slotOf } from './customization-index.js';
import { isRecord, type Rec } from './guards.js';

/** A customization holding children (plugin, directory). */
type Container = Rec & { children: unknown[] };

/** Anything that may carry an enablement decision (customizations old and new, containers, children). */
export interface EnablementCarrier {
  readonly enablement?: unknown;
  readonly enabled?: unknown;
}

/** An MCP server and the container it sits in (absent at the top level). */
export interface McpServerLocation {
  server: McpServerCustomization;
  container?: Customization;
}

/** True for an MCP server customization. */
export const isMcpServer = (c: unknown): c is McpServerCustomization => isRecord(c) && c.type === 'mcpServer';

function ownEnabled(c: unknown): boolean {
  if (!isRecord(c)) return true;
  const first: unknown = Array.isArray(c.enablement) ? c.enablement[0] : undefined;
  if (isRecord(first) && typeof first.enabled === 'boolean') return first.enabled;
  return typeof c.enabled === 'boolean' ? c.enabled : true;
}

/**
 * Effective enablement: `enablement?.[0]?.enabled ?? enabled ?? true`, ANDed with the container's
 * own effective enablement for children.
 */
export function effectiveEnabled(customization: EnablementCarrier, container?: EnablementCarrier): boolean {
  return ownEnabled(customization) && (container === undefined || ownEnabled(container));
}

/** Containers whose `children` may hold MCP servers: every non-MCP top-level entry with a children array. */
function childrenOf(c: unknown): unknown[] | undefined {
  return isRecord(c) && c.type !== 'mcpServer' && Array.isArray(c.children) ? c.children : undefined;
}

/** Calls `fn` for every MCP server of the session, top-level and inside containers, in order. */
export function forEachMcpServer(state: SessionState | undefined, fn: (server: McpServerCustomization, container?: Customization) => void): void {
  const list: unknown = state?.customizations;
  if (!Array.isArray(list)) return;
  for (const c of list) {
    if (isMcpServer(c)) fn(c);
    else for (const child of childrenOf(c) ?? []) if (isMcpServer(child)) fn(child, c as Customization);
  }
}

/**
 * Finds an MCP server by id: the top level first (a non-MCP top-level hit ends the search), then the
 * children of every container. O(1) through the list's slot index (see customization-index.ts).
 */
export function locateMcpServer(state: SessionState | undefined, id: unknown): McpServerLocation | undefined {
  const list: unknown = state?.customizations;
  if (!Array.isArray(list) || typeof id !== 'string') return undefined;
  const index = serverIndex(list);
  const code = findSlot(index, list, id);
  if (code < 0) return undefined;
  const [at, child] = slotOf(index, code);
  if (at < 0) return isMcpServer(list[child]) ? { server: list[child] } : undefined;
  const container = list[at] as Customization;
  return { server: (container as unknown as Container).children[child] as McpServerCustomization, container };
}

/** The MCP server with this id (top-level or child), or undefined. */
export function findMcpServer(state: SessionState | undefined, id: string): McpServerCustomization | undefined {
  return locateMcpServer(state, id)?.server;
}

/**
 * Replaces the MCP server with this id by `update(server)`, copying only the path to it (and in a burst
 * not even that when the burst already copied it, see burst.ts). Returns the same state when there is no
 * such server or `update` returns the same object.
 */
export function updateMcpServer(
  state: SessionState,
  id: unknown,
  update: (server: McpServerCustomization) => McpServerCustomization,
): SessionState {
  const list: unknown = state.customizations;
  if (!Array.isArray(list) || typeof id !== 'string') return state;
  const index = serverIndex(list);
  const code = findSlot(index, list, id);
  if (code < 0) return state;
  const [at, child] = slotOf(index, code);
  const entry = at < 0 ? list[child] : (list[at] as Container).children[child];
  if (!isMcpServer(entry)) return state;
  const server = update(entry);
  if (server === entry) return state;
  const nextList = editableList(list as Customization[]);
  if (at < 0) nextList[child] = server;
  else {
    const container = editable(list[at] as Container);
    const children = editableList(container.children);
    children[child] = server;
    container.children = children;
    nextList[at] = container as unknown as Customization;
  }
  carrySlots(list, nextList);
  const next = editable(state);
  next.customizations = nextList;
  return next;
}

import type { Customization, McpServerCustomization } from '../protocol/customizations.js';
import type { SessionState } from '../protocol/session.js';
import { editable, editableList } from './burst.js';
import { chunksOf, chunksWith, entryAt, withChunks, type Chunks } from './customization-chunks.js';
import { childrenOf, findSlot, serverIndex } from './customization-index.js';
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

/** Calls `fn` for every MCP server of the session, top-level and inside containers, in order. */
export function forEachMcpServer(state: SessionState | undefined, fn: (server: McpServerCustomization, container?: Customization) => void): void {
  const list: unknown = state?.customizations;
  if (!Array.isArray(list)) return;
  for (const c of list) {
    if (isMcpServer(c)) fn(c);
    else for (const child of childrenOf(c) ?? []) if (isMcpServer(child)) fn(child, c as Customization);
  }
}

/** Where the server with this id sits: [chunks, top-level index, index in the container, container, entry]. */
type Slot = [Chunks, number, number, Container | undefined, unknown];

function slotOfId(state: SessionState | undefined, id: unknown): Slot | undefined {
  const chunks = isRecord(state) ? chunksOf(state) : undefined;
  if (!chunks || typeof id !== 'string') return undefined;
  const index = serverIndex(chunks);
  const code = findSlot(index, chunks, id);
  if (code < 0) return undefined;
  // A code below `top` is a top-level index, above it a child slot (customization-index.ts).
  const { top, kids } = index;
  const child = code < top ? code : kids[2 * (code - top) + 1]!;
  const parent = code < top ? undefined : (entryAt(chunks, kids[2 * (code - top)]!) as Container);
  return [chunks, code < top ? code : kids[2 * (code - top)]!, child, parent, parent ? parent.children[child] : entryAt(chunks, child)];
}

/**
 * Finds an MCP server by id: the top level first (a non-MCP top-level hit ends the search), then the
 * children of every container. O(1) through the list's slot index (see customization-index.ts).
 */
export function locateMcpServer(state: SessionState | undefined, id: unknown): McpServerLocation | undefined {
  const [, , , container, server] = slotOfId(state, id) ?? [];
  if (!isMcpServer(server)) return undefined;
  return container ? { server, container: container as unknown as Customization } : { server };
}

/** The MCP server with this id (top-level or child), or undefined. */
export function findMcpServer(state: SessionState | undefined, id: string): McpServerCustomization | undefined {
  return locateMcpServer(state, id)?.server;
}

/**
 * Replaces the MCP server with this id by `update(server)`, copying only the path to it: its chunk of the list
 * (customization-chunks.ts), and in a burst not even that when the burst already copied it (burst.ts). Returns the
 * same state when there is no such server or `update` returns the same object.
 */
export function updateMcpServer(
  state: SessionState,
  id: unknown,
  update: (server: McpServerCustomization) => McpServerCustomization,
): SessionState {
  const [chunks, top, child, parent, entry] = slotOfId(state, id) ?? [];
  if (!isMcpServer(entry)) return state;
  const server = update(entry);
  if (server === entry) return state;
  let value: unknown = server;
  if (parent) {
    const container = (value = editable(parent));
    const children = editableList(parent.children);
    children[child!] = server;
    container.children = children;
  }
  return withChunks(state, chunksWith(chunks!, top!, value));
}

import type { Customization, McpServerCustomization } from '../protocol/customizations.js';
import type { SessionState } from '../protocol/session.js';
import { indexBy, isRecord, replaceAt } from './guards.js';

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
 * children of every container.
 */
export function locateMcpServer(state: SessionState | undefined, id: unknown): McpServerLocation | undefined {
  const list: unknown = state?.customizations;
  if (!Array.isArray(list) || typeof id !== 'string') return undefined;
  const top = indexBy(list, 'id', id);
  if (top >= 0) return isMcpServer(list[top]) ? { server: list[top] } : undefined;
  for (const c of list) {
    const children = childrenOf(c);
    if (!children) continue;
    const child = children[indexBy(children, 'id', id)];
    if (isMcpServer(child)) return { server: child, container: c as Customization };
  }
  return undefined;
}

/** The MCP server with this id (top-level or child), or undefined. */
export function findMcpServer(state: SessionState | undefined, id: string): McpServerCustomization | undefined {
  return locateMcpServer(state, id)?.server;
}

/**
 * Replaces the MCP server with this id by `update(server)`, copying only the path to it.
 * Returns the same state when there is no such server or `update` returns the same object.
 */
export function updateMcpServer(
  state: SessionState,
  id: unknown,
  update: (server: McpServerCustomization) => McpServerCustomization,
): SessionState {
  const list: unknown = state.customizations;
  if (!Array.isArray(list) || typeof id !== 'string') return state;
  const top = indexBy(list, 'id', id);
  if (top >= 0) {
    const entry: unknown = list[top];
    if (!isMcpServer(entry)) return state;
    const next = update(entry);
    return next === entry ? state : { ...state, customizations: replaceAt(list, top, next) };
  }
  for (let i = 0; i < list.length; i++) {
    const container: unknown = list[i];
    const children = childrenOf(container);
    if (!children) continue;
    const at = indexBy(children, 'id', id);
    const child: unknown = children[at];
    if (!isMcpServer(child)) continue;
    const next = update(child);
    if (next === child) return state;
    const nextContainer = { ...(container as Customization), children: replaceAt(children, at, next) } as Customization;
    return { ...state, customizations: replaceAt(list as Customization[], i, nextContainer) };
  }
  return state;
}

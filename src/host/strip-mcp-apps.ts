import type { Customization, SessionState } from '../protocol/index.js';

// Hosts SHOULD NOT show `mcpApp` / `channel` to clients that did not declare `capabilities.mcpApps`.

type Loose = Record<string, unknown>;

function stripServer<T>(c: T): T {
  const o = c as Loose;
  if (o?.type !== 'mcpServer' || (!('mcpApp' in o) && !('channel' in o))) return c;
  const { mcpApp: _a, channel: _c, ...rest } = o;
  return rest as T;
}

function stripCustomization<T>(c: T): T {
  const o = c as Loose;
  if (Array.isArray(o?.children)) {
    const children = o.children.map(stripServer);
    if (children.some((child, i) => child !== (o.children as unknown[])[i])) return { ...o, children } as T;
    return c;
  }
  return stripServer(c);
}

function stripList(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  const out = list.map(stripCustomization);
  return out.some((c, i) => c !== list[i]) ? out : list;
}

/** The session state without MCP Apps fields (same object when there were none). */
export function stripMcpAppsFromState(state: SessionState): SessionState {
  const customizations = stripList(state.customizations) as Customization[] | undefined;
  return customizations === state.customizations ? state : { ...state, customizations };
}

/** The action without MCP Apps fields (same object when there were none). */
export function stripMcpAppsFromAction<A extends { type: string }>(action: A): A {
  const a = action as unknown as Loose;
  switch (a.type) {
    case 'session/customizationsChanged': {
      const customizations = stripList(a.customizations);
      return customizations === a.customizations ? action : ({ ...a, customizations } as unknown as A);
    }
    case 'session/customizationUpdated': {
      const customization = stripCustomization(a.customization);
      return customization === a.customization ? action : ({ ...a, customization } as unknown as A);
    }
    case 'session/mcpServerStateChanged': {
      if (!('channel' in a)) return action;
      const { channel: _c, ...rest } = a;
      return rest as unknown as A;
    }
    default:
      return action;
  }
}

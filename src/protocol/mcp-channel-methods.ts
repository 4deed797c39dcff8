import type { AhpMcpUiHostCapabilities } from './customizations.js';

// AHP §8: the MCP methods an `mcp://` channel serves, by advertised capability. Lives in protocol so the
// client (local gating) and the host (authoritative -32601) share one table.
const METHODS_BY_CAPABILITY: Readonly<Record<keyof AhpMcpUiHostCapabilities, readonly string[]>> = {
  serverTools: ['tools/list', 'tools/call'],
  serverResources: ['resources/list', 'resources/templates/list', 'resources/read'],
  logging: ['logging/setLevel', 'notifications/message'],
  sampling: ['sampling/createMessage'],
};

/** The client→host MCP methods an `mcp://` channel with these capabilities serves; everything else is -32601. */
export function allowedMcpMethods(capabilities: AhpMcpUiHostCapabilities | undefined | null): Set<string> {
  const out = new Set<string>();
  if (typeof capabilities !== 'object' || capabilities === null) return out;
  for (const [capability, methods] of Object.entries(METHODS_BY_CAPABILITY)) {
    const value = (capabilities as Record<string, unknown>)[capability];
    if (typeof value === 'object' && value !== null) for (const m of methods) out.add(m);
  }
  return out;
}

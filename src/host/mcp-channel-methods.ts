import type { AhpMcpUiHostCapabilities } from '../protocol/index.js';

// AHP §8: the MCP methods an `mcp://` channel serves, by advertised capability. The client keeps the
// same table (src/client/mcp-channel.ts; a test checks they agree) because host and client may not import each other.
const METHODS_BY_CAPABILITY: Readonly<Record<keyof AhpMcpUiHostCapabilities, readonly string[]>> = {
  serverTools: ['tools/list', 'tools/call'],
  serverResources: ['resources/list', 'resources/templates/list', 'resources/read'],
  logging: ['logging/setLevel', 'notifications/message'],
  sampling: ['sampling/createMessage'],
};

/** The client→host MCP methods an `mcp://` channel with these capabilities serves; everything else is -32601. */
export function mcpChannelMethods(capabilities: AhpMcpUiHostCapabilities | undefined | null): Set<string> {
  const out = new Set<string>();
  if (typeof capabilities !== 'object' || capabilities === null) return out;
  for (const [capability, methods] of Object.entries(METHODS_BY_CAPABILITY)) {
    const value = (capabilities as Record<string, unknown>)[capability];
    if (typeof value === 'object' && value !== null) for (const m of methods) out.add(m);
  }
  return out;
}

/** Which MCP Apps host capabilities the playground can serve for a server, derived from its MCP capabilities (AHP §4.4). */
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { AhpMcpUiHostCapabilities, McpServerCustomizationApps } from '../../../src/protocol/index.js';

const listChanged = (cap: { listChanged?: boolean }) => (cap.listChanged === true ? { listChanged: true } : {});

/**
 * tools → serverTools, resources → serverResources, logging → logging. Sampling is left out: the playground
 * has no model to serve `sampling/createMessage` with. Undefined when the server offers nothing an App could use.
 */
export function mcpAppCapabilities(server: ServerCapabilities | undefined): AhpMcpUiHostCapabilities | undefined {
  if (!server) return undefined;
  const out: AhpMcpUiHostCapabilities = {};
  if (server.tools) out.serverTools = listChanged(server.tools);
  if (server.resources) out.serverResources = listChanged(server.resources);
  if (server.logging) out.logging = {};
  return Object.keys(out).length ? out : undefined;
}

/** The customization's `mcpApp` for a ready server, or undefined. */
export function mcpAppOf(server: ServerCapabilities | undefined): McpServerCustomizationApps | undefined {
  const capabilities = mcpAppCapabilities(server);
  return capabilities ? { capabilities } : undefined;
}

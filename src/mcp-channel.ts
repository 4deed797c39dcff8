/**
 * The `mcp://` side-channel client, for code that talks to an MCP server through the AHP host (MCP Apps).
 * Its own entry (`ahp-elements/mcp-channel`) so pages that only render servers and tool calls do not carry it.
 */
export { createMcpChannel, allowedMcpMethods, McpChannelUnavailableError } from './client/mcp-channel.js';
export type { McpChannel, McpChannelClient, McpChannelOptions, McpChannelRequestOptions } from './client/mcp-channel.js';

import { allowedMcpMethods } from '../protocol/mcp-channel-methods.js';

/** The client→host MCP methods an `mcp://` channel with these capabilities serves (the shared protocol table). */
export const mcpChannelMethods = allowedMcpMethods;

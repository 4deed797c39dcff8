/**
 * MCP Apps host side (`ahp-elements/apps`): the View bridge, sandbox policy builders (CSP, `allow`, style
 * variables), the sandbox proxy's script and the response headers a server puts on the proxy page.
 * DOM-free at import time; its own entry so the core stays small.
 */
export { AppBridgeHost, BridgeError, isAppVisible, SANDBOX_POLICY_CAPABILITY, LIMIT_ERROR_CODE, FLOOD_STOP } from './apps/bridge.js';
export type { AppBridgeHandlers, AppBridgeHostOptions, DownloadRequest } from './apps/bridge.js';
export { windowTransport } from './apps/transport.js';
export type { BridgeTransport } from './apps/transport.js';
export { buildCsp, normalizeCsp, sanitizeDomains, parseCspParam, sandboxPolicyOf, DEFAULT_CSP, SANDBOX_POLICIES } from './apps/csp.js';
export type { SandboxPolicy } from './apps/csp.js';
export { buildAllowAttribute, normalizePermissions } from './apps/permissions.js';
export { buildStyleVariables, diffHostContext, DEFAULT_THEME_TOKENS } from './apps/host-context.js';
export type { AppThemeTokens, LightDark } from './apps/host-context.js';
export { sandboxResponseHeaders, sandboxResponseHeadersForUrl } from './apps/sandbox-headers.js';
export type { SandboxHeaderOptions } from './apps/sandbox-headers.js';
export { runSandboxProxy, innerSandboxTokens, SandboxProxyError } from './apps/sandbox-proxy.js';
export { readUiResource, MAX_VIEW_LENGTH } from './apps/resource.js';
export type { UiResource, ViewTooLargeError } from './apps/resource.js';
export { resourceUriOf, repairPartialJson, toolArgumentsOf, callToolResultOf, cancelReasonOf, MCP_RESULT_META_KEY } from './apps/tool-call.js';
export { TokenBucket, boundedSize, DEFAULT_TRAFFIC_LIMITS } from './apps/limits.js';
export type { AppTrafficLimits } from './apps/limits.js';
export { sanitizeFileName } from './apps/file-name.js';
export { APP_MESSAGE_META_KEY, MCP_APP_MIME_TYPE, MCP_APPS_PROTOCOL_VERSION } from './apps/types.js';
export type {
  CallToolResult,
  ContentBlock,
  McpUiAppCapabilities,
  McpUiDisplayMode,
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiResourceCsp,
  McpUiResourceMeta,
  McpUiResourcePermissions,
  McpUiTheme,
} from './apps/types.js';

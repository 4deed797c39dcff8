// MCP Apps wire shapes the host side needs (SEP-1865, 2026-01-26 + the draft additions SDK 2.0.4 types).
// Kept structural and ours; `import type` checks against ext-apps live in the tests.

/** Declared network domains of a UI resource (`_meta.ui.csp`). */
export interface McpUiResourceCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Requested browser capabilities of a UI resource (`_meta.ui.permissions`). */
export interface McpUiResourcePermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** `_meta.ui` of a UI resource (listing entry or content item). */
export interface McpUiResourceMeta {
  csp?: McpUiResourceCsp;
  permissions?: McpUiResourcePermissions;
  domain?: string;
  prefersBorder?: boolean;
}

export type McpUiDisplayMode = 'inline' | 'fullscreen' | 'pip';
export type McpUiTheme = 'light' | 'dark';

/** What the host tells the View about its surroundings (passthrough: extra keys allowed). */
export interface McpUiHostContext {
  toolInfo?: { id?: string | number; tool: { name: string; [k: string]: unknown } };
  theme?: McpUiTheme;
  styles?: { variables?: Record<string, string>; css?: { fonts?: string } };
  displayMode?: McpUiDisplayMode;
  availableDisplayModes?: McpUiDisplayMode[];
  containerDimensions?: { height?: number; maxHeight?: number; width?: number; maxWidth?: number };
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  [key: string]: unknown;
}

/** `hostCapabilities` of the `ui/initialize` answer. */
export interface McpUiHostCapabilities {
  experimental?: Record<string, object>;
  openLinks?: Record<string, never>;
  downloadFile?: Record<string, never>;
  serverTools?: { listChanged?: boolean };
  serverResources?: { listChanged?: boolean };
  logging?: Record<string, never>;
  sandbox?: { permissions?: McpUiResourcePermissions; csp?: McpUiResourceCsp };
  updateModelContext?: Record<string, object>;
  message?: Record<string, object>;
  sampling?: { tools?: Record<string, never> };
}

/** `appCapabilities` of the View's `ui/initialize`. */
export interface McpUiAppCapabilities {
  experimental?: Record<string, object>;
  tools?: { listChanged?: boolean };
  availableDisplayModes?: McpUiDisplayMode[];
}

/** An MCP content block (loosely typed: the bridge passes them through). */
export interface ContentBlock {
  type: string;
  [key: string]: unknown;
}

/** MCP `CallToolResult`. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export const MCP_APPS_PROTOCOL_VERSION = '2026-01-26';
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * `_meta` key on a user turn a View's `ui/message` started: `{ serverId, server, toolCallId? }`, who really sent
 * it. AHP lets clients start turns only with `origin.kind: 'user'`; `<ahp-chat>` shows the App, not "You".
 */
export const APP_MESSAGE_META_KEY = 'ahp-elements/fromMcpApp';

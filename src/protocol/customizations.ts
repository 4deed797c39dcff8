import type { ErrorInfo, Icon, Open, ProtectedResourceMetadata, TextRange, URI } from './common.js';

/** Scoped enablement decision; `kind` is open. */
export type CustomizationEnablement =
  | { kind: 'global'; enabled: boolean }
  | { kind: 'workspace'; uri: URI; enabled: boolean }
  | { kind: 'session'; enabled: boolean }
  | { kind: Open<never>; enabled: boolean; [key: string]: unknown };

export interface CustomizationBase {
  /** Session-unique opaque handle used by every action. */
  id: string;
  uri: URI;
  name: string;
  icons?: Icon[];
  range?: TextRange;
  _meta?: Record<string, unknown>;
}

export type CustomizationLoadState =
  | { kind: 'loading' }
  | { kind: 'loaded' }
  | { kind: 'degraded'; message: string }
  | { kind: 'error'; message: string };

export interface ContainerCustomizationBase extends CustomizationBase {
  clientId?: string;
  load?: CustomizationLoadState;
  /** Absent: not parsed yet. Empty: parsed, no children. */
  children?: ChildCustomization[];
}

export interface PluginCustomization extends ContainerCustomizationBase {
  type: 'plugin';
  enablement?: CustomizationEnablement[];
  /** Older hosts (0.5.x) send a boolean instead of `enablement`. */
  enabled?: boolean;
  version?: string;
}

export interface ClientPluginCustomization extends PluginCustomization {
  nonce?: string;
  childEnablement?: Record<string, CustomizationEnablement[]>;
}

export interface DirectoryCustomization extends ContainerCustomizationBase {
  type: 'directory';
  enabled: boolean;
  contents: string;
  writable: boolean;
}

export interface ChildCustomizationBase extends CustomizationBase {
  /** Absent means enabled. */
  enabled?: boolean;
}

export interface AgentCustomization extends ChildCustomizationBase {
  type: 'agent';
  description?: string;
  model?: string;
  tools?: string[];
  disableModelInvocation?: boolean;
  disableUserInvocation?: boolean;
}
export interface SkillCustomization extends ChildCustomizationBase {
  type: 'skill';
  description?: string;
  disableModelInvocation?: boolean;
  disableUserInvocation?: boolean;
}
export interface PromptCustomization extends ChildCustomizationBase { type: 'prompt'; description?: string }
export interface RuleCustomization extends ChildCustomizationBase {
  type: 'rule';
  description?: string;
  alwaysApply?: boolean;
  globs?: string[];
}
export interface HookCustomization extends ChildCustomizationBase { type: 'hook' }

/** MCP Apps capabilities the host serves over the server's `mcp://` channel. */
export interface AhpMcpUiHostCapabilities {
  serverTools?: { listChanged?: boolean };
  serverResources?: { listChanged?: boolean };
  logging?: Record<string, never>;
  sampling?: { tools?: Record<string, never> };
}

export interface McpServerCustomizationApps { capabilities: AhpMcpUiHostCapabilities }

export interface McpServerCustomization extends CustomizationBase {
  type: 'mcpServer';
  enablement?: CustomizationEnablement[];
  /** Older hosts (0.5.x) send a boolean instead of `enablement`. */
  enabled?: boolean;
  state: McpServerState;
  /** `mcp://` side channel; absent means unavailable. */
  channel?: URI;
  mcpApp?: McpServerCustomizationApps;
}

/** A customization of a type this client does not know; kept and round-tripped untouched. */
export interface UnknownCustomization extends CustomizationBase {
  type: Open<never>;
  [key: string]: unknown;
}

export type Customization = PluginCustomization | DirectoryCustomization | McpServerCustomization;
export type ChildCustomization =
  | AgentCustomization
  | SkillCustomization
  | PromptCustomization
  | RuleCustomization
  | HookCustomization
  | McpServerCustomization;

export type McpAuthRequiredReason = Open<'required' | 'expired' | 'insufficientScope'>;

export interface McpOAuthClient { clientId: string; clientSecret?: string }

/** Why a server or tool call needs a token. Never carries a token. */
export interface McpAuthRequirement {
  reason: McpAuthRequiredReason;
  oauthClient?: McpOAuthClient;
  resource: ProtectedResourceMetadata;
  requiredScopes?: string[];
  description?: string;
}

export type McpServerStateKind = Open<'starting' | 'ready' | 'authRequired' | 'error' | 'stopped'>;

export type McpServerStartingState = { kind: 'starting'; blocking?: boolean };
export type McpServerReadyState = { kind: 'ready' };
export type McpServerAuthRequiredState = { kind: 'authRequired' } & McpAuthRequirement;
export type McpServerErrorState = { kind: 'error'; error: ErrorInfo };
export type McpServerStoppedState = { kind: 'stopped' };

export type McpServerState =
  | McpServerStartingState
  | McpServerReadyState
  | McpServerAuthRequiredState
  | McpServerErrorState
  | McpServerStoppedState;

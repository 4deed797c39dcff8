import { html, nothing } from 'lit';
import type { McpServerCustomization } from '../../src/protocol/customizations.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import { callToolResultOf, resourceUriOf, toolArgumentsOf } from '../../src/apps/tool-call.js';
import { requestDefinition } from '../shared/lazy-define.js';

/** What a host element knows about a tool call that may have an MCP App. */
export interface McpAppEmbedding {
  store: SessionStoreLike | undefined;
  /** The host element's handle (its own or from context); the App falls back to its own context when undefined. */
  handle?: SessionHandle | undefined;
  /** The chat the call lives in (store-driven mode); undefined for a given tool-call object. */
  chat: string | null | undefined;
  toolCall: ToolCallState;
  server: McpServerCustomization | undefined;
}

/**
 * `<ahp-mcp-app>` for a tool call when it is an App call (MCP contributor + `_meta.ui.resourceUri`) on a
 * server that offers Apps (`mcpApp` and a `channel`, which hosts only show to clients that declared
 * `mcpApps`); `nothing` otherwise. The host element shows the connection banner, so the App does not. Renders the tag only: `<ahp-mcp-app>` must be defined for it to run.
 */
export function renderMcpApp({ store, handle, chat, toolCall, server }: McpAppEmbedding) {
  const uri = resourceUriOf(toolCall);
  const contributor = toolCall.contributor;
  if (!uri || contributor?.kind !== 'mcp' || !server?.mcpApp || !server.channel || server.id !== contributor.customizationId) return nothing;
  // In the CDN build `<ahp-mcp-app>` loads on first use, and a shadow root is out of the document's sight.
  requestDefinition('ahp-mcp-app');
  if (chat) {
    return html`<ahp-mcp-app part="app" .store=${store} .handle=${handle} .connectionNotice=${false} chat=${chat} tool-call-id=${toolCall.toolCallId}></ahp-mcp-app>`;
  }
  return html`<ahp-mcp-app
    part="app"
    .store=${store}
    .handle=${handle}
    .connectionNotice=${false}
    server-id=${server.id}
    resource-uri=${uri}
    .toolInput=${toolArgumentsOf(toolCall)}
    .toolResult=${callToolResultOf(toolCall)}
  ></ahp-mcp-app>`;
}

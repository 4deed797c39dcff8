// Generated from custom-elements.json by scripts/typings.mjs (npm run docs). Do not edit.
import type {
  AhpAppDisplayModeEvent,
  AhpAppDownloadEvent,
  AhpAppMessageEvent,
  AhpAppModelContextEvent,
  AhpAppOpenLinkEvent,
  AhpAppToolsChangedEvent,
  AhpAuthCompleteEvent,
  AhpAuthErrorEvent,
  AhpAuthStartEvent,
  AhpChat,
  AhpChatCancelEvent,
  AhpChatInputAnswerEvent,
  AhpChatPendingRemoveEvent,
  AhpChatResumeEvent,
  AhpChatSendEvent,
  AhpConnectionChangeEvent,
  AhpInputNeeded,
  AhpInputNeededOpenEvent,
  AhpMcpApp,
  AhpMcpServer,
  AhpMcpServerAuthRequestEvent,
  AhpMcpServerList,
  AhpMcpServerRestartEvent,
  AhpMcpServerStartEvent,
  AhpMcpServerStopEvent,
  AhpMcpServerToggleEvent,
  AhpSession,
  AhpToolCall,
  AhpToolCallApproveEvent,
  AhpToolCallAuthRequestEvent,
  AhpToolCallCancelEvent,
  AhpToolCallDenyEvent,
  AhpToolCallResultConfirmEvent,
} from 'ahp-elements/elements';

/** Attributes of `<ahp-chat>` (strings in markup). */
export interface AhpChatAttributes {
  /** The chat channel URI (`ahp-chat:/…`). */
  chat?: string | null;
}

/** Properties of `<ahp-chat>` (rich data goes here). */
export interface AhpChatProperties {
  /** The chat channel URI (`ahp-chat:/…`). */
  chat?: AhpChat['chat'];
  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  store?: AhpChat['store'];
}

/** Events `<ahp-chat>` fires, by name. */
export interface AhpChatEvents {
  /** Before dispatching `chat/turnStarted`; cancelable (the text then stays in the composer). */
  'ahp-chat-send': AhpChatSendEvent;
  /** Before dispatching `chat/turnCancelled`; cancelable. */
  'ahp-chat-cancel': AhpChatCancelEvent;
  /** Before dispatching `chat/inputCompleted` for a question answered in place; cancelable. */
  'ahp-chat-input-answer': AhpChatInputAnswerEvent;
  /** Before dispatching `chat/turnResume`; cancelable. */
  'ahp-chat-resume': AhpChatResumeEvent;
  /** Before dispatching `chat/pendingMessageRemoved`; cancelable. */
  'ahp-chat-pending-remove': AhpChatPendingRemoveEvent;
}

/** Attributes of `<ahp-input-needed>` (strings in markup). */
export interface AhpInputNeededAttributes {
}

/** Properties of `<ahp-input-needed>` (rich data goes here). */
export interface AhpInputNeededProperties {
  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  store?: AhpInputNeeded['store'];
}

/** Events `<ahp-input-needed>` fires, by name. */
export interface AhpInputNeededEvents {
  /** From the `<ahp-tool-call>` rows; cancelable. */
  'ahp-tool-call-approve': AhpToolCallApproveEvent;
  /** From the `<ahp-tool-call>` rows; cancelable. */
  'ahp-tool-call-deny': AhpToolCallDenyEvent;
  /** From the `<ahp-tool-call>` rows; cancelable. */
  'ahp-tool-call-result-confirm': AhpToolCallResultConfirmEvent;
  /** From the `<ahp-tool-call>` rows; cancelable. */
  'ahp-tool-call-cancel': AhpToolCallCancelEvent;
  /** From the `<ahp-tool-call>` rows; cancelable. */
  'ahp-auth-request': AhpToolCallAuthRequestEvent;
  /** "Open chat" for a chat that asks a question. */
  'ahp-input-needed-open': AhpInputNeededOpenEvent;
  /** Before dispatching `chat/inputCompleted` for a question answered here; cancelable. */
  'ahp-chat-input-answer': AhpChatInputAnswerEvent;
}

/** Attributes of `<ahp-mcp-app>` (strings in markup). */
export interface AhpMcpAppAttributes {
  /** Chat channel URI of the tool call. */
  chat?: string | null;
  /** Id of the tool call whose App to show (reads server, `ui://` URI, input, result and status from the store). */
  'tool-call-id'?: string | null;
  /** MCP server customization id (explicit mode, or to override the tool call's contributor). */
  'server-id'?: string | null;
  /** The `ui://` resource (explicit mode). */
  'resource-uri'?: string | null;
  /** URL of the sandbox proxy page; must be on another origin than this page. */
  'sandbox-url'?: string | null;
  /** Display mode in force (`inline`, `fullscreen`, `pip`). */
  'display-mode'?: string | null;
  /** Sandbox CSP policy: `compat` (what published Apps need: eval, blob:/data: scripts, blob: workers) or `strict` (the spec's minimum). When unset, `AhpMcpApp.sandboxPolicy`. The sandbox server must honour the URL's `policy` parameter (`sandboxResponseHeadersForUrl` does). */
  'sandbox-policy'?: string | null;
}

/** Properties of `<ahp-mcp-app>` (rich data goes here). */
export interface AhpMcpAppProperties {
  /** Chat channel URI of the tool call. */
  chat?: AhpMcpApp['chat'];
  /** Id of the tool call whose App to show (reads server, `ui://` URI, input, result and status from the store). */
  toolCallId?: AhpMcpApp['toolCallId'];
  /** MCP server customization id (explicit mode, or to override the tool call's contributor). */
  serverId?: AhpMcpApp['serverId'];
  /** The `ui://` resource (explicit mode). */
  resourceUri?: AhpMcpApp['resourceUri'];
  /** URL of the sandbox proxy page; must be on another origin than this page. */
  sandboxUrl?: AhpMcpApp['sandboxUrl'];
  /** Display mode in force (`inline`, `fullscreen`, `pip`). */
  displayMode?: AhpMcpApp['displayMode'];
  /** Tool arguments (explicit mode). */
  toolInput?: AhpMcpApp['toolInput'];
  /** Tool result (explicit mode). */
  toolResult?: AhpMcpApp['toolResult'];
  /** Store to read from; when unset, the one provided by an ancestor `<ahp-session>`. */
  store?: AhpMcpApp['store'];
  /** Session handle that opens the server's `mcp://` channel; when unset, the one provided by an ancestor `<ahp-session>`. */
  handle?: AhpMcpApp['handle'];
  /** The server's `mcp://` channel; when unset, `handle.mcpChannel(serverId)`. */
  channel?: AhpMcpApp['channel'];
  /** The server's `mcpApp.capabilities`; when unset, read from the store. */
  capabilities?: AhpMcpApp['capabilities'];
  /** Sandbox CSP policy: `compat` (what published Apps need: eval, blob:/data: scripts, blob: workers) or `strict` (the spec's minimum). When unset, `AhpMcpApp.sandboxPolicy`. The sandbox server must honour the URL's `policy` parameter (`sandboxResponseHeadersForUrl` does). */
  sandboxPolicy?: AhpMcpApp['sandboxPolicy'];
  /** What to do when the View asks to send a message, open a link, download or leave inline mode, per kind: `ask` (default: directly right after the user interacted with this App, else a prompt in the element's box), `allow` (always directly) or `deny`. When unset, `AhpMcpApp.intentPolicy`. */
  intentPolicy?: AhpMcpApp['intentPolicy'];
  /** Whether to show the connection banner while not connected (false when the embedding element shows its own). */
  connectionNotice?: AhpMcpApp['connectionNotice'];
  /** The latest model context the View set (attached to the next message this element sends). */
  modelContext?: AhpMcpApp['modelContext'];
}

/** Events `<ahp-mcp-app>` fires, by name. */
export interface AhpMcpAppEvents {
  /** The View asks to open a link; cancelable (default: http/https in a new tab, noopener). */
  'ahp-app-open-link': AhpAppOpenLinkEvent;
  /** The View sends a message; cancelable (default: a user turn in the tool call's chat). */
  'ahp-app-message': AhpAppMessageEvent;
  /** The View replaced its model context. */
  'ahp-app-model-context': AhpAppModelContextEvent;
  /** The View asks to download files; cancelable (default: save them). */
  'ahp-app-download': AhpAppDownloadEvent;
  /** The display mode is about to change; cancelable. */
  'ahp-app-display-mode': AhpAppDisplayModeEvent;
  /** The View's own tools changed (list them again with `listViewTools()`). */
  'ahp-app-tools-changed': AhpAppToolsChangedEvent;
}

/** Attributes of `<ahp-mcp-server>` (strings in markup). */
export interface AhpMcpServerAttributes {
  /** Customization id of the MCP server to show. */
  'server-id'?: string | null;
}

/** Properties of `<ahp-mcp-server>` (rich data goes here). */
export interface AhpMcpServerProperties {
  /** Customization id of the MCP server to show. */
  serverId?: AhpMcpServer['serverId'];
  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  store?: AhpMcpServer['store'];
  /** Show the connection banner while not connected (default true). `<ahp-mcp-server-list>` turns it off and shows one for all its servers. */
  connectionNotice?: AhpMcpServer['connectionNotice'];
}

/** Events `<ahp-mcp-server>` fires, by name. */
export interface AhpMcpServerEvents {
  /** Before dispatching `session/customizationToggled`; cancelable. */
  'ahp-mcp-server-toggle': AhpMcpServerToggleEvent;
  /** Before dispatching `session/mcpServerStartRequested`; cancelable. */
  'ahp-mcp-server-start': AhpMcpServerStartEvent;
  /** Before dispatching `session/mcpServerStopRequested`; cancelable. */
  'ahp-mcp-server-stop': AhpMcpServerStopEvent;
  /** Before dispatching stop then start; cancelable. */
  'ahp-mcp-server-restart': AhpMcpServerRestartEvent;
  /** "Sign in" / "Sign in again" / "Grant access" in `authRequired`; cancelable (else `<ahp-session>` signs in). */
  'ahp-auth-request': AhpMcpServerAuthRequestEvent;
}

/** Attributes of `<ahp-mcp-server-list>` (strings in markup). */
export interface AhpMcpServerListAttributes {
  /** Heading of the group of top-level servers (default: "Session" in the element's language). */
  'top-level-label'?: string | null;
  /** ARIA level of the group headings (default 3). */
  'heading-level'?: number | string | null;
}

/** Properties of `<ahp-mcp-server-list>` (rich data goes here). */
export interface AhpMcpServerListProperties {
  /** Store to read; when unset, the one provided by an ancestor `<ahp-session>`. */
  store?: AhpMcpServerList['store'];
  /** Heading of the group of top-level servers (default: "Session" in the element's language). */
  topLevelLabel?: AhpMcpServerList['topLevelLabel'];
  /** ARIA level of the group headings (default 3). */
  headingLevel?: AhpMcpServerList['headingLevel'];
}

/** Events `<ahp-mcp-server-list>` fires, by name. */
export interface AhpMcpServerListEvents {
}

/** Attributes of `<ahp-session>` (strings in markup). */
export interface AhpSessionAttributes {
  /** WebSocket URL of the AHP host (`ws://…`). */
  url?: string | null;
  /** Session channel URI to subscribe to (`ahp-session:/…`). Without it the element asks the host (root channel and `listSessions`) and opens its default or only session; with several and no default it shows them to choose from. */
  session?: string | null;
  /** Client id to initialize with; generated when unset. */
  'client-id'?: string | null;
  /** Where the connection runs: unset = in this page; `shared` = a SharedWorker shared by every same-origin page (one WebSocket), `dedicated` = a Worker of this page. Falls back shared → dedicated → page. */
  worker?: string | null;
  /** Worker module URL for `worker` mode (default: the entry shipped next to the worker store; see `connectSessionInWorker`). */
  'worker-url'?: string | null;
  /** OAuth redirect URI for sign-ins (default: the callback page shipped next to the driver). */
  'auth-redirect-uri'?: string | null;
  /** `popup` (default) or `redirect` (full page; the flow resumes when the session is open again). */
  'auth-mode'?: string | null;
}

/** Properties of `<ahp-session>` (rich data goes here). */
export interface AhpSessionProperties {
  /** WebSocket URL of the AHP host (`ws://…`). */
  url?: AhpSession['url'];
  /** Session channel URI to subscribe to (`ahp-session:/…`). Without it the element asks the host (root channel and `listSessions`) and opens its default or only session; with several and no default it shows them to choose from. */
  session?: AhpSession['session'];
  /** Client id to initialize with; generated when unset. */
  clientId?: AhpSession['clientId'];
  /** Where the connection runs: unset = in this page; `shared` = a SharedWorker shared by every same-origin page (one WebSocket), `dedicated` = a Worker of this page. Falls back shared → dedicated → page. */
  worker?: AhpSession['worker'];
  /** Worker module URL for `worker` mode (default: the entry shipped next to the worker store; see `connectSessionInWorker`). */
  workerUrl?: AhpSession['workerUrl'];
  /** A store to provide instead of connecting; takes precedence over `url`/`session`. */
  store?: AhpSession['store'];
  /** The session handle to provide with `store` (connection state, authenticate, `mcp://`, createChat), e.g. the `handle` of `connectSession`. Without it, elements say that the session cannot sign in or open Apps. */
  handle?: AhpSession['handle'];
  /** OAuth redirect URI for sign-ins (default: the callback page shipped next to the driver). */
  authRedirectUri?: AhpSession['authRedirectUri'];
  /** `popup` (default) or `redirect` (full page; the flow resumes when the session is open again). */
  authMode?: AhpSession['authMode'];
  /** Driver options: `tokenStore`, `registrationStore`, `clientName`, `clientMetadataUrl`, `fetch`. */
  authOptions?: AhpSession['authOptions'];
  /** Retrying (in-page connections): backoff options (`initialDelayMs` 250, `maxDelayMs` 5 000, `factor`, `jitter`, `maxAttempts` Infinity), or `false` to stop at the first failure. Applies whether the first or a later connection fails. */
  reconnect?: AhpSession['reconnect'];
}

/** Events `<ahp-session>` fires, by name. */
export interface AhpSessionEvents {
  /** When the connection state changes. */
  'ahp-connection-change': AhpConnectionChangeEvent;
  /** The built-in sign-in started (fired at the element that asked, bubbling). */
  'ahp-auth-start': AhpAuthStartEvent;
  /** The token was handed to the host (at the element that asked; at the session for a resumed redirect). */
  'ahp-auth-complete': AhpAuthCompleteEvent;
  /** A sign-in failed (fired at the element that asked, bubbling; at the session for a resumed redirect). */
  'ahp-auth-error': AhpAuthErrorEvent;
}

/** Attributes of `<ahp-tool-call>` (strings in markup). */
export interface AhpToolCallAttributes {
  /** Chat channel URI (`ahp-chat:/…`) the call lives in; needed to dispatch actions. */
  chat?: string | null;
  /** Id of the tool call to show from the store (ignored when `toolCall` is set). */
  'tool-call-id'?: string | null;
  /** Turn of the call, for actions on a given `toolCall`; read from the store otherwise. */
  'turn-id'?: string | null;
}

/** Properties of `<ahp-tool-call>` (rich data goes here). */
export interface AhpToolCallProperties {
  /** Chat channel URI (`ahp-chat:/…`) the call lives in; needed to dispatch actions. */
  chat?: AhpToolCall['chat'];
  /** Id of the tool call to show from the store (ignored when `toolCall` is set). */
  toolCallId?: AhpToolCall['toolCallId'];
  /** Turn of the call, for actions on a given `toolCall`; read from the store otherwise. */
  turnId?: AhpToolCall['turnId'];
  /** A tool-call object to show instead of looking one up. */
  toolCall?: AhpToolCall['toolCall'];
  /** Store to read and dispatch through; when unset, the one provided by an ancestor `<ahp-session>`. */
  store?: AhpToolCall['store'];
  /** Session handle for an embedded MCP App's `mcp://` channel; when unset, the one provided by an ancestor `<ahp-session>`. */
  handle?: AhpToolCall['handle'];
  /** Show the connection banner while not connected (default true); `<ahp-chat>` and `<ahp-input-needed>` show their own. */
  connectionNotice?: AhpToolCall['connectionNotice'];
}

/** Events `<ahp-tool-call>` fires, by name. */
export interface AhpToolCallEvents {
  /** Before `chat/toolCallConfirmed {approved:true}`; cancelable. */
  'ahp-tool-call-approve': AhpToolCallApproveEvent;
  /** Before `chat/toolCallConfirmed {approved:false}`; cancelable. */
  'ahp-tool-call-deny': AhpToolCallDenyEvent;
  /** Before `chat/toolCallResultConfirmed`; cancelable. */
  'ahp-tool-call-result-confirm': AhpToolCallResultConfirmEvent;
  /** Before a failed `chat/toolCallComplete` cancels a blocked call; cancelable. */
  'ahp-tool-call-cancel': AhpToolCallCancelEvent;
  /** "Grant access" on a call blocked by authentication; cancelable. */
  'ahp-auth-request': AhpToolCallAuthRequestEvent;
}

/** Every ahp-elements tag: its class, attributes, properties and events. */
export interface AhpElements {
  /** Transcript and composer of one AHP chat. */
  'ahp-chat': { element: AhpChat; attributes: AhpChatAttributes; properties: AhpChatProperties; events: AhpChatEvents };
  /** Everything in the session that waits for the user, with its answers. */
  'ahp-input-needed': { element: AhpInputNeeded; attributes: AhpInputNeededAttributes; properties: AhpInputNeededProperties; events: AhpInputNeededEvents };
  /** Renders an MCP App (the UI of an MCP tool call) in a sandbox. */
  'ahp-mcp-app': { element: AhpMcpApp; attributes: AhpMcpAppAttributes; properties: AhpMcpAppProperties; events: AhpMcpAppEvents };
  /** Shows and controls one MCP server. */
  'ahp-mcp-server': { element: AhpMcpServer; attributes: AhpMcpServerAttributes; properties: AhpMcpServerProperties; events: AhpMcpServerEvents };
  /** Lists the session's MCP servers grouped by container. */
  'ahp-mcp-server-list': { element: AhpMcpServerList; attributes: AhpMcpServerListAttributes; properties: AhpMcpServerListProperties; events: AhpMcpServerListEvents };
  /** Provides an AHP session store to the elements inside it. */
  'ahp-session': { element: AhpSession; attributes: AhpSessionAttributes; properties: AhpSessionProperties; events: AhpSessionEvents };
  /** Shows and operates one AHP tool call. */
  'ahp-tool-call': { element: AhpToolCall; attributes: AhpToolCallAttributes; properties: AhpToolCallProperties; events: AhpToolCallEvents };
}

/** `ahp-tool-call-approve` → `AhpToolCallApprove`. */
export type PascalCase<S extends string> = S extends `${infer H}-${infer T}` ? `${Capitalize<H>}${PascalCase<T>}` : Capitalize<S>;

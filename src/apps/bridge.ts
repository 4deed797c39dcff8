import type { McpChannel } from '../client/mcp-channel.js';
import type { AhpMcpUiHostCapabilities } from '../protocol/customizations.js';
import { allowedMcpMethods } from '../protocol/mcp-channel-methods.js';
import { RpcError } from '../rpc/errors.js';
import { JsonRpcEngine, isId, type IncomingRequest } from '../rpc/json-rpc-engine.js';
import type { Transport } from '../rpc/transport.js';
import { diffHostContext } from './host-context.js';
import { sanitizeFileName } from './file-name.js';
import { SANDBOX_METHODS } from './sandbox-methods.js';
import { DEFAULT_TRAFFIC_LIMITS, TokenBucket, boundedSize, type AppTrafficLimits } from './limits.js';
import {
  MCP_APPS_PROTOCOL_VERSION,
  type CallToolResult,
  type ContentBlock,
  type McpUiAppCapabilities,
  type McpUiDisplayMode,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
} from './types.js';
import { errorText, isRecord } from '../protocol/guards.js';

type Params = Record<string, unknown>;

/** A JSON-RPC error to answer a View request with: the one `RpcError` class under the name the Apps entry has always used. */
export { RpcError as BridgeError };

/** `ui/download-file` as the host sees it: the View's contents with a sanitized file name each. */
export interface DownloadRequest {
  contents: { fileName: string; item: ContentBlock }[];
}

/** What the embedder decides; every callback may be async. A missing callback refuses the request. */
export interface AppBridgeHandlers {
  /** `ui/open-link`: true when the link was opened. */
  openLink?(url: string): boolean | Promise<boolean>;
  /** `ui/message`: true when the message was accepted into the conversation. */
  message?(message: { role: string; content: ContentBlock[] }): boolean | Promise<boolean>;
  /** `ui/update-model-context` (each call replaces the previous one). */
  updateModelContext?(context: { content?: ContentBlock[]; structuredContent?: Params }): void;
  /** `ui/request-display-mode`, already checked against both sides' modes: returns the mode now in force. */
  requestDisplayMode?(mode: McpUiDisplayMode): McpUiDisplayMode | Promise<McpUiDisplayMode>;
  /** `ui/download-file`: true when the download happened. */
  downloadFile?(request: DownloadRequest): boolean | Promise<boolean>;
  /** `ui/notifications/size-changed`. */
  sizeChanged?(size: { width?: number; height?: number }): void;
  /** `ui/notifications/request-teardown`. */
  requestTeardown?(): void;
  /** `notifications/message` (logging) from the View. */
  log?(params: Params): void;
  /** The View sent `ui/notifications/initialized`. */
  initialized?(): void;
  /** A malformed message or a refused request, for diagnostics. */
  warn?(message: string): void;
  /** The View's own tools changed (`notifications/tools/list_changed` from the View). */
  viewToolsChanged?(): void;
  /** The sandbox proxy saw the View fail (an uncaught error or a CSP violation in the View's document). */
  viewError?(message: string): void;
  /**
   * The View went far over its limits (`FLOOD_STOP` refused messages): it bypassed the sandbox proxy's own limit,
   * which only a View that scripts the proxy can. The embedder should stop it.
   */
  flooding?(): void;
  /** The user pressed Escape in the View and the View did not handle it (forwarded by the sandbox proxy). */
  escape?(): void;
}

export interface AppBridgeHostOptions {
  /** The pipe to the View through its sandbox proxy, e.g. `windowTransport(frame.contentWindow, proxyOrigin)`. */
  transport: Transport;
  /** The server's `mcp://` channel; without it no MCP method is relayed. */
  channel?: McpChannel | undefined;
  /** The server's `mcpApp.capabilities` (what the channel serves). */
  capabilities?: AhpMcpUiHostCapabilities | undefined;
  hostInfo?: { name: string; version: string };
  /** Initial host context (theme, styles, display mode, dimensions, locale…). */
  hostContext?: McpUiHostContext;
  /** What the sandbox actually applied. */
  sandbox?: { csp?: McpUiResourceCsp | undefined; permissions?: McpUiResourcePermissions | undefined };
  handlers?: AppBridgeHandlers;
  /** How long `teardown()` waits for the View's answer (default 500 ms). */
  teardownTimeoutMs?: number;
  /**
   * Longest a View request relayed over `mcp://` may run (default 300 000 ms). It also ends when the View
   * cancels it (`notifications/cancelled`) or the bridge closes; long-polls need far more than 30 s.
   */
  relayTimeoutMs?: number;
  /** Rate and size limits on View → host traffic. */
  limits?: AppTrafficLimits;
  /** The sandbox policy applied (reported in `hostCapabilities.experimental['ahp-elements/sandbox']`). */
  sandboxPolicy?: string;
}

/** Where the host reports its sandbox policy in `hostCapabilities.experimental`. */
export const SANDBOX_POLICY_CAPABILITY = 'ahp-elements/sandbox';
/** Error code for View traffic refused by the limits. */
export const LIMIT_ERROR_CODE = -32000;
/** After this many refused messages the View counts as flooding (see `AppBridgeHandlers.flooding`). */
export const FLOOD_STOP = 2000;

const DISPLAY_MODES: readonly McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];
/** A request the host does not serve (a missing handler means the capability was not advertised either). */
const notFound = (method: string) => new RpcError(-32601, `Method not found: ${method}`);

/** Whether a tool's `_meta.ui.visibility` lets a View call it (absent = model and app). */
export function isAppVisible(tool: unknown): boolean {
  const ui = isRecord(tool) && isRecord(tool['_meta']) ? tool['_meta']['ui'] : undefined;
  const visibility = isRecord(ui) ? ui['visibility'] : undefined;
  return !Array.isArray(visibility) || visibility.includes('app');
}

/**
 * Host side of one MCP App View: the JSON-RPC engine over a `Transport` (through the sandbox proxy).
 * Answers the handshake, holds every host→View message until `ui/notifications/initialized`, sends
 * `tool-input` exactly once before the result, relays allowed MCP methods over the server's `mcp://`
 * channel (View `tools/call` only for app-visible tools of the same server) and surfaces the `ui/*`
 * requests through `handlers`.
 */
export class AppBridgeHost {
  declare private readonly wiring: AppBridgeHostOptions;
  declare private readonly transport: Transport;
  /** Host→View requests and their answers; View requests in flight (cancelling one ends its relay and answers nothing). */
  declare private readonly rpc: JsonRpcEngine;
  declare private started?: boolean;
  declare private context: McpUiHostContext;
  declare private toolsCache: Promise<Map<string, unknown>> | undefined;
  private unsubscribers: (() => void)[] = [];
  declare private closed?: boolean;
  declare private readonly limits: Required<AppTrafficLimits>;
  declare private readonly bucket: TokenBucket;
  /** Bounds the error answers to refused traffic, so a flood is not echoed back at the same rate. */
  private readonly errorBucket = new TokenBucket(20, 20);
  /** Messages dropped by the limits (diagnostics, tests). */
  dropped = 0;

  /** True once the View sent `ui/notifications/initialized`. */
  initialized = false;
  /** What the View declared in `ui/initialize`. */
  appCapabilities: McpUiAppCapabilities | undefined;
  appInfo: { name?: string; version?: string } | undefined;
  /** The latest `ui/update-model-context` (last wins). */
  modelContext: { content?: ContentBlock[]; structuredContent?: Params } | undefined;

  // Lifecycle of the tool call as the View must see it.
  declare private inputSent?: boolean;
  declare private input: Params | undefined;
  declare private partial: Params | undefined;
  declare private final: { method: string; params: Params } | undefined;
  declare private finalSent?: boolean;

  constructor(options: AppBridgeHostOptions) {
    this.wiring = options;
    this.transport = options.transport;
    this.context = { platform: 'web', ...options.hostContext };
    this.limits = { ...DEFAULT_TRAFFIC_LIMITS, ...options.limits };
    this.bucket = new TokenBucket(this.limits.messagesPerSecond, this.limits.burst);
    let counter = 1;
    this.rpc = new JsonRpcEngine({
      send: (message) => this.transport.send(message),
      onRequest: (method, params, request) => this.serve(method, isRecord(params) ? params : {}, request),
      onNotification: (method, params) => this.onNotification(method, isRecord(params) ? params : {}),
      // Malformed View traffic is dropped without a word, as hostile Views would otherwise fill the log.
      log: () => {},
      nextId: () => `h${counter++}`,
      timeoutError: (method, timeoutMs) => new RpcError(-32001, `The App did not answer ${method} within ${timeoutMs} ms`),
      closedError: () => new RpcError(-32603, 'The App was closed'),
    });
  }

  /** Whether the View declared tools of its own (`appCapabilities.tools`). */
  get hasViewTools(): boolean {
    return isRecord(this.appCapabilities?.tools);
  }

  /** The View's own tools (`tools/list` sent to the View). Rejects when the View declared none. */
  async listViewTools(options: { timeoutMs?: number } = {}): Promise<Params[]> {
    if (!this.hasViewTools) throw new RpcError(-32601, 'The App declared no tools');
    const result = await this.request('tools/list', {}, options);
    return Array.isArray(result['tools']) ? result['tools'].filter(isRecord) : [];
  }

  /** Calls one of the View's own tools (`tools/call` sent to the View) and returns its `CallToolResult`. */
  async callViewTool(name: string, args: Params = {}, options: { timeoutMs?: number } = {}): Promise<CallToolResult> {
    if (!this.hasViewTools) throw new RpcError(-32601, 'The App declared no tools');
    const result = await this.request('tools/call', { name, arguments: args }, options);
    return { ...result, content: Array.isArray(result['content']) ? (result['content'] as ContentBlock[]) : [] };
  }

  /** Starts listening to the View. */
  start(): this {
    if (this.started || this.closed) return this;
    this.started = true;
    this.transport.onmessage = (message) => this.receive(message);
    this.transport.onclose = () => this.close();
    return this;
  }

  /** The current full host context. */
  get hostContext(): McpUiHostContext {
    return this.context;
  }

  /** Merges into the host context; once initialized, sends the changed keys as `host-context-changed`. */
  setHostContext(patch: Partial<McpUiHostContext>): void {
    const next = { ...this.context, ...patch };
    const diff = diffHostContext(this.context, next);
    this.context = next;
    if (diff && this.initialized && !this.closed) this.notify('ui/notifications/host-context-changed', diff);
  }

  /** The complete tool arguments (sent once, after `initialized`). */
  sendToolInput(args: Params | undefined): void {
    if (this.inputSent || this.input) return;
    this.input = isRecord(args) ? args : {};
    this.flush();
  }

  /** Streaming arguments; only the latest is kept and none are sent after the complete input. */
  sendToolInputPartial(args: Params): void {
    if (this.inputSent || this.input || !isRecord(args)) return;
    this.partial = args;
    if (this.initialized) {
      this.notify('ui/notifications/tool-input-partial', { arguments: args });
      this.partial = undefined;
    }
  }

  /** The tool result (buffered until the View is initialized and has its input). */
  sendToolResult(result: CallToolResult): void {
    if (this.final) return;
    this.final = { method: 'ui/notifications/tool-result', params: result as Params };
    this.flush();
  }

  /** The tool call was cancelled (by the user, an error or the host). */
  sendToolCancelled(reason?: string): void {
    if (this.final) return;
    this.final = { method: 'ui/notifications/tool-cancelled', params: reason ? { reason } : {} };
    this.flush();
  }

  /**
   * Sends `ui/resource-teardown` and waits (bounded) for the answer; resolves true when the View
   * answered. Then closes the bridge.
   */
  async teardown(reason = 'host'): Promise<boolean> {
    if (this.closed) return false;
    const timeout = this.wiring.teardownTimeoutMs ?? 500;
    let answered = false;
    try {
      await Promise.race([
        this.request('ui/resource-teardown', { reason }).then(() => (answered = true)),
        new Promise((resolve) => setTimeout(resolve, timeout)),
      ]);
    } catch {
      answered = true;
    }
    this.close();
    return answered;
  }

  /** Stops listening (closes the transport) and forgets everything pending. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.transport.close();
    for (const off of this.unsubscribers) off();
    this.unsubscribers = [];
    // Pending host→View requests reject and View requests in flight abort, with -32603 'The App was closed'.
    this.rpc.close();
  }

  /** Sends a host→View request (e.g. `ping`); rejects with the View's error, or after `timeoutMs` when given. */
  request(method: string, params: Params = {}, options: { timeoutMs?: number } = {}): Promise<Params> {
    return this.rpc.request(method, params, options).then((result) => (isRecord(result) ? result : {}));
  }

  private notify(method: string, params: Params): void {
    if (!this.closed) this.rpc.notify(method, params);
  }

  private flush(): void {
    if (!this.initialized || this.closed) return;
    if (!this.inputSent && (this.input || this.final)) {
      this.inputSent = true;
      this.partial = undefined;
      this.notify('ui/notifications/tool-input', { arguments: this.input ?? {} });
    }
    if (!this.inputSent && this.partial) {
      this.notify('ui/notifications/tool-input-partial', { arguments: this.partial });
      this.partial = undefined;
    }
    if (this.inputSent && this.final && !this.finalSent) {
      this.finalSent = true;
      this.notify(this.final.method, this.final.params);
    }
  }

  /** Refuses traffic over the limits: a request gets an error (while the error budget lasts), the rest is dropped. */
  private refuse(message: Params, why: string): void {
    this.dropped++;
    const id = message['id'];
    if (typeof message['method'] === 'string' && isId(id) && this.errorBucket.take()) {
      this.transport.send({ jsonrpc: '2.0', id, error: { code: LIMIT_ERROR_CODE, message: why } });
    }
    if (this.dropped === 1 || this.dropped % 1000 === 0) this.wiring.handlers?.warn?.(`${why} (${this.dropped} refused so far)`);
    if (this.dropped === FLOOD_STOP) this.wiring.handlers?.flooding?.();
  }

  private receive(message: unknown): void {
    if (this.closed || !isRecord(message) || message['jsonrpc'] !== '2.0') return;
    if (!this.bucket.take()) return this.refuse(message, 'Too many messages from this App; slow down');
    const size = boundedSize(message, this.limits.maxMessageBytes);
    if (size > this.limits.maxMessageBytes) return this.refuse(message, `Message too large (limit ${this.limits.maxMessageBytes} bytes)`);
    this.rpc.receive(message);
  }

  /** One View request; a cancelled one (or one whose id a newer request reused) is not answered (MCP cancellation). */
  private serve(method: string, params: Params, { id, signal }: IncomingRequest): Promise<Params> {
    if (id !== null) this.rpc.cancelIncoming(id, new RpcError(-32600, 'A newer request reused this id'));
    return this.onRequest(method, params, signal).catch((error: unknown) => {
      if (!signal.aborted && !this.closed) this.wiring.handlers?.warn?.(`${method}: ${errorText(error)}`);
      throw error;
    });
  }

  private onNotification(method: string, params: Params): void {
    const h = this.wiring.handlers;
    switch (method) {
      case 'ui/notifications/initialized':
        if (this.initialized) return;
        this.initialized = true;
        this.forwardServerNotifications();
        h?.initialized?.();
        this.flush();
        return;
      case 'ui/notifications/size-changed': {
        const size: { width?: number; height?: number } = {};
        for (const k of ['width', 'height'] as const) {
          const v = params[k];
          if (typeof v === 'number' && Number.isFinite(v) && v >= 0) size[k] = v;
        }
        h?.sizeChanged?.(size);
        return;
      }
      case 'ui/notifications/request-teardown':
        h?.requestTeardown?.();
        return;
      case 'notifications/cancelled': {
        const requestId = params['requestId'];
        if (isId(requestId)) this.rpc.cancelIncoming(requestId, new RpcError(-32800, 'Cancelled by the App'));
        return;
      }
      case 'notifications/tools/list_changed':
        if (this.hasViewTools) h?.viewToolsChanged?.();
        return;
      case SANDBOX_METHODS.escape:
        h?.escape?.();
        return;
      case SANDBOX_METHODS.viewError:
        if (typeof params['message'] === 'string') h?.viewError?.(params['message'].slice(0, 500));
        return;
      case 'notifications/message':
        h?.log?.(params);
        if (this.serves('notifications/message')) {
          try {
            this.wiring.channel?.notify('notifications/message', params);
          } catch {
            // The channel went away; logging is best effort.
          }
        }
        return;
      default:
        h?.warn?.(`ignored notification ${method}`);
    }
  }

  private serves(method: string): boolean {
    return !!this.wiring.channel && allowedMcpMethods(this.wiring.capabilities).has(method);
  }

  private hostCapabilities(): McpUiHostCapabilities {
    const caps: McpUiHostCapabilities = {};
    const server = this.wiring.capabilities;
    if (this.wiring.channel && isRecord(server)) {
      for (const key of ['serverTools', 'serverResources', 'logging', 'sampling'] as const) {
        const value = server[key];
        if (isRecord(value)) (caps as Params)[key] = { ...value };
      }
    }
    const h = this.wiring.handlers ?? {};
    if (h.openLink) caps.openLinks = {};
    if (h.downloadFile) caps.downloadFile = {};
    if (h.message) caps.message = { text: {} };
    if (h.updateModelContext) caps.updateModelContext = { text: {}, structuredContent: {} };
    const sandbox = this.wiring.sandbox ?? {};
    // What was applied: the declared domains kept after sanitizing ({} when none) and the permissions granted.
    caps.sandbox = {
      csp: sandbox.csp ?? {},
      ...(sandbox.permissions && { permissions: sandbox.permissions }),
    };
    caps.experimental = this.wiring.sandboxPolicy ? { [SANDBOX_POLICY_CAPABILITY]: { policy: this.wiring.sandboxPolicy } } : {};
    return caps;
  }

  private async onRequest(method: string, params: Params, signal: AbortSignal): Promise<Params> {
    const h = this.wiring.handlers ?? {};
    switch (method) {
      case 'ui/initialize': {
        // Tolerated more than once (a View that reconnects): answered the same way each time.
        if (!isRecord(params['appInfo']) || typeof params['protocolVersion'] !== 'string') {
          throw new RpcError(-32602, 'ui/initialize needs appInfo and protocolVersion');
        }
        this.appInfo = params['appInfo'] as { name?: string; version?: string };
        this.appCapabilities = isRecord(params['appCapabilities']) ? (params['appCapabilities'] as McpUiAppCapabilities) : {};
        return {
          protocolVersion: MCP_APPS_PROTOCOL_VERSION,
          hostInfo: this.wiring.hostInfo ?? { name: 'ahp-elements', version: '0' },
          hostCapabilities: this.hostCapabilities(),
          hostContext: this.context,
        };
      }
      case 'ping':
        return {};
      case 'ui/open-link': {
        const url = params['url'];
        if (typeof url !== 'string') throw new RpcError(-32602, 'ui/open-link needs a url');
        if (!h.openLink) throw notFound(method);
        return (await h.openLink(url)) ? {} : { isError: true };
      }
      case 'ui/message': {
        if (!h.message) throw notFound(method);
        const content = Array.isArray(params['content']) ? params['content'] : isRecord(params['content']) ? [params['content']] : undefined;
        if (!content || !content.every(isRecord)) throw new RpcError(-32602, 'ui/message needs content blocks');
        const role = typeof params['role'] === 'string' ? params['role'] : 'user';
        return (await h.message({ role, content: content as ContentBlock[] })) ? {} : { isError: true };
      }
      case 'ui/update-model-context': {
        const next: { content?: ContentBlock[]; structuredContent?: Params } = {};
        if (Array.isArray(params['content'])) next.content = params['content'].filter(isRecord) as ContentBlock[];
        if (isRecord(params['structuredContent'])) next.structuredContent = params['structuredContent'];
        // It rides on the App's next message: refused now if JSON cannot carry it (a bigint, nesting past the stack).
        try {
          JSON.stringify(next);
        } catch {
          throw new RpcError(-32602, 'ui/update-model-context needs JSON content');
        }
        this.modelContext = next;
        h.updateModelContext?.(next);
        return {};
      }
      case 'ui/request-display-mode': {
        const mode = params['mode'];
        const current = this.context.displayMode ?? 'inline';
        if (typeof mode !== 'string' || !DISPLAY_MODES.includes(mode as McpUiDisplayMode)) {
          throw new RpcError(-32602, `Unknown display mode ${String(mode)}`);
        }
        const appModes = this.appCapabilities?.availableDisplayModes;
        const hostModes = this.context.availableDisplayModes ?? ['inline'];
        const allowed = hostModes.includes(mode as McpUiDisplayMode) && (!Array.isArray(appModes) || appModes.includes(mode as McpUiDisplayMode));
        if (!allowed || !h.requestDisplayMode) return { mode: current };
        const inForce = await h.requestDisplayMode(mode as McpUiDisplayMode);
        this.setHostContext({ displayMode: inForce });
        return { mode: inForce };
      }
      case 'ui/download-file': {
        if (!h.downloadFile) throw notFound(method);
        const contents = Array.isArray(params['contents']) ? params['contents'].filter(isRecord) : [];
        if (!contents.length) throw new RpcError(-32602, 'ui/download-file needs contents');
        const files = contents.map((item) => {
          const resource = isRecord(item['resource']) ? item['resource'] : item;
          const name = resource['name'] ?? resource['uri'];
          return { fileName: sanitizeFileName(typeof resource['uri'] === 'string' ? resource['uri'] : name), item: item as ContentBlock };
        });
        return (await h.downloadFile({ contents: files })) ? {} : { isError: true };
      }
      case 'tools/call':
        return this.callTool(params, signal);
      default:
        if (method.startsWith('ui/') || !this.serves(method)) {
          throw notFound(method);
        }
        return this.relay(method, params, signal);
    }
  }

  /** A View request to the server over `mcp://`: ends on the answer, the View's cancel, close, or the relay limit. */
  private relay(method: string, params: Params, signal: AbortSignal): Promise<Params> {
    return this.wiring.channel!.request<Params>(method, params, { signal, timeoutMs: this.wiring.relayTimeoutMs ?? 300_000 });
  }

  private async callTool(params: Params, signal: AbortSignal): Promise<Params> {
    const name = params['name'];
    if (typeof name !== 'string') throw new RpcError(-32602, 'tools/call needs a tool name');
    if (!this.serves('tools/call')) throw notFound('tools/call');
    const tools = await this.listTools();
    const tool = tools.get(name);
    if (!tool) throw new RpcError(-32602, `Unknown tool '${name}' on this server`);
    if (!isAppVisible(tool)) throw new RpcError(-32600, `Tool '${name}' is not visible to apps`);
    return this.relay('tools/call', params, signal);
  }

  /** All tools of the server (every page), cached until `notifications/tools/list_changed`. */
  private listTools(): Promise<Map<string, unknown>> {
    this.toolsCache ??= (async () => {
      const map = new Map<string, unknown>();
      let cursor: unknown;
      for (let page = 0; page < 20; page++) {
        const result = await this.wiring.channel!.request<Params>('tools/list', typeof cursor === 'string' ? { cursor } : {});
        for (const tool of Array.isArray(result?.['tools']) ? result['tools'] : []) {
          if (isRecord(tool) && typeof tool['name'] === 'string') map.set(tool['name'], tool);
        }
        cursor = result?.['nextCursor'];
        if (typeof cursor !== 'string') break;
      }
      return map;
    })();
    this.toolsCache.catch(() => (this.toolsCache = undefined));
    return this.toolsCache;
  }

  private forwardServerNotifications(): void {
    const channel = this.wiring.channel;
    const caps = this.wiring.capabilities;
    if (!channel) return;
    const forward = (method: string, enabled: unknown) => {
      if (!isRecord(enabled) || enabled['listChanged'] !== true) return;
      this.unsubscribers.push(
        channel.onNotification(method, (params) => {
          if (method === 'notifications/tools/list_changed') this.toolsCache = undefined;
          this.notify(method, params);
        }),
      );
    };
    forward('notifications/tools/list_changed', caps?.serverTools);
    forward('notifications/resources/list_changed', caps?.serverResources);
  }
}

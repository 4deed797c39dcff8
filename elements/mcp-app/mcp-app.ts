import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { ContextConsumer } from '@lit/context';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import type { AhpMcpUiHostCapabilities } from '../../src/protocol/customizations.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import { selectMcpServer } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import { AppBridgeHost, type DownloadRequest } from '../../src/apps/bridge.js';
import { normalizeCsp, sandboxPolicyOf, type SandboxPolicy } from '../../src/apps/csp.js';
import type { AppTrafficLimits } from '../../src/apps/limits.js';
import { buildStyleVariables } from '../../src/apps/host-context.js';
import { buildAllowAttribute, normalizePermissions } from '../../src/apps/permissions.js';
import { readUiResource } from '../../src/apps/resource.js';
import { callToolResultOf, cancelReasonOf, repairPartialJson, resourceUriOf, toolArgumentsOf } from '../../src/apps/tool-call.js';
import { windowTransport } from '../../src/apps/transport.js';
import { APP_MESSAGE_META_KEY, type CallToolResult, type ContentBlock, type McpUiDisplayMode } from '../../src/apps/types.js';
import { DEV, addDevChecks, warnSameOriginSandbox } from '../shared/dev-warnings.js';
import { handleContext } from '../shared/store-context.js';
import { StoreConsumer } from '../shared/store-consumer.js';
import { ColorSchemeController } from '../shared/color-scheme-controller.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { VERSION } from '../shared/version.js';
import {
  AhpAppDisplayModeEvent,
  AhpAppDownloadEvent,
  AhpAppModelContextEvent,
  AhpAppOpenLinkEvent,
  AhpAppToolsChangedEvent,
} from './events.js';
import { messageIntent } from './intents.js';
import { mcpAppStyles } from './mcp-app.styles.js';
import { InteractionTracker, decisionFor, type AppIntentKind, type AppIntentPolicy } from './intent-gate.js';
import { mcpAppStrings, type McpAppStrings } from './strings.js';
import { LocaleController } from '../shared/i18n.js';
import { errorText } from '../../src/protocol/guards.js';

type Phase = 'idle' | 'loading' | 'ready' | 'error' | 'closed';
const READY = 'ui/notifications/sandbox-proxy-ready';
const DISPLAY_MODES: McpUiDisplayMode[] = ['inline', 'fullscreen', 'pip'];
/** Size reports this close to the applied height are echoes of our own change (no resize loops). */
const SIZE_SLACK_PX = 2;
const MAX_INLINE_HEIGHT = 6000;

/**
 * An MCP App View: reads the tool call's `ui://` resource over the server's `mcp://` channel and
 * renders it in the sandbox proxy on another origin, bridging the MCP Apps protocol.
 *
 * @summary Renders an MCP App (the UI of an MCP tool call) in a sandbox.
 * @tag ahp-mcp-app
 * @csspart frame - The container of the sandbox iframe.
 * @csspart exit - The host-owned button that leaves fullscreen or picture-in-picture.
 * @csspart status - Loading and error text.
 * @csspart prompt - The host-owned question when a View asks for a side effect without a recent user interaction.
 * @csspart prompt-confirm - The prompt's button that lets the request through.
 * @csspart prompt-dismiss - The prompt's button that refuses it.
 * @cssprop [--ahp-mcp-app-default-height=320px] - Frame height until the View reports its size.
 * @cssstate loading, ready, error, closed - Lifecycle of the View.
 * @cssstate inline, fullscreen, pip - Display mode in force.
 * @fires {AhpAppOpenLinkEvent} ahp-app-open-link - The View asks to open a link; cancelable (default: http/https in a new tab, noopener).
 * @fires {AhpAppMessageEvent} ahp-app-message - The View sends a message; cancelable (default: a user turn in the tool call's chat).
 * @fires {AhpAppModelContextEvent} ahp-app-model-context - The View replaced its model context.
 * @fires {AhpAppDownloadEvent} ahp-app-download - The View asks to download files; cancelable (default: save them).
 * @fires {AhpAppDisplayModeEvent} ahp-app-display-mode - The display mode is about to change; cancelable.
 * @fires {AhpAppToolsChangedEvent} ahp-app-tools-changed - The View's own tools changed (list them again with `listViewTools()`).
 */
export class AhpMcpApp extends LitElement {
  static override styles = mcpAppStyles;
  static override properties = {
    chat: {},
    toolCallId: { attribute: 'tool-call-id' },
    serverId: { attribute: 'server-id' },
    resourceUri: { attribute: 'resource-uri' },
    sandboxUrl: { attribute: 'sandbox-url' },
    displayMode: { attribute: 'display-mode', reflect: true },
    toolInput: { attribute: false },
    toolResult: { attribute: false },
    store: { attribute: false },
    handle: { attribute: false },
    channel: { attribute: false },
    capabilities: { attribute: false },
    sandboxPolicy: { attribute: 'sandbox-policy' },
    intentPolicy: { attribute: false },
    phase: { state: true },
    prompt: { state: true },
    errorText: { state: true },
  };

  /** Chat channel URI of the tool call. */
  declare chat: string | null | undefined;
  /** Id of the tool call whose App to show (reads server, `ui://` URI, input, result and status from the store). */
  declare toolCallId: string | null | undefined;
  /** MCP server customization id (explicit mode, or to override the tool call's contributor). */
  declare serverId: string | null | undefined;
  /** The `ui://` resource (explicit mode). */
  declare resourceUri: string | null | undefined;
  /** URL of the sandbox proxy page; must be on another origin than this page. */
  declare sandboxUrl: string | null | undefined;
  /** Display mode in force (`inline`, `fullscreen`, `pip`). */
  declare displayMode: McpUiDisplayMode;
  /** Tool arguments (explicit mode). */
  declare toolInput: Record<string, unknown> | undefined;
  /** Tool result (explicit mode). */
  declare toolResult: CallToolResult | undefined;
  /** Store to read from; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare store: SessionStoreLike | undefined;
  /** Session handle that opens the server's `mcp://` channel; when unset, the one provided by an ancestor `<ahp-session>`. */
  declare handle: SessionHandle | undefined;
  /** The server's `mcp://` channel; when unset, `handle.mcpChannel(serverId)`. */
  declare channel: McpChannel | undefined;
  /** The server's `mcpApp.capabilities`; when unset, read from the store. */
  declare capabilities: AhpMcpUiHostCapabilities | undefined;
  /**
   * Sandbox CSP policy: `compat` (what published Apps need: eval, blob:/data: scripts, blob: workers) or
   * `strict` (the spec's minimum). When unset, `AhpMcpApp.sandboxPolicy`. The sandbox server must honour
   * the URL's `policy` parameter (`sandboxResponseHeadersForUrl` does).
   */
  declare sandboxPolicy: SandboxPolicy | null | undefined;
  /**
   * What to do when the View asks to send a message, open a link, download or leave inline mode, per kind:
   * `ask` (default: directly right after the user interacted with this App, else a prompt in the element's
   * box), `allow` (always directly) or `deny`. When unset, `AhpMcpApp.intentPolicy`.
   */
  declare intentPolicy: AppIntentPolicy | undefined;
  declare protected prompt: { kind: AppIntentKind; text: string; answer: (ok: boolean) => void } | undefined;
  declare protected phase: Phase;
  declare protected errorText: string;

  /**
   * Page-wide sandbox URL resolver, used when `sandbox-url` is not set: e.g. one origin per MCP server,
   * or the resource's `_meta.ui.domain`. Return undefined to refuse.
   */
  static sandboxUrlFor: ((app: { serverId: string; resourceUri: string; domain?: string | undefined }) => string | undefined) | undefined;

  /** Page-wide sandbox policy when `sandbox-policy` is not set (default `compat`). */
  static sandboxPolicy: SandboxPolicy = 'compat';
  /** Longest a View request relayed to its server may run, in ms (default 300 000; also ends on the View's cancel or teardown). */
  static relayTimeoutMs = 300_000;
  /** How long a View may take to send `ui/notifications/initialized` before its start counts as failed (ms). */
  static startTimeoutMs = 30_000;
  /** Rate and size limits on each View's traffic (see `AppTrafficLimits`). */
  static trafficLimits: AppTrafficLimits = {};
  /** Page-wide intent policy when `intentPolicy` is not set (every kind `ask` by default). */
  static intentPolicy: AppIntentPolicy = {};

  /** The live bridge to the View (undefined until the sandbox is ready). */
  bridge: AppBridgeHost | undefined;
  /** The latest model context the View set (attached to the next message this element sends). */
  modelContext: unknown;

  private readonly internals = tryAttachInternals(this);
  private readonly locale = new LocaleController(this);
  /** This element's strings, in its language. */
  private get t(): McpAppStrings {
    return mcpAppStrings(this.locale);
  }
  private readonly stores = new StoreConsumer(this, () => this.store);
  private readonly handleConsumer = new ContextConsumer(this, { context: handleContext, subscribe: true });
  private iframe: HTMLIFrameElement | undefined;
  private toolCall: ToolCallState | undefined;
  private releaseChat: (() => void) | undefined;
  private unsubscribeToolCall: (() => void) | undefined;
  private watching = '';
  private mountKey = '';
  private generation = 0;
  private appliedHeight = 0;
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  private viewErrors: string[] = [];
  private readonly interaction = new InteractionTracker();
  private stopFrameWatch: (() => void) | undefined;
  private resizeObserver: ResizeObserver | undefined;
  /** The error is only that the page configured no sandbox (shown muted). */
  private noSandbox = false;
  private readonly scheme = new ColorSchemeController(this, () => this.bridge?.setHostContext(this.themeContext()));

  constructor() {
    super();
    this.displayMode = 'inline';
    this.phase = 'idle';
    this.errorText = '';
  }

  /** The store in use. */
  get currentStore(): SessionStoreLike | undefined {
    return this.stores.value;
  }

  /** The session handle in use. */
  get currentHandle(): SessionHandle | undefined {
    return this.handle ?? this.handleConsumer.value;
  }

  /** Keeps the View alive when moved with `moveBefore()`. */
  connectedMoveCallback(): void {}

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unwatch();
    this.unmount('removed');
  }

  /**
   * Sends `ui/resource-teardown`, waits (bounded) for the View, then removes it. Call before removing the
   * element to give the View its goodbye; removal alone tears down without waiting (its frame is gone).
   * Resolves true when the View answered.
   */
  async teardown(reason = 'host'): Promise<boolean> {
    const bridge = this.bridge;
    const key = this.mountKey;
    const answered = bridge ? await bridge.teardown(reason) : false;
    this.unmount(reason);
    // Stays closed until what it shows changes (a new tool call, server or resource).
    this.mountKey = key;
    this.phase = 'closed';
    return answered;
  }

  /** Leaves fullscreen or picture-in-picture (host-owned exit); focus returns to the App. */
  exitDisplayMode(): void {
    if (this.applyDisplayMode('inline') === 'inline') this.iframe?.focus();
  }

  /** The tools the View itself provides (`tools/list` to the View). Rejects when the View is not running or declared none. */
  async listViewTools(): Promise<Record<string, unknown>[]> {
    if (!this.bridge?.initialized) throw new Error('The App is not running');
    return this.bridge.listViewTools({ timeoutMs: 30_000 });
  }

  /** Calls a tool the View provides (`tools/call` to the View); resolves with its `CallToolResult`. */
  async callViewTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    if (!this.bridge?.initialized) throw new Error('The App is not running');
    return this.bridge.callViewTool(name, args, { timeoutMs: AhpMcpApp.relayTimeoutMs });
  }

  protected override updated(changed: PropertyValues<this>): void {
    setCustomStates(this.internals, [this.phase, this.displayMode]);
    const internal = ['phase', 'errorText', 'displayMode', 'prompt'];
    if (changed.size && [...changed.keys()].every((k) => internal.includes(String(k)))) return;
    this.sync();
    if (changed.has('toolInput') && this.toolInput) this.bridge?.sendToolInput(this.toolInput);
    if (changed.has('toolResult') && this.toolResult) this.bridge?.sendToolResult(this.toolResult);
  }

  protected override render() {
    const exit =
      this.displayMode !== 'inline'
        ? html`<button type="button" part="exit" class="exit" @click=${() => this.exitDisplayMode()}>${this.t.exit(this.displayMode)}</button>`
        : nothing;
    const status =
      this.phase === 'error' && this.noSandbox
        ? html`<p part="status" class="status" data-kind="no-sandbox">${this.errorText}</p>`
        : this.phase === 'error' || ((this.phase === 'loading' || this.phase === 'idle') && this.errorText)
          ? html`<p part="status" class="status" data-kind="error" role="alert">${this.errorText}</p>`
          : this.phase === 'loading' || this.phase === 'idle'
            ? html`<p part="status" class="status" data-kind="loading">${this.t.loading}</p>`
            : nothing;
    const p = this.prompt;
    const server = this.serverName();
    const prompt = p
      ? html`<div part="prompt" class="prompt" role="group" aria-label=${this.t.promptLabel(server)}>
          <p class="prompt-text" role="alert">${promptText(this.t, p.kind, server, p.text)}</p>
          <button type="button" part="prompt-confirm" @click=${() => this.answerPrompt(true)}>${this.t.confirm[p.kind]}</button>
          <button type="button" part="prompt-dismiss" @click=${() => this.answerPrompt(false)}>${this.t.dismiss}</button>
        </div>`
      : nothing;
    // The iframe lives in .viewport, which has no bindings: Lit never clears or moves it.
    return html`${status}${prompt}<div part="frame" class="frame" @keydown=${this.onFrameKey}>${exit}<div class="viewport"></div></div>`;
  }

  /** Escape leaves fullscreen and picture-in-picture (from the host-owned controls; the proxy forwards it from the View). */
  private readonly onFrameKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this.displayMode !== 'inline') {
      event.preventDefault();
      this.exitDisplayMode();
    }
  };

  private answerPrompt(ok: boolean): void {
    const p = this.prompt;
    // The prompt's buttons go away with it: focus returns to the App rather than falling to the page.
    const hadFocus = !!p && !!(this.renderRoot as ShadowRoot).activeElement?.closest('[part~="prompt"]');
    this.prompt = undefined;
    p?.answer(ok);
    if (hadFocus) void this.updateComplete.then(() => this.iframe?.focus());
  }

  /**
   * Whether the View's `kind` of side effect may happen: `deny` never, `allow` always; `ask` directly right after
   * the user interacted with this App's frame (each interaction pays for one of each kind), else only when the
   * user says so in the host-owned prompt. One prompt at a time: requests while one is open are refused.
   */
  private gate(kind: AppIntentKind, text: string): boolean | Promise<boolean> {
    const decision = decisionFor(this.intentPolicy ?? AhpMcpApp.intentPolicy, kind);
    if (decision !== 'ask') return decision === 'allow';
    if (this.interaction.fresh(kind)) {
      this.interaction.spend(kind);
      return true;
    }
    if (this.prompt || !this.bridge) return false;
    return new Promise<boolean>((answer) => {
      this.prompt = { kind, text: text.length > 300 ? `${text.slice(0, 300)}…` : text, answer };
    });
  }

  /** The server's name as the session shows it (host-known, unlike the View's own appInfo). */
  private serverName(): string {
    const id = this.resolvedServerId();
    return (id && selectMcpServer(this.currentStore?.getState(), id)?.server.name) || id || 'An MCP App';
  }

  private themeContext() {
    const theme = this.scheme.prefersDark ? ('dark' as const) : ('light' as const);
    return { theme, styles: { variables: buildStyleVariables() } };
  }

  /** Follows the tool call in the store and (re)mounts when what to show changes. */
  private sync(): void {
    const store = this.currentStore;
    const watchKey = store && this.chat && this.toolCallId ? `${this.chat}\n${this.toolCallId}` : '';
    if (watchKey !== this.watching) {
      this.unwatch();
      this.watching = watchKey;
      if (store && this.chat && this.toolCallId) {
        const chat = this.chat;
        this.releaseChat = store.watchChat(chat);
        this.unsubscribeToolCall = store.subscribeToolCall(chat, this.toolCallId, (tc) => this.onToolCall(tc));
        this.toolCall = findToolCall(store, chat, this.toolCallId);
      }
    }
    const serverId = this.resolvedServerId();
    const uri = this.resourceUri || resourceUriOf(this.toolCall);
    const key = serverId && uri ? JSON.stringify([serverId, uri, this.sandboxUrl ?? null, !!this.resolveChannel(serverId)]) : '';
    if (key === this.mountKey) return;
    this.unmount('replaced');
    this.mountKey = key;
    // After this update (not inside it): mounting changes reactive state.
    if (key) queueMicrotask(() => void (this.mountKey === key && this.isConnected && this.mount(serverId!, uri!)));
  }

  private resolvedServerId(): string | undefined {
    if (this.serverId) return this.serverId;
    const contributor = this.toolCall?.contributor;
    return contributor?.kind === 'mcp' ? contributor.customizationId : undefined;
  }

  private resolveChannel(serverId: string): McpChannel | undefined {
    if (this.channel) return this.channel;
    const handle = this.currentHandle;
    return handle && handle.unavailable('mcpChannel') === undefined ? handle.mcpChannel(serverId) : undefined;
  }

  /** Why there is no channel to resolve, for the error text. */
  private noChannelReason(): string {
    const handle = this.currentHandle;
    return handle ? (handle.unavailable('mcpChannel') ?? 'unknown') : this.t.noHandle;
  }

  private unwatch(): void {
    this.unsubscribeToolCall?.();
    this.releaseChat?.();
    this.unsubscribeToolCall = this.releaseChat = undefined;
    this.watching = '';
  }

  private onToolCall(toolCall: ToolCallState | undefined): void {
    this.toolCall = toolCall;
    this.pushToolCall();
    this.requestUpdate();
  }

  /** Forwards the tool call's input, partial input, result or cancellation to the bridge (it gates and dedupes). */
  private pushToolCall(): void {
    const tc = this.toolCall;
    const bridge = this.bridge;
    if (!tc || !bridge) return;
    if (tc.status === 'streaming') {
      const partial = typeof tc.partialInput === 'string' ? repairPartialJson(tc.partialInput) : undefined;
      if (partial) bridge.sendToolInputPartial(partial);
      return;
    }
    if (tc.status !== 'cancelled') {
      const args = toolArgumentsOf(tc);
      if (args) bridge.sendToolInput(args);
    }
    const result = callToolResultOf(tc);
    if (result) bridge.sendToolResult(result);
    const reason = cancelReasonOf(tc);
    if (reason) bridge.sendToolCancelled(reason);
  }

  private fail(message: string, noSandbox = false): void {
    this.noSandbox = noSandbox;
    this.phase = 'error';
    this.errorText = message;
  }

  private async mount(serverId: string, uri: string): Promise<void> {
    const generation = ++this.generation;
    this.phase = 'loading';
    const checkSandbox = (url: string | undefined): URL | undefined => {
      // A page without Apps set up is not an error of this call: a quiet note, not red alert text.
      if (!url) return void this.fail(this.t.noSandbox, true);
      let sandbox: URL;
      try {
        sandbox = new URL(url, document.baseURI);
      } catch {
        return void this.fail(this.t.invalidSandbox(url));
      }
      if (sandbox.origin === location.origin || !/^https?:$/.test(sandbox.protocol)) {
        if (DEV && sandbox.origin === location.origin) warnSameOriginSandbox(this, sandbox.href);
        return void this.fail(this.t.sameOriginSandbox(location.origin));
      }
      return sandbox;
    };
    // An explicit sandbox-url is checked before anything is fetched.
    if (this.sandboxUrl && !checkSandbox(this.sandboxUrl)) return;
    const channel = this.resolveChannel(serverId);
    if (!channel) return this.fail(this.t.noChannel(serverId, this.noChannelReason()));
    let resource;
    try {
      resource = await readUiResource(channel, uri);
    } catch (error) {
      if (generation === this.generation) this.fail(this.t.loadFailed(uri, errorText(error)));
      return;
    }
    if (generation !== this.generation || !this.isConnected) return;
    const sandbox = checkSandbox(this.sandboxUrl || AhpMcpApp.sandboxUrlFor?.({ serverId, resourceUri: uri, domain: resource.meta.domain }));
    if (!sandbox) return;
    const csp = normalizeCsp(resource.meta.csp);
    const permissions = normalizePermissions(resource.meta.permissions);
    if (csp) sandbox.searchParams.set('csp', JSON.stringify(csp));
    sandbox.searchParams.set('parent', location.origin);
    const policy = sandboxPolicyOf(this.sandboxPolicy ?? AhpMcpApp.sandboxPolicy);
    if (policy !== 'compat') sandbox.searchParams.set('policy', policy);
    if (resource.meta.prefersBorder === true) this.setAttribute('data-border', '');

    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
    const allow = buildAllowAttribute(permissions);
    if (allow) frame.setAttribute('allow', allow);
    frame.title = this.frameTitle(serverId);
    // No inline height until the View reports one: the stylesheet's default keeps a View that never
    // reports (or fails before it can) visible, with its own error text.
    frame.src = sandbox.href;
    const target = sandbox.origin;
    const ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), 10000);
      const onMessage = (event: MessageEvent): void => {
        if (event.source === frame.contentWindow && event.origin === target && (event.data as { method?: unknown })?.method === READY) done(true);
      };
      const done = (ok: boolean): void => {
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
        resolve(ok);
      };
      window.addEventListener('message', onMessage);
    });
    // Anything showing the proxy is no longer the page we loaded ends the App at once.
    let loads = 0;
    let announced = false;
    const onLoad = (): void => {
      if (++loads > 1 && generation === this.generation) this.contain();
    };
    const onForeign = (event: MessageEvent): void => {
      if (event.source !== frame.contentWindow || generation !== this.generation) return;
      const again = (event.data as { method?: unknown })?.method === READY && announced;
      if (event.origin !== target || again) this.contain();
      else if ((event.data as { method?: unknown })?.method === READY) announced = true;
    };
    frame.addEventListener('load', onLoad);
    window.addEventListener('message', onForeign);
    const stopTracking = this.interaction.watch(frame);
    this.stopFrameWatch = () => {
      frame.removeEventListener('load', onLoad);
      window.removeEventListener('message', onForeign);
      stopTracking();
    };
    await this.updateComplete;
    if (generation !== this.generation) return;
    this.renderRoot.querySelector('.viewport')?.appendChild(frame);
    this.iframe = frame;
    if (!(await ready) || generation !== this.generation) {
      if (generation === this.generation) this.fail(this.t.noAnswer(String(target)));
      return;
    }
    const store = this.currentStore;
    const capabilities = this.capabilities ?? selectMcpServer(store?.getState(), serverId)?.server.mcpApp?.capabilities;
    const toolName = this.toolCall?.toolName;
    this.bridge = new AppBridgeHost({
      transport: windowTransport(frame.contentWindow!, target),
      channel,
      capabilities,
      hostInfo: { name: 'ahp-elements', version: VERSION },
      sandbox: { csp, permissions },
      sandboxPolicy: policy,
      relayTimeoutMs: AhpMcpApp.relayTimeoutMs,
      limits: AhpMcpApp.trafficLimits,
      hostContext: {
        ...this.themeContext(),
        displayMode: this.displayMode,
        availableDisplayModes: [...DISPLAY_MODES],
        containerDimensions: this.containerDimensions(),
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        userAgent: `ahp-elements/${VERSION}`,
        platform: 'web',
        deviceCapabilities: { touch: matchMedia('(pointer: coarse)').matches, hover: matchMedia('(hover: hover)').matches },
        ...(toolName && { toolInfo: { ...(this.toolCallId && { id: this.toolCallId }), tool: { name: toolName, inputSchema: { type: 'object' } } } }),
      },
      handlers: {
        openLink: (url) => this.onOpenLink(url),
        message: (m) => this.onMessage(m.content),
        viewToolsChanged: () => this.dispatchEvent(new AhpAppToolsChangedEvent({ serverId, resourceUri: uri })),
        flooding: () => this.contain(this.t.flooded),
        updateModelContext: (ctx) => {
          this.modelContext = ctx;
          this.dispatchEvent(new AhpAppModelContextEvent(ctx));
        },
        requestDisplayMode: async (mode) =>
          mode === 'inline' || mode === this.displayMode || (await this.gate('displayMode', mode)) ? this.applyDisplayMode(mode) : this.displayMode,
        escape: () => this.displayMode !== 'inline' && this.exitDisplayMode(),
        downloadFile: (request) => this.onDownload(request),
        sizeChanged: (size) => this.onSizeChanged(size),
        requestTeardown: () => void this.teardown('app'),
        initialized: () => {
          clearTimeout(this.startTimer);
          this.phase = 'ready';
          if (this.iframe) this.iframe.title = this.frameTitle(serverId);
        },
        viewError: (message) => this.onViewError(message),
        warn: (message) => {
          if (DEV && message.includes('refused so far')) console.warn(`[ahp-mcp-app] ${message}`);
        },
      },
    }).start();
    const startTimeout = AhpMcpApp.startTimeoutMs;
    this.startTimer = setTimeout(() => {
      if (generation === this.generation && !this.bridge?.initialized) {
        this.fail(this.t.notStarted(this.viewErrors.length ? this.viewErrors.join(' · ') : undefined, Math.round(startTimeout / 1000)));
      }
    }, startTimeout);
    this.resizeObserver = new ResizeObserver(() => this.bridge?.setHostContext({ containerDimensions: this.containerDimensions() }));
    this.resizeObserver.observe(this);
    frame.contentWindow!.postMessage(
      { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: resource.html, ...(csp && { csp }), ...(permissions && { permissions }) } },
      target,
    );
    this.pushToolCall();
    if (this.toolInput) this.bridge.sendToolInput(this.toolInput);
    if (this.toolResult) this.bridge.sendToolResult(this.toolResult);
  }

  /** `<App> (MCP App from <server>)` for the frame's accessible name: the View's appInfo name once known, and the server's name. */
  private frameTitle(serverId: string): string {
    const server = selectMcpServer(this.currentStore?.getState(), serverId)?.server.name ?? serverId;
    const app = this.bridge?.appInfo?.name || this.toolCall?.displayName;
    return this.t.frameTitle(typeof app === 'string' ? app.slice(0, 80) : undefined, server);
  }

  /**
   * The sandbox proxy is no longer ours (a second load of its frame, a message from another origin, a second
   * ready): stop at once, send the View nothing more (no teardown request), remove the frame, say why.
   */
  private contain(why: string = this.t.hijacked): void {
    const key = this.mountKey;
    this.bridge?.close();
    this.bridge = undefined;
    this.unmount('contained');
    this.mountKey = key;
    this.fail(why);
  }

  /** An error the sandbox proxy saw in the View's document: shown while the View has not started, logged after. */
  private onViewError(message: string): void {
    if (this.viewErrors.length < 5) this.viewErrors.push(message);
    if (this.phase === 'loading') this.errorText = message;
    if (DEV) console.warn(`[ahp-mcp-app] the View reported: ${message}`);
  }

  private unmount(reason: string): void {
    this.generation++;
    clearTimeout(this.startTimer);
    this.stopFrameWatch?.();
    this.stopFrameWatch = undefined;
    this.answerPrompt(false);
    this.viewErrors = [];
    this.errorText = '';
    if (this.bridge) {
      // The frame may already be detached; the request is best effort and the bridge closes at once.
      void this.bridge.teardown(reason).catch(() => {});
      this.bridge.close();
    }
    this.bridge = undefined;
    this.resizeObserver?.disconnect();
    this.resizeObserver = undefined;
    this.iframe?.remove();
    this.iframe = undefined;
    this.appliedHeight = 0;
    this.mountKey = '';
  }

  private containerDimensions() {
    if (this.displayMode === 'inline') return { width: Math.round(this.getBoundingClientRect().width), maxHeight: MAX_INLINE_HEIGHT };
    const rect = this.iframe?.getBoundingClientRect();
    return { width: Math.round(rect?.width ?? innerWidth), height: Math.round(rect?.height ?? innerHeight) };
  }

  private onSizeChanged(size: { width?: number; height?: number }): void {
    const frame = this.iframe;
    if (!frame || size.height === undefined) return;
    const height = Math.min(Math.ceil(size.height), MAX_INLINE_HEIGHT);
    if (Math.abs(height - this.appliedHeight) <= SIZE_SLACK_PX) return;
    this.appliedHeight = height;
    frame.style.height = `${height}px`;
  }

  private applyDisplayMode(mode: McpUiDisplayMode): McpUiDisplayMode {
    const previous = this.displayMode;
    if (mode === previous) return mode;
    if (!this.dispatchEvent(new AhpAppDisplayModeEvent({ mode, previous }))) return previous;
    this.displayMode = mode;
    this.setAttribute('display-mode', mode);
    this.bridge?.setHostContext({ displayMode: mode, containerDimensions: this.containerDimensions() });
    return mode;
  }

  /** Gated; then the page's event; then http(s) only, in a new window without opener or referrer. False when blocked. */
  private async onOpenLink(url: string): Promise<boolean> {
    if (!(await this.gate('openLink', url))) return false;
    if (!this.dispatchEvent(new AhpAppOpenLinkEvent(url))) return true;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    // With 'noopener' window.open always returns null; open blank, cut the opener, then navigate, so a blocked
    // popup is reported as a failure instead of a success.
    const win = window.open('', '_blank');
    if (!win) return false;
    try {
      win.opener = null;
      win.document.write('<meta name="referrer" content="no-referrer">');
      win.location.replace(parsed.href);
    } catch {
      win.close();
      return false;
    }
    return true;
  }

  /** Gated; then the page's event; then a user turn marked as coming from this App. */
  private async onMessage(content: ContentBlock[]): Promise<boolean> {
    const text = content
      .filter((c) => c.type === 'text' && typeof c['text'] === 'string')
      .map((c) => c['text'] as string)
      .join('\n');
    if (!(await this.gate('message', text))) return false;
    const from = { serverId: this.resolvedServerId(), server: this.serverName(), ...(this.toolCallId && { toolCallId: this.toolCallId }) };
    const [event, action] = messageIntent({ text, content, modelContext: this.modelContext }, from);
    if (!this.dispatchEvent(event)) return true;
    const store = this.currentStore;
    if (!store || !this.chat || !text) return false;
    store.dispatch(action, this.chat);
    this.modelContext = undefined;
    return true;
  }

  private async onDownload(request: DownloadRequest): Promise<boolean> {
    if (!(await this.gate('download', request.contents.map((c) => c.fileName).join(', ')))) return false;
    if (!this.dispatchEvent(new AhpAppDownloadEvent(request))) return true;
    for (const { fileName, item } of request.contents) {
      const resource = (item['resource'] ?? {}) as { text?: unknown; blob?: unknown; mimeType?: unknown };
      const type = typeof resource.mimeType === 'string' ? resource.mimeType : 'application/octet-stream';
      let blob: Blob | undefined;
      if (typeof resource.text === 'string') blob = new Blob([resource.text], { type });
      else if (typeof resource.blob === 'string') blob = new Blob([Uint8Array.from(atob(resource.blob), (c) => c.charCodeAt(0))], { type });
      if (!blob) continue;
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    }
    return true;
  }
}

function promptText(t: McpAppStrings, kind: AppIntentKind, server: string, text: string): string {
  switch (kind) {
    case 'message':
      return t.promptMessage(server, text);
    case 'openLink':
      return t.promptOpenLink(server, text);
    case 'download':
      return t.promptDownload(server, text);
    default:
      return t.promptDisplayMode(server, text);
  }
}

function findToolCall(store: SessionStoreLike, chat: string, id: string): ToolCallState | undefined {
  const state = store.getChatState(chat);
  const parts = [...(state?.turns ?? []).flatMap((t) => t.responseParts), ...(state?.activeTurn?.responseParts ?? [])];
  for (const part of parts) if (part.kind === 'toolCall' && part.toolCall.toolCallId === id) return part.toolCall;
  return undefined;
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-mcp-app': AhpMcpApp;
  }
}

// A `.channel` is enough to show an App without a store.
if (DEV) addDevChecks(AhpMcpApp, (el) => ({ store: () => el.currentStore ?? el.channel }));

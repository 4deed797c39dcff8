import { LitElement, html, nothing, type PropertyValues } from 'lit';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import type { AhpMcpUiHostCapabilities } from '../../src/protocol/customizations.js';
import { selectMcpServer } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import type { AppBridgeHost } from '../../src/apps/bridge.js';
import type { SandboxPolicy } from '../../src/apps/csp.js';
import type { AppTrafficLimits } from '../../src/apps/limits.js';
import { UiResourceCache } from '../../src/apps/resource-cache.js';
import { SandboxWarmer } from '../../src/apps/sandbox-warm.js';
import type { CallToolResult, McpUiDisplayMode } from '../../src/apps/types.js';
import { DEV, addDevChecks } from '../shared/dev-warnings.js';
import { StoreConsumer } from '../shared/store-consumer.js';
import { ColorSchemeController } from '../shared/color-scheme-controller.js';
import { setCustomStates, tryAttachInternals } from '../shared/custom-states.js';
import { SessionHandleController } from '../shared/session-handle-controller.js';
import { connectionNotice, connectionStates, connectionStyles } from '../shared/connection-notice.js';
import { LocaleController } from '../shared/i18n.js';
import { mcpAppStyles } from './mcp-app.styles.js';
import type { AppIntentPolicy } from './intent-gate.js';
import { IntentPromptController } from './prompt.js';
import { AppLifecycle, type AppPageSettings } from './app-lifecycle.js';
import { DisplayModeController } from './display-mode.js';
import { OffscreenController } from './offscreen.js';
import { viewRequestHandlers } from './view-requests.js';
import { warmAppServers } from './server-warmup.js';
import { watchAppServers, type AppServerWatch } from '../shared/app-servers.js';
import { initialHostContext, themeContext } from './host-context.js';

let sandboxUrlResolver: AppPageSettings['sandboxUrlFor'];
const watchServers: AppServerWatch = (store, handle) => warmAppServers(store, handle, AhpMcpApp);

/**
 * An MCP App View: reads the tool call's `ui://` resource over the server's `mcp://` channel and
 * renders it in the sandbox proxy on another origin, bridging the MCP Apps protocol.
 *
 * @summary Renders an MCP App (the UI of an MCP tool call) in a sandbox.
 * @tag ahp-mcp-app
 * @csspart frame - The container of the sandbox iframe.
 * @csspart exit - The host-owned button that leaves fullscreen or picture-in-picture.
 * @csspart status - Loading and error text.
 * @csspart connection - The connection banner while the session is not connected (unless `connectionNotice` is false).
 * @csspart prompt - The host-owned question when a View asks for a side effect without a recent user interaction.
 * @csspart prompt-confirm - The prompt's button that lets the request through.
 * @csspart prompt-dismiss - The prompt's button that refuses it.
 * @cssprop [--ahp-mcp-app-default-height=320px] - Frame height until the View reports its size.
 * @cssstate loading, ready, error, closed, suspended - Lifecycle of the View (`suspended`: far out of view, not started yet or stopped, see `AhpMcpApp.suspendMargin`).
 * @cssstate inline, fullscreen, pip - Display mode in force.
 * @cssstate connecting, reconnecting, disconnected - The session's connection while not open (a closed connection is `disconnected`; `closed` is the View's).
 * @fires {AhpAppOpenLinkEvent} ahp-app-open-link - The View asks to open a link; cancelable (default: http/https in a new tab, noopener).
 * @fires {AhpAppMessageEvent} ahp-app-message - The View sends a message; cancelable (default: a user turn in the tool call's chat).
 * @fires {AhpAppModelContextEvent} ahp-app-model-context - The View replaced its model context.
 * @fires {AhpAppDownloadEvent} ahp-app-download - The View asks to download files; cancelable (default: save them).
 * @fires {AhpAppDisplayModeEvent} ahp-app-display-mode - The display mode is about to change; cancelable.
 * @fires {AhpAppToolsChangedEvent} ahp-app-tools-changed - The View's own tools changed (list them again with `listViewTools()`).
 */
export class AhpMcpApp extends LitElement {
  static override styles = [mcpAppStyles, connectionStyles];
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
    connectionNotice: { attribute: false },
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
  /** Whether to show the connection banner while not connected (false when the embedding element shows its own). */
  declare connectionNotice: boolean;

  /**
   * Page-wide sandbox URL resolver, used when `sandbox-url` is not set: e.g. one origin per MCP server,
   * or the resource's `_meta.ui.domain`. Return undefined to refuse. With it, an `<ahp-session>`'s MCP server that is
   * ready and lists a `ui://` resource gets a sandbox proxy loaded out of sight for that View, so its first App starts
   * like a second one (at most one such proxy per sandbox origin; none for servers without a View).
   */
  static get sandboxUrlFor(): ((app: { serverId: string; resourceUri: string; domain?: string | undefined }) => string | undefined) | undefined {
    return sandboxUrlResolver;
  }
  static set sandboxUrlFor(resolver: ((app: { serverId: string; resourceUri: string; domain?: string | undefined }) => string | undefined) | undefined) {
    sandboxUrlResolver = resolver;
    // Servers that were ready before the page said where their Apps run are looked at again.
    watchAppServers(watchServers);
  }
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
  /**
   * How far out of view (a CSS margin around the viewport and scroll containers) an inline View may be before it is
   * suspended; it starts again when it comes within it. An App that is already that far when it would start waits,
   * suspended, until it comes near; one whose start failed because its sandbox or View answered too late is tried
   * again when it comes back near. `null` never suspends.
   */
  static suspendMargin: string | null = '300%';
  /** View resources, read once per server start and shared by every App of the page. */
  static readonly resources = new UiResourceCache();
  /** Spare sandbox proxies, loaded ahead so the next App on an origin skips the proxy's load. */
  static readonly warmer = new SandboxWarmer();

  /** The latest model context the View set (attached to the next message this element sends). */
  modelContext: unknown;

  private readonly internals = tryAttachInternals(this);
  private readonly locale = new LocaleController(this);
  private readonly stores = new StoreConsumer(this, () => this.store);
  private readonly scheme = new ColorSchemeController(this, () => this.bridge?.setHostContext(themeContext(this.scheme.prefersDark)));
  private readonly session = new SessionHandleController(this, () => this.handle);
  private readonly prompts = new IntentPromptController(this, () => this.intentPolicy ?? AhpMcpApp.intentPolicy, () => !!this.bridge, () => this.app.frame?.focus());
  private readonly display = new DisplayModeController(this, () => this.app.frame);
  private readonly offscreen = new OffscreenController(this, () => AhpMcpApp.suspendMargin, (far) => (far ? this.app.suspend() : this.app.resume()));
  private readonly app = new AppLifecycle(this, {
    page: () => AhpMcpApp,
    strings: () => this.locale,
    viewHandlers: (serverId, uri) =>
      viewRequestHandlers(
        this,
        { prompts: this.prompts, display: this.display, app: this.app, strings: () => this.locale, serverName: () => this.serverName(), offline: () => this.session.offlineReason(this.locale) },
        serverId,
        uri,
      ),
    startContext: (toolName) =>
      initialHostContext({ dark: this.scheme.prefersDark, displayMode: this.displayMode, containerDimensions: this.display.containerDimensions(), toolName, toolCallId: this.toolCallId }),
    watchFrame: (frame) => {
      const stops = [this.prompts.watch(frame), this.display.watchSize()];
      return () => stops.forEach((stop) => stop());
    },
    closePrompt: () => this.prompts.answer(false),
    farOutOfView: () => this.offscreen.farOutOfView(),
  });

  constructor() {
    super();
    this.displayMode = 'inline';
    this.connectionNotice = true;
  }

  /** The live bridge to the View (undefined until the sandbox is ready). */
  get bridge(): AppBridgeHost | undefined {
    return this.app.bridge;
  }
  /** The store in use. */
  get currentStore(): SessionStoreLike | undefined {
    return this.stores.value;
  }
  /** The session handle in use. */
  get currentHandle(): SessionHandle | undefined {
    return this.session.handle;
  }

  /** Keeps the View alive when moved with `moveBefore()`. */
  connectedMoveCallback(): void {}

  /**
   * Sends `ui/resource-teardown`, waits (bounded) for the View, then removes it. Call before removing the
   * element to give the View its goodbye; removal alone tears down without waiting (its frame is gone).
   * Resolves true when the View answered.
   */
  teardown(reason = 'host'): Promise<boolean> {
    return this.app.teardown(reason);
  }

  /** Leaves fullscreen or picture-in-picture (host-owned exit); focus returns to the App. */
  exitDisplayMode(): void {
    this.display.exit();
  }

  /** The tools the View itself provides (`tools/list` to the View). Rejects when the View is not running or declared none. */
  async listViewTools(): Promise<Record<string, unknown>[]> {
    return this.running().listViewTools({ timeoutMs: 30_000 });
  }

  /** Calls a tool the View provides (`tools/call` to the View); resolves with its `CallToolResult`. */
  async callViewTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return this.running().callViewTool(name, args, { timeoutMs: AhpMcpApp.relayTimeoutMs });
  }

  private running(): AppBridgeHost {
    if (!this.bridge?.initialized) throw new Error('The App is not running');
    return this.bridge;
  }

  protected override updated(changed: PropertyValues<this>): void {
    setCustomStates(this.internals, [this.app.phase, this.displayMode, ...connectionStates(this.session.connection).filter((s) => s !== 'closed')]);
    if (changed.size === 1 && changed.has('displayMode')) return;
    this.app.sync();
    if (changed.has('toolInput') && this.toolInput) this.bridge?.sendToolInput(this.toolInput);
    if (changed.has('toolResult') && this.toolResult) this.bridge?.sendToolResult(this.toolResult);
  }

  protected override render() {
    const t = this.locale;
    const notice = this.connectionNotice ? connectionNotice(this.session.connection, this.session.handle, this.locale) : nothing;
    // The iframe lives in .viewport, which has no bindings: Lit never clears or moves it.
    return html`${notice}${this.app.renderStatus(t)}${this.prompts.render(t, this.serverName())}<div part="frame" class="frame" @keydown=${this.display.onKey}>${this.display.renderExit(t)}<div class="viewport"></div></div>`;
  }

  private serverName(): string {
    const id = this.app.serverId();
    return (id && selectMcpServer(this.currentStore?.getState(), id)?.server.name) || id || 'An MCP App';
  }

  private applyDisplayMode(mode: McpUiDisplayMode): McpUiDisplayMode {
    return this.display.apply(mode);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'ahp-mcp-app': AhpMcpApp;
  }
}

watchAppServers(watchServers);

// A `.channel` is enough to show an App without a store.
if (DEV) addDevChecks(AhpMcpApp, (el) => ({ store: () => el.currentStore ?? el.channel }));

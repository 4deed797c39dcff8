import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { McpChannel } from '../../src/client/mcp-channel.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import type { AhpMcpUiHostCapabilities } from '../../src/protocol/customizations.js';
import { selectMcpServer } from '../../src/store/selectors.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import type { AppBridgeHost, AppBridgeHandlers } from '../../src/apps/bridge.js';
import { AppRun } from '../../src/apps/app-run.js';
import { sandboxPolicyOf, type SandboxPolicy } from '../../src/apps/csp.js';
import type { AppTrafficLimits } from '../../src/apps/limits.js';
import type { UiResourceCache } from '../../src/apps/resource-cache.js';
import type { SandboxWarmer } from '../../src/apps/sandbox-warm.js';
import { resourceUriOf } from '../../src/apps/tool-call.js';
import type { CallToolResult, McpUiHostContext } from '../../src/apps/types.js';
import { DEV, warnSameOriginSandbox } from '../shared/dev-warnings.js';
import { VERSION } from '../shared/version.js';
import { problemText, type McpAppStrings } from './strings.js';
import { ToolCallFollower, feedToolCall } from './tool-call-feed.js';

/** Lifecycle of the View as the element shows it. */
export type AppPhase = 'idle' | 'loading' | 'ready' | 'error' | 'closed' | 'suspended';

/** The page-wide settings (`AhpMcpApp`'s static fields). */
export interface AppPageSettings {
  sandboxUrlFor: ((app: { serverId: string; resourceUri: string; domain?: string | undefined }) => string | undefined) | undefined;
  sandboxPolicy: SandboxPolicy;
  relayTimeoutMs: number;
  startTimeoutMs: number;
  trafficLimits: AppTrafficLimits;
  resources: UiResourceCache;
  warmer: SandboxWarmer;
}

/** What the lifecycle reads from its element. */
export interface AppLifecycleHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  chat: string | null | undefined;
  toolCallId: string | null | undefined;
  serverId: string | null | undefined;
  resourceUri: string | null | undefined;
  sandboxUrl: string | null | undefined;
  sandboxPolicy: SandboxPolicy | null | undefined;
  channel: McpChannel | undefined;
  capabilities: AhpMcpUiHostCapabilities | undefined;
  toolInput: Record<string, unknown> | undefined;
  toolResult: CallToolResult | undefined;
  readonly currentStore: SessionStoreLike | undefined;
  readonly currentHandle: SessionHandle | undefined;
}

/** The parts the element decides. */
export interface AppLifecycleParts {
  /** The page-wide settings (`AhpMcpApp`'s static fields). */
  page(): AppPageSettings;
  strings(): McpAppStrings;
  /** The View's requests, routed by the element. */
  viewHandlers(serverId: string, uri: string): AppBridgeHandlers;
  /** The host context the View starts with. */
  startContext(toolName: string | undefined): McpUiHostContext;
  /** Starts watching a frame that is about to be placed (interactions, size); returns the stop function. */
  watchFrame(frame: HTMLIFrameElement): () => void;
  /** The App is going: a prompt still open for it is refused. */
  closePrompt(): void;
  /** Resolves with whether the element is far out of view (then the View waits, suspended, until `resume`). */
  farOutOfView(): Promise<boolean>;
}

/**
 * Follows the tool call in the store and keeps one `AppRun` for what the element shows: (re)starts it when the
 * server, resource, sandbox or channel change, ends it on removal, and turns its problems into the element's
 * phase and text.
 */
export class AppLifecycle implements ReactiveController {
  phase: AppPhase = 'idle';
  errorText = '';
  /** The error is only that the page configured no sandbox (shown muted). */
  declare noSandbox?: boolean;
  declare readonly toolCall: ToolCallFollower;
  declare private readonly host: AppLifecycleHost;
  declare private readonly parts: AppLifecycleParts;
  declare private run: AppRun | undefined;
  private mountKey = '';
  private generation = 0;
  declare private stopWatching: (() => void) | undefined;
  /** The start failed in a way a later try may not (the proxy or the View was too slow): tried again after being far. */
  declare private retryAfterFar?: boolean;

  constructor(host: AppLifecycleHost, parts: AppLifecycleParts) {
    this.host = host;
    this.parts = parts;
    this.toolCall = new ToolCallFollower(() => (feedToolCall(this.toolCall.toolCall, this.bridge), host.requestUpdate()));
    host.addController(this);
  }

  /** The live bridge to the View (undefined until the sandbox is ready). */
  get bridge(): AppBridgeHost | undefined {
    return this.run?.bridge;
  }

  /** The sandbox iframe, once there is one. */
  get frame(): HTMLIFrameElement | undefined {
    return this.run?.frame;
  }

  hostDisconnected(): void {
    this.toolCall.unfollow();
    this.unmount('removed');
  }

  /** Follows the tool call in the store and (re)mounts when what to show changes. */
  sync(): void {
    const host = this.host;
    this.toolCall.follow(host.currentStore, host.chat, host.toolCallId);
    const serverId = this.serverId();
    const uri = host.resourceUri || resourceUriOf(this.toolCall.toolCall);
    const key = serverId && uri ? JSON.stringify([serverId, uri, host.sandboxUrl ?? null, !!this.resolveChannel(serverId)]) : '';
    if (key === this.mountKey) return;
    this.unmount('replaced');
    this.mountKey = key;
    // After this update (not inside it): mounting changes reactive state.
    if (key) queueMicrotask(() => void this.start(key, serverId!, uri!));
  }

  /** Mounts the View, unless the element is far out of view: then it waits there, suspended, until `resume`. */
  private async start(key: string, serverId: string, uri: string): Promise<void> {
    const current = () => this.mountKey === key && this.host.isConnected;
    if (!current()) return;
    const far = await this.parts.farOutOfView();
    if (!current() || this.run) return;
    if (!far) return this.mount(serverId, uri);
    // Keep a place of the size it will likely take, so coming near does not shift the page much.
    this.viewport()?.style.setProperty('min-height', 'var(--ahp-mcp-app-default-height, 320px)');
    this.set('suspended');
  }

  /** The MCP server of the App: the element's `server-id`, else the tool call's contributor. */
  serverId(): string | undefined {
    if (this.host.serverId) return this.host.serverId;
    const contributor = this.toolCall.toolCall?.contributor;
    return contributor?.kind === 'mcp' ? contributor.customizationId : undefined;
  }

  /** Tears the View down with its goodbye; stays closed until what the element shows changes. */
  async teardown(reason: string): Promise<boolean> {
    const key = this.mountKey;
    const answered = (await this.run?.teardown(reason)) ?? false;
    this.unmount(reason);
    this.mountKey = key;
    this.set('closed');
    return answered;
  }

  /** The sandbox proxy is no longer ours, or the View floods: stop at once, send the View nothing more, say why. */
  contain(why: string): void {
    const key = this.mountKey;
    this.run?.contain();
    this.unmount('contained');
    this.mountKey = key;
    this.set('error', why);
  }

  /**
   * Far out of view: ends the running or starting View (its goodbye asked for, best effort) and keeps its place at
   * the height it had; what the View reported that the element keeps (model context, display mode) stays. `resume`
   * starts it again; so also an App whose start failed only because the proxy or the View answered too late.
   */
  suspend(): void {
    const frame = this.frame;
    const retry = this.phase === 'error' && this.retryAfterFar;
    if (!retry && ((this.phase !== 'ready' && this.phase !== 'loading') || !this.run || this.host.getAttribute('display-mode') !== 'inline')) return;
    const height = Math.round(frame?.getBoundingClientRect().height ?? 0);
    if (height > 0) this.viewport()?.style.setProperty('min-height', `${height}px`);
    this.park();
  }

  /** Ends the run and waits, suspended, for `resume`. */
  private park(): void {
    const key = this.mountKey;
    this.unmount('suspended');
    this.mountKey = key;
    this.set('suspended');
  }

  /** Back near the view: starts the suspended View again (its resource cached, its proxy warmed). */
  resume(): void {
    if (this.phase !== 'suspended') return;
    this.mountKey = '';
    this.sync();
  }

  /** `<App> (MCP App from <server>)` for the frame's accessible name: the View's appInfo name once known, and the server's name. */
  frameTitle(serverId: string): string {
    const server = selectMcpServer(this.host.currentStore?.getState(), serverId)?.server.name ?? serverId;
    const app = this.bridge?.appInfo?.name || this.toolCall.toolCall?.displayName;
    const t = this.parts.strings();
    return typeof app === 'string' && app ? t.t('app.frameTitleNamed', { app: app.slice(0, 80), server }) : t.t('app.frameTitle', { server });
  }

  /** Moves to a phase (with its text); `noSandbox` marks the quiet "no sandbox configured" note. */
  set(phase: AppPhase, errorText = this.errorText, noSandbox = false): void {
    this.phase = phase;
    this.errorText = errorText;
    this.noSandbox = noSandbox;
    this.host.requestUpdate();
  }

  private viewport(): HTMLElement | undefined {
    return this.host.renderRoot.querySelector<HTMLElement>('.viewport') ?? undefined;
  }

  private resolveChannel(serverId: string): McpChannel | undefined {
    if (this.host.channel) return this.host.channel;
    const handle = this.host.currentHandle;
    return handle && handle.unavailable('mcpChannel') === undefined ? handle.mcpChannel(serverId) : undefined;
  }

  private async mount(serverId: string, uri: string): Promise<void> {
    const generation = ++this.generation;
    const { host, parts } = this;
    this.retryAfterFar = false;
    const page = parts.page();
    this.set('loading');
    const state = host.currentStore?.getState();
    const policy = sandboxPolicyOf(host.sandboxPolicy ?? page.sandboxPolicy);
    const run = (this.run = new AppRun({
      channel: this.resolveChannel(serverId), uri, cache: page.resources, warmer: page.warmer, sandboxUrl: host.sandboxUrl,
      serverStart: selectMcpServer(state, serverId)?.server.state,
      sandboxUrlFor: (domain) => page.sandboxUrlFor?.({ serverId, resourceUri: uri, domain }),
      policy, sandboxPolicy: policy, relayTimeoutMs: page.relayTimeoutMs, limits: page.trafficLimits, startTimeoutMs: page.startTimeoutMs,
      capabilities: host.capabilities ?? selectMcpServer(state, serverId)?.server.mcpApp?.capabilities,
      hostInfo: { name: 'ahp-elements', version: VERSION },
      hostContext: parts.startContext(this.toolCall.toolCall?.toolName),
      handlers: this.withLifecycle(parts.viewHandlers(serverId, uri), serverId),
      resourceRead: (resource) => void (resource.meta.prefersBorder === true && host.setAttribute('data-border', '')),
      place: async (frame) => {
        frame.title = this.frameTitle(serverId);
        this.stopWatching?.();
        this.stopWatching = parts.watchFrame(frame);
        await host.updateComplete;
        return generation === this.generation ? (host.renderRoot.querySelector('.viewport') ?? undefined) : undefined;
      },
      onStale: () => void (this.run === run && (this.unmount('replaced'), this.sync())),
      onProblem: (problem) => {
        const t = this.parts.strings();
        if (problem.kind === 'hijacked') return this.contain(t.t('app.hijacked'));
        if (DEV && problem.kind === 'sandbox' && problem.problem === 'same-origin') warnSameOriginSandbox(host, new URL(problem.url!, document.baseURI).href);
        const handle = host.currentHandle;
        const noChannel = handle ? (handle.unavailable('mcpChannel') ?? 'unknown') : t.t('app.noHandle');
        this.retryAfterFar = problem.kind === 'noAnswer' || problem.kind === 'notStarted';
        this.set('error', problemText(t, problem, { uri, serverId, noChannel }), problem.kind === 'sandbox' && problem.problem === 'missing');
      },
    }));
    if (!(await run.start()) || this.run !== run) return;
    feedToolCall(this.toolCall.toolCall, run.bridge);
    if (host.toolInput) run.bridge!.sendToolInput(host.toolInput);
    if (host.toolResult) run.bridge!.sendToolResult(host.toolResult);
  }

  /** Loading and error text. */
  renderStatus(t: McpAppStrings) {
    const { phase, errorText } = this;
    const starting = phase === 'loading' || phase === 'idle';
    if (phase === 'error' && this.noSandbox) return html`<p part="status" class="status" data-kind="no-sandbox">${errorText}</p>`;
    if (phase === 'error' || (starting && errorText)) return html`<p part="status" class="status" data-kind="error" role="alert">${errorText}</p>`;
    return starting ? html`<p part="status" class="status" data-kind="loading">${t.t('app.loading')}</p>` : nothing;
  }

  /** The element's handlers plus the View's start: ready once initialized, its errors shown while it loads. */
  private withLifecycle(handlers: AppBridgeHandlers, serverId: string): AppBridgeHandlers {
    return {
      ...handlers,
      initialized: () => {
        this.set('ready');
        if (this.frame) this.frame.title = this.frameTitle(serverId);
      },
      sizeChanged: (size) => {
        // The place kept while suspended gives way to the size the View reports.
        this.viewport()?.style.removeProperty('min-height');
        handlers.sizeChanged?.(size);
      },
      viewError: (message) => {
        if (this.phase === 'loading') this.set('loading', message);
        if (DEV) console.warn(`[ahp-mcp-app] the View reported: ${message}`);
      },
    };
  }

  private unmount(reason: string): void {
    this.generation++;
    this.stopWatching?.();
    this.stopWatching = undefined;
    this.parts.closePrompt();
    if (this.errorText) this.host.requestUpdate();
    this.errorText = '';
    this.run?.close(reason);
    this.run = undefined;
    this.mountKey = '';
  }
}

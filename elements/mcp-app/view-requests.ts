import { BridgeError, type AppBridgeHandlers } from '../../src/apps/bridge.js';
import type { McpUiDisplayMode } from '../../src/apps/types.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { DEV } from '../shared/dev-warnings.js';
import type { AppLifecycle } from './app-lifecycle.js';
import { openLinkSafely, saveDownloads } from './default-actions.js';
import type { DisplayModeController } from './display-mode.js';
import { AhpAppDownloadEvent, AhpAppModelContextEvent, AhpAppOpenLinkEvent, AhpAppToolsChangedEvent } from './events.js';
import { appMessageText, messageIntent } from './intents.js';
import type { IntentPromptController } from './prompt.js';
import type { McpAppStrings } from './strings.js';

/** The element as the View's requests see it (its public side). */
export interface ViewRequestHost extends HTMLElement {
  displayMode: McpUiDisplayMode;
  modelContext: unknown;
  readonly chat: string | null | undefined;
  readonly toolCallId: string | null | undefined;
  readonly currentStore: SessionStoreLike | undefined;
  teardown(reason?: string): Promise<boolean>;
  exitDisplayMode(): void;
}

/** The element's parts the routing uses. */
export interface ViewRequestParts {
  prompts: IntentPromptController;
  display: DisplayModeController;
  app: AppLifecycle;
  strings(): McpAppStrings;
  serverName(): string;
  /** Why the session cannot take a message now (not connected), for the View; undefined while it can. */
  offline(): string | undefined;
}

/**
 * What the View asks of the host, routed: side effects through the intent gate, then the page's (cancelable) event,
 * then the default (open the link, save the files, a user turn in the chat); model context and tool changes as
 * events; display mode through the gate and the display controller; teardown and flooding to the lifecycle.
 */
export function viewRequestHandlers(el: ViewRequestHost, parts: ViewRequestParts, serverId: string, uri: string): AppBridgeHandlers {
  const { prompts, display, app } = parts;
  return {
    openLink: async (url) => (await prompts.gate('openLink', url)) && (!el.dispatchEvent(new AhpAppOpenLinkEvent(url)) || openLinkSafely(url)),
    message: async ({ content }) => {
      const text = appMessageText(content);
      // The context set before this message rides on it; one set while the user is asked is for the next message.
      const modelContext = el.modelContext;
      if (!(await prompts.gate('message', text))) return false;
      const from = { serverId: app.serverId(), server: parts.serverName(), ...(el.toolCallId && { toolCallId: el.toolCallId }) };
      const [event, action] = messageIntent({ text, content, modelContext }, from);
      if (!el.dispatchEvent(event)) return true;
      const store = el.currentStore;
      if (!store || !el.chat || !text) return false;
      // Sent while down, it would only be reported dropped: the View hears why instead, and keeps its model context.
      const offline = parts.offline();
      // -32000: a refusal the View can act on (retry when connected), not an internal error of the host.
      if (offline) throw new BridgeError(-32000, offline);
      store.dispatch(action, el.chat);
      if (el.modelContext === modelContext) el.modelContext = undefined;
      return true;
    },
    viewToolsChanged: () => el.dispatchEvent(new AhpAppToolsChangedEvent({ serverId, resourceUri: uri })),
    flooding: () => app.contain(parts.strings().t('app.flooded')),
    updateModelContext: (ctx) => el.dispatchEvent(new AhpAppModelContextEvent((el.modelContext = ctx))),
    requestDisplayMode: async (mode) =>
      mode === 'inline' || mode === el.displayMode || (await prompts.gate('displayMode', mode)) ? display.apply(mode) : el.displayMode,
    escape: () => el.displayMode !== 'inline' && el.exitDisplayMode(),
    downloadFile: async (request) => {
      if (!(await prompts.gate('download', request.contents.map((c) => c.fileName).join(', ')))) return false;
      if (el.dispatchEvent(new AhpAppDownloadEvent(request))) saveDownloads(request);
      return true;
    },
    requestTeardown: () => void el.teardown('app'),
    warn: (message) => void (DEV && message.includes('refused so far') && console.warn(`[ahp-mcp-app] ${message}`)),
  };
}

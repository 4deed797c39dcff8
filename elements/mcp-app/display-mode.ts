import { html, nothing, type ReactiveControllerHost } from 'lit';
import type { AppBridgeHost } from '../../src/apps/bridge.js';
import { MAX_INLINE_HEIGHT } from '../../src/apps/sandbox-frame.js';
import type { McpUiDisplayMode } from '../../src/apps/types.js';
import { AhpAppDisplayModeEvent } from './events.js';
import type { McpAppStrings } from './strings.js';

type Host = ReactiveControllerHost & HTMLElement & { displayMode: McpUiDisplayMode; readonly bridge: AppBridgeHost | undefined };

/**
 * The App's display mode (inline, fullscreen, picture-in-picture) and the size the View may use: changes go through
 * the cancelable `ahp-app-display-mode` event and reach the View as host context; the host-owned exit button and
 * Escape leave fullscreen and picture-in-picture, focus returning to the App.
 */
export class DisplayModeController {
  declare private readonly host: Host;
  declare private readonly frame: () => HTMLIFrameElement | undefined;

  constructor(host: Host, frame: () => HTMLIFrameElement | undefined) {
    this.host = host;
    this.frame = frame;
  }

  /** Switches to `mode` unless the page cancels; returns the mode now in force. */
  apply(mode: McpUiDisplayMode): McpUiDisplayMode {
    const host = this.host;
    const previous = host.displayMode;
    if (mode === previous || !host.dispatchEvent(new AhpAppDisplayModeEvent({ mode, previous }))) return previous;
    host.displayMode = mode;
    host.setAttribute('display-mode', mode);
    host.bridge?.setHostContext({ displayMode: mode, containerDimensions: this.containerDimensions() });
    return mode;
  }

  /** Back to inline; focus returns to the App. */
  exit(): void {
    if (this.apply('inline') === 'inline') this.frame()?.focus();
  }

  /** The room the View has: the element's width inline (height up to the cap), else the frame's box. */
  containerDimensions(): { width: number; maxHeight: number } | { width: number; height: number } {
    if (this.host.displayMode === 'inline') return { width: Math.round(this.host.getBoundingClientRect().width), maxHeight: MAX_INLINE_HEIGHT };
    const rect = this.frame()?.getBoundingClientRect();
    return { width: Math.round(rect?.width ?? innerWidth), height: Math.round(rect?.height ?? innerHeight) };
  }

  /** Follows the element's size for the View; returns the stop function. */
  watchSize(): () => void {
    const resize = new ResizeObserver(() => this.host.bridge?.setHostContext({ containerDimensions: this.containerDimensions() }));
    resize.observe(this.host);
    return () => resize.disconnect();
  }

  /** Escape leaves fullscreen and picture-in-picture (from the host-owned controls; the proxy forwards it from the View). */
  readonly onKey = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || this.host.displayMode === 'inline') return;
    event.preventDefault();
    this.exit();
  };

  /** The host-owned exit button outside inline mode. */
  renderExit(t: McpAppStrings) {
    const mode = this.host.displayMode;
    return mode !== 'inline' ? html`<button type="button" part="exit" class="exit" @click=${() => this.exit()}>${t.t(mode === 'pip' ? 'app.exitPip' : 'app.exitFullscreen')}</button>` : nothing;
  }
}

import { SandboxFrame } from './sandbox-frame.js';

/** At most this many loaded spare proxy frames wait in a page (oldest dropped first). */
const MAX_SPARES = 4;

/**
 * Loaded, unused sandbox proxy frames, one per proxy URL (origin, CSP, page origin and policy) and permission policy
 * (a frame's `allow` is fixed when it loads, so a spare only serves Views asking for exactly its permissions), kept out of sight in
 * the page so the next App on that origin skips the proxy's load: its process, page and script are already up and
 * the handshake is done. Only where the browser moves a live iframe without reloading it (`moveBefore`): elsewhere
 * `warm` does nothing and `take` finds nothing.
 */
export class SandboxWarmer {
  private readonly spares = new Map<string, SandboxFrame>();
  private readonly win: Window | undefined;

  constructor(win?: Window) {
    this.win = win;
  }

  /** Starts loading a spare proxy frame for `url` (with the permission policy `allow`) unless one is there already. */
  warm(url: string, allow?: string): void {
    const win = this.win ?? (typeof window === 'undefined' ? undefined : window);
    const key = spareKey(url, allow);
    if (!win || this.spares.has(key) || !SandboxFrame.canMoveLive(win) || !win.document.body) return;
    const frame = new SandboxFrame({ url, allow, win });
    const el = frame.element;
    el.setAttribute('aria-hidden', 'true');
    el.tabIndex = -1;
    el.style.cssText = 'position:fixed;left:-10000px;top:0;width:300px;height:150px;border:0;visibility:hidden;pointer-events:none';
    const drop = (): void => {
      if (this.spares.get(key) !== frame) return;
      this.spares.delete(key);
      frame.remove();
    };
    frame.onHijack = drop;
    void frame.ready.then((ok) => ok || drop());
    this.spares.set(key, frame);
    if (this.spares.size > MAX_SPARES) {
      const [oldest] = this.spares.keys();
      const spare = this.spares.get(oldest!)!;
      this.spares.delete(oldest!);
      spare.remove();
    }
    win.document.body.appendChild(el);
  }

  /** The spare frame for `url` and `allow`, now the caller's (its `onHijack` cleared, visible again); undefined when none. */
  take(url: string, allow?: string): SandboxFrame | undefined {
    const key = spareKey(url, allow);
    const frame = this.spares.get(key);
    if (!frame) return undefined;
    this.spares.delete(key);
    // Taken out of the document meanwhile (placing it would load it again) or no longer ours: not usable.
    if (frame.hijacked || !frame.element.isConnected) return void frame.remove();
    frame.onHijack = undefined;
    const el = frame.element;
    el.removeAttribute('aria-hidden');
    el.removeAttribute('tabindex');
    el.style.cssText = '';
    return frame;
  }

  /** Resolves once every spare now loading has loaded (or failed): nothing of the warmer competes for the CPU then. */
  async settled(): Promise<void> {
    await Promise.all([...this.spares.values()].map((frame) => frame.ready));
  }

  /** Removes every spare frame. */
  clear(): void {
    for (const frame of this.spares.values()) frame.remove();
    this.spares.clear();
  }
}

const spareKey = (url: string, allow: string | undefined): string => (allow ? `${url}\n${allow}` : url);

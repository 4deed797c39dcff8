import { SandboxFrame } from './sandbox-frame.js';

/** At most this many loaded spare proxy frames wait in a page (oldest dropped first). */
const MAX_SPARES = 4;

/**
 * Loaded, unused sandbox proxy frames, at most one per sandbox origin, each for one proxy URL (CSP, page origin and
 * policy) and permission policy (a frame's `allow` is fixed when it loads, so a spare only serves Views asking for
 * exactly its URL and permissions), kept off screen and inert in the page so the next App on that origin skips the
 * proxy's load: its process, page and script are already up and the handshake is done. A spare serves one App and
 * is never given back. Only where the browser moves a live iframe without reloading it (`moveBefore`): elsewhere
 * `warm` does nothing and `take` finds nothing.
 */
export class SandboxWarmer {
  private readonly spares = new Map<string, SandboxFrame>();

  /**
   * Starts loading a spare proxy frame for `url` (with the permission policy `allow`) unless its origin has a usable
   * one for it already. Another spare of the origin is replaced, and the oldest of the page's goes when they are
   * too many; `ifRoom` (a guess, not a View just seen) instead leaves an origin that has a spare, and a full page, as they are.
   */
  warm(url: string, allow?: string, ifRoom?: boolean): void {
    if (!SandboxFrame.canMoveLive() || !document.body) return;
    const origin = new URL(url).origin;
    const old = this.spares.get(origin);
    const live = old && !old.hijacked && old.element.isConnected;
    if (live && (ifRoom || (old.url === url && old.allow === (allow || undefined)))) return;
    if (old) this.drop(old);
    if (ifRoom && this.spares.size >= MAX_SPARES) return;
    const frame = new SandboxFrame({ url, allow });
    const el = frame.element;
    // Inert and out of the accessibility tree (aria-hidden marks it for tests too): never focused or clicked. Off
    // screen but not `visibility:hidden`: Chromium lowers the priority of a process whose frames are all hidden
    // (nice 5 on Linux, checked), and the View is then built in it at that priority.
    el.ariaHidden = 'true';
    el.inert = true;
    el.style.cssText = 'position:fixed;left:-9999px';
    frame.onHijack = () => this.drop(frame);
    void frame.ready.then((ok) => ok || this.drop(frame));
    this.spares.set(origin, frame);
    if (this.spares.size > MAX_SPARES) this.drop(this.spares.values().next().value!);
    document.body.appendChild(el);
  }

  /**
   * The spare frame for `url` and `allow`, now the caller's (its `onHijack` cleared, visible again); undefined when
   * none. To release a spare nobody will use, take it and remove it.
   */
  take(url: string, allow?: string): SandboxFrame | undefined {
    const frame = this.spares.get(new URL(url).origin);
    if (frame?.url !== url || frame.allow !== (allow || undefined)) return undefined;
    this.spares.delete(frame.origin);
    // Taken out of the document meanwhile (placing it would load it again) or no longer ours: not usable.
    if (frame.hijacked || !frame.element.isConnected) return void frame.remove();
    frame.onHijack = undefined;
    const el = frame.element;
    el.ariaHidden = null;
    el.inert = false;
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

  private drop(frame: SandboxFrame): void {
    if (this.spares.get(frame.origin) !== frame) return;
    this.spares.delete(frame.origin);
    frame.remove();
  }
}

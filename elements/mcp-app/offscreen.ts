import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Tells whether the element is far out of view: within `margin` of the viewport counts as near, through nested
 * scroll containers too (`scrollMargin`). `onChange(far)` runs when that flips; nothing runs where
 * IntersectionObserver is missing or the margin is null.
 */
export class OffscreenController implements ReactiveController {
  declare private readonly host: ReactiveControllerHost & Element;
  declare private readonly margin: () => string | null;
  declare private readonly onChange: (far: boolean) => void;
  declare private observer: IntersectionObserver | undefined;
  declare private observed?: boolean;
  private waiting: (() => void)[] = [];
  /** Whether the element was far out of view at the last report. */
  far = false;

  constructor(host: ReactiveControllerHost & Element, margin: () => string | null, onChange: (far: boolean) => void) {
    this.host = host;
    this.margin = margin;
    this.onChange = onChange;
    host.addController(this);
  }

  /**
   * Resolves with whether the element is far out of view once the first observation is in (the next rendering
   * step). At once `false` where nothing observes, while the page is hidden (no observation comes then), and when the
   * element is in the viewport now (the usual App, just added to what the user reads: its start is not delayed).
   */
  farOutOfView(): Promise<boolean> {
    const doc = this.host.ownerDocument;
    if (this.observed || !this.observer || doc.visibilityState === 'hidden') return Promise.resolve(this.far);
    const box = this.host.getBoundingClientRect();
    const view = doc.documentElement;
    if (box.width > 0 && box.bottom >= 0 && box.right >= 0 && box.top <= view.clientHeight && box.left <= view.clientWidth) return Promise.resolve(false);
    return new Promise((resolve) => this.waiting.push(() => resolve(this.far)));
  }

  hostConnected(): void {
    const margin = this.margin();
    if (margin === null || typeof IntersectionObserver !== 'function') return;
    const options = { rootMargin: margin, scrollMargin: margin } as IntersectionObserverInit;
    this.observer = new IntersectionObserver((entries) => {
      const far = !entries[entries.length - 1]!.isIntersecting;
      const changed = far !== this.far;
      this.far = far;
      if (!this.observed) {
        this.observed = true;
        this.release();
      }
      if (changed) this.onChange(far);
    }, options);
    this.observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    this.observer = undefined;
    this.observed = false;
    this.far = false;
    this.release();
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}

import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Tells whether the element is far out of view: within `margin` of the viewport counts as near, through nested
 * scroll containers too (`scrollMargin`). `onChange(far)` runs when that flips; nothing runs where
 * IntersectionObserver is missing or the margin is null.
 */
export class OffscreenController implements ReactiveController {
  private readonly host: ReactiveControllerHost & Element;
  private readonly margin: () => string | null;
  private readonly onChange: (far: boolean) => void;
  private observer: IntersectionObserver | undefined;
  /** Whether the element was far out of view at the last report. */
  far = false;

  constructor(host: ReactiveControllerHost & Element, margin: () => string | null, onChange: (far: boolean) => void) {
    this.host = host;
    this.margin = margin;
    this.onChange = onChange;
    host.addController(this);
  }

  hostConnected(): void {
    const margin = this.margin();
    if (margin === null || typeof IntersectionObserver !== 'function') return;
    const options = { rootMargin: margin, scrollMargin: margin } as IntersectionObserverInit;
    this.observer = new IntersectionObserver((entries) => {
      const far = !entries[entries.length - 1]!.isIntersecting;
      if (far === this.far) return;
      this.far = far;
      this.onChange(far);
    }, options);
    this.observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    this.observer = undefined;
    this.far = false;
  }
}

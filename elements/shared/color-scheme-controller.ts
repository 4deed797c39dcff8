import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { themeOf } from './icon.js';

/**
 * Follows the user's colour scheme: when `prefers-color-scheme` flips, runs `onChange` (default: a host update), so
 * whatever the host picks by theme (a server icon, an App's host context) follows without a reload.
 */
export class ColorSchemeController implements ReactiveController {
  declare private readonly host: ReactiveControllerHost & Element;
  private readonly query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  declare private readonly onChange: () => void;

  constructor(host: ReactiveControllerHost & Element, onChange?: () => void) {
    this.host = host;
    this.onChange = onChange ? () => onChange() : () => host.requestUpdate();
    host.addController(this);
  }

  /** The theme that suits the host now, following its used `color-scheme` like `light-dark()` does. */
  get theme(): 'light' | 'dark' {
    return themeOf(this.host);
  }

  /** Whether the user prefers a dark scheme (false where `matchMedia` is missing). */
  get prefersDark(): boolean {
    return this.query?.matches ?? false;
  }

  hostConnected(): void {
    this.query?.addEventListener('change', this.onChange);
  }

  hostDisconnected(): void {
    this.query?.removeEventListener('change', this.onChange);
  }
}

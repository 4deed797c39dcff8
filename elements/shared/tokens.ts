import { css } from 'lit';

/**
 * Global `--ahp-*` tokens, read with light/dark defaults into private `--_*` variables.
 * Public tokens are never set on `:host`, so a page can theme from any ancestor. The defaults follow
 * the inherited `color-scheme` through `light-dark()`.
 *
 * @cssprop --ahp-font-family - Font family (inherits by default).
 * @cssprop --ahp-font-size - Base font size.
 * @cssprop --ahp-font-family-mono - Monospace font (arguments, results, code).
 * @cssprop --ahp-color-text - Main text colour.
 * @cssprop --ahp-color-text-muted - Secondary text colour.
 * @cssprop --ahp-color-surface - Background of cards and controls.
 * @cssprop --ahp-color-border - Borders and separators.
 * @cssprop --ahp-color-accent - Accent (switch on, primary emphasis).
 * @cssprop --ahp-color-on-accent - Content drawn on the accent colour.
 * @cssprop --ahp-color-success - Ready state.
 * @cssprop --ahp-color-warning - Starting and sign-in states.
 * @cssprop --ahp-color-danger - Error state and error text.
 * @cssprop --ahp-color-neutral - Stopped, unknown and disabled states (default: the muted text colour).
 * @cssprop --ahp-color-focus - Focus ring colour (default: the accent).
 * @cssprop --ahp-focus-ring-width - Focus ring width (default 2px).
 * @cssprop --ahp-focus-ring-offset - Gap between a control and its focus ring (default 2px).
 * @cssprop --ahp-space-1 - Small gap.
 * @cssprop --ahp-space-2 - Medium gap.
 * @cssprop --ahp-space-3 - Large gap.
 * @cssprop --ahp-radius - Corner radius.
 */
export const tokenStyles = css`
  :host {
    --_font-family: var(--ahp-font-family, inherit);
    --_font-size: var(--ahp-font-size, 0.875rem);
    --_font-mono: var(--ahp-font-family-mono, ui-monospace, monospace);
    --_text: var(--ahp-color-text, light-dark(#1f2328, #e6edf3));
    --_text-muted: var(--ahp-color-text-muted, light-dark(#59636e, #9198a1));
    --_surface: var(--ahp-color-surface, light-dark(#ffffff, #0d1117));
    --_border: var(--ahp-color-border, light-dark(#d1d9e0, #3d444d));
    --_accent: var(--ahp-color-accent, light-dark(#0969da, #4493f8));
    --_on-accent: var(--ahp-color-on-accent, var(--_surface));
    --_success: var(--ahp-color-success, light-dark(#1a7f37, #3fb950));
    --_warning: var(--ahp-color-warning, light-dark(#9a6700, #d29922));
    --_danger: var(--ahp-color-danger, light-dark(#d1242f, #f85149));
    --_neutral: var(--ahp-color-neutral, var(--_text-muted));
    --_focus: var(--ahp-color-focus, var(--_accent));
    --_focus-width: var(--ahp-focus-ring-width, 2px);
    --_focus-offset: var(--ahp-focus-ring-offset, 2px);
    --_space-1: var(--ahp-space-1, 0.25rem);
    --_space-2: var(--ahp-space-2, 0.5rem);
    --_space-3: var(--ahp-space-3, 0.75rem);
    --_radius: var(--ahp-radius, 6px);

    font-family: var(--_font-family);
    font-size: var(--_font-size);
    color: var(--_text);
  }
  :host([hidden]) {
    display: none;
  }
`;

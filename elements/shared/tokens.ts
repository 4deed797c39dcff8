import { css, unsafeCSS } from 'lit';
import { PALETTE, type PaletteColor } from '../../src/theme/palette.js';

/** A palette colour as `light-dark(light, dark)`. */
const color = (name: PaletteColor) => unsafeCSS(`light-dark(${PALETTE[name][0]}, ${PALETTE[name][1]})`);

/**
 * Global `--ahp-*` tokens, read with light/dark defaults into private `--_*` variables.
 * Public tokens are never set on `:host`, so a page can theme from any ancestor. The defaults follow
 * the inherited `color-scheme` through `light-dark()`.
 *
 * @cssprop --ahp-font-family - Font family.
 * @cssprop --ahp-font-size - Base font size.
 * @cssprop --ahp-font-family-mono - Monospace font (arguments, results, code).
 * @cssprop --ahp-color-text - Main text colour.
 * @cssprop --ahp-color-text-muted - Secondary text colour.
 * @cssprop --ahp-color-surface - Background of cards and controls.
 * @cssprop --ahp-color-border - Borders and separators.
 * @cssprop --ahp-color-accent - Accent: switch on, primary buttons, running.
 * @cssprop --ahp-color-on-accent - Content drawn on the accent colour.
 * @cssprop --ahp-color-success - Ready and completed states.
 * @cssprop --ahp-color-warning - Starting, sign-in and waiting-for-you states.
 * @cssprop --ahp-color-danger - Errors, error text and high risk.
 * @cssprop --ahp-color-neutral - Stopped, unknown and disabled states.
 * @cssprop --ahp-color-focus - Focus ring colour.
 * @cssprop --ahp-focus-ring-width - Focus ring width.
 * @cssprop --ahp-focus-ring-offset - Gap between a control and its focus ring.
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
    --_text: var(--ahp-color-text, ${color('text')});
    --_text-muted: var(--ahp-color-text-muted, ${color('textMuted')});
    --_surface: var(--ahp-color-surface, ${color('surface')});
    --_border: var(--ahp-color-border, ${color('border')});
    --_accent: var(--ahp-color-accent, ${color('accent')});
    --_on-accent: var(--ahp-color-on-accent, var(--_surface));
    --_success: var(--ahp-color-success, ${color('success')});
    --_warning: var(--ahp-color-warning, ${color('warning')});
    --_danger: var(--ahp-color-danger, ${color('danger')});
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

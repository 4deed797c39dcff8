/** One colour for light and one for dark. */
export type LightDark = readonly [light: string, dark: string];

/**
 * The colour palette of ahp-elements, its one source: the light and dark defaults of the `--ahp-color-*` tokens
 * (elements/shared/tokens.ts), the MCP Apps style variables (src/apps/host-context.ts) and the playground page
 * (served as `/palette.css`) are all derived from it.
 */
export const PALETTE = {
  text: ['#1f2328', '#e6edf3'],
  textMuted: ['#59636e', '#9198a1'],
  surface: ['#ffffff', '#0d1117'],
  /** A background a step off the surface (the Apps' secondary background, the playground page). */
  surfaceSubtle: ['#f6f8fa', '#151b23'],
  border: ['#d1d9e0', '#3d444d'],
  accent: ['#0969da', '#4493f8'],
  success: ['#1a7f37', '#3fb950'],
  warning: ['#9a6700', '#d29922'],
  danger: ['#d1242f', '#f85149'],
} as const satisfies Record<string, LightDark>;

export type PaletteColor = keyof typeof PALETTE;

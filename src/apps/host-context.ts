import { PALETTE, type LightDark } from '../theme/palette.js';
import type { McpUiTheme } from './types.js';

export type { LightDark };

/**
 * The ahp-elements theme tokens (the palette of src/theme/palette.ts, as elements/shared/tokens.ts reads it) that
 * seed the MCP Apps style variables. A page may override any of them (e.g. from its computed `--ahp-*` values).
 */
export interface AppThemeTokens {
  text: LightDark;
  textMuted: LightDark;
  surface: LightDark;
  surfaceSubtle: LightDark;
  border: LightDark;
  accent: LightDark;
  onAccent: LightDark;
  success: LightDark;
  warning: LightDark;
  danger: LightDark;
  neutral: LightDark;
  focus: LightDark;
  fontSans: string;
  fontMono: string;
  radius: number;
}

export const DEFAULT_THEME_TOKENS: AppThemeTokens = {
  ...PALETTE,
  // As in tokens.ts: content on the accent follows the surface, neutral the muted text, focus the accent.
  onAccent: PALETTE.surface,
  neutral: PALETTE.textMuted,
  focus: PALETTE.accent,
  fontSans: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif',
  fontMono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  radius: 6,
};

const ld = ([light, dark]: LightDark): string => `light-dark(${light}, ${dark})`;
// Tints for info/danger/success/warning backgrounds: the colour mixed into the surface.
const tint = (c: LightDark, s: LightDark, pct: number): LightDark => [0, 1].map((i) => `color-mix(in srgb, ${c[i]} ${pct}%, ${s[i]})`) as [string, string];
const swap = (c: LightDark): LightDark => [c[1], c[0]];

/**
 * All 76 MCP Apps style variables (`--color-*`, `--font-*`, `--border-*`, `--shadow-*`) from the theme
 * tokens, each colour as `light-dark(light, dark)` so one set serves both themes (the View sets `color-scheme`
 * from `theme`). Pass `theme` to get plain single-theme values instead.
 */
export function buildStyleVariables(overrides: Partial<AppThemeTokens> = {}, theme?: McpUiTheme): Record<string, string> {
  const t = { ...DEFAULT_THEME_TOKENS, ...overrides };
  const color = (c: LightDark): string => (theme ? c[theme === 'dark' ? 1 : 0] : ld(c));
  const vars: Record<string, string> = {};
  const status = { info: t.accent, danger: t.danger, success: t.success, warning: t.warning } as const;
  const background: Record<string, LightDark> = {
    primary: t.surface,
    secondary: t.surfaceSubtle,
    tertiary: tint(t.neutral, t.surface, 12),
    inverse: swap(t.surface),
    ghost: ['transparent', 'transparent'],
    info: tint(status.info, t.surface, 12),
    danger: tint(status.danger, t.surface, 12),
    success: tint(status.success, t.surface, 12),
    warning: tint(status.warning, t.surface, 12),
    disabled: tint(t.neutral, t.surface, 8),
  };
  const text: Record<string, LightDark> = {
    primary: t.text,
    secondary: t.textMuted,
    tertiary: tint(t.textMuted, t.surface, 75),
    inverse: swap(t.text),
    ghost: tint(t.textMuted, t.surface, 60),
    ...status,
    disabled: tint(t.neutral, t.surface, 55),
  };
  const border: Record<string, LightDark> = {
    primary: t.border,
    secondary: tint(t.border, t.surface, 70),
    tertiary: tint(t.border, t.surface, 45),
    inverse: swap(t.border),
    ghost: ['transparent', 'transparent'],
    ...status,
    disabled: tint(t.border, t.surface, 50),
  };
  const ring: Record<string, LightDark> = { primary: t.focus, secondary: t.neutral, inverse: swap(t.focus), ...status };
  for (const [group, values] of Object.entries({ background, text, border, ring })) {
    for (const [name, value] of Object.entries(values)) vars[`--color-${group}-${name}`] = color(value);
  }
  vars['--font-sans'] = t.fontSans;
  vars['--font-mono'] = t.fontMono;
  for (const [name, weight] of Object.entries({ normal: 400, medium: 500, semibold: 600, bold: 700 })) vars[`--font-weight-${name}`] = `${weight}`;
  // [size in rem, line height]
  const textSizes: Record<string, readonly [number, number]> = { xs: [0.75, 1.4], sm: [0.875, 1.45], md: [1, 1.5], lg: [1.125, 1.55] };
  const headingSizes: Record<string, readonly [number, number]> = {
    xs: [0.75, 1.4], sm: [0.875, 1.4], md: [1, 1.4], lg: [1.25, 1.3], xl: [1.5, 1.25], '2xl': [1.875, 1.2], '3xl': [2.25, 1.1],
  };
  for (const [kind, sizes] of Object.entries({ text: textSizes, heading: headingSizes })) {
    for (const [name, [size, lh]] of Object.entries(sizes)) {
      vars[`--font-${kind}-${name}-size`] = `${size}rem`;
      vars[`--font-${kind}-${name}-line-height`] = `${lh}`;
    }
  }
  const r = t.radius;
  Object.assign(vars, {
    '--border-radius-xs': `${Math.max(0, r - 4)}px`,
    '--border-radius-sm': `${Math.max(0, r - 2)}px`,
    '--border-radius-md': `${r}px`,
    '--border-radius-lg': `${r + 4}px`,
    '--border-radius-xl': `${r + 10}px`,
    '--border-radius-full': '9999px',
    '--border-width-regular': '1px',
    '--shadow-hairline': `0 0 0 1px ${color(tint(t.border, t.surface, 80))}`,
    '--shadow-sm': '0 1px 2px rgb(0 0 0 / 0.08)',
    '--shadow-md': '0 4px 12px rgb(0 0 0 / 0.12)',
    '--shadow-lg': '0 12px 32px rgb(0 0 0 / 0.18)',
  });
  return vars;
}

/** Removes keys whose JSON value is unchanged: the `host-context-changed` diff (undefined when nothing changed). */
export function diffHostContext<T extends Record<string, unknown>>(prev: T, next: T): Partial<T> | undefined {
  const out: Record<string, unknown> = {};
  let changed = false;
  for (const key of Object.keys(next)) {
    if (next[key] === undefined) continue;
    if (JSON.stringify(prev[key]) !== JSON.stringify(next[key])) {
      out[key] = next[key];
      changed = true;
    }
  }
  return changed ? (out as Partial<T>) : undefined;
}

import type { Icon } from '../../src/protocol/common.js';

/** Icon sources an `<img>` may load: http(s) and data: images. Anything else is ignored. */
const SAFE_SRC = /^(https?:|data:image\/)/i;

/** The theme whose icon suits `el`, following its used `color-scheme` like `light-dark()` does. */
export function themeOf(el: Element): 'light' | 'dark' {
  const scheme = getComputedStyle(el).colorScheme.split(/\s+/);
  const light = scheme.includes('light');
  const dark = scheme.includes('dark');
  if (dark && !light) return 'dark';
  if (dark && light) return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  return 'light';
}

/** True when icons differ by theme, i.e. picking one needs to know the theme. */
export function iconsHaveThemes(icons: unknown): boolean {
  return Array.isArray(icons) && icons.some((i: Partial<Icon> | null) => i?.theme === 'light' || i?.theme === 'dark');
}

/** The best icon source for `theme`: an icon of that theme, then one without a theme, then any. */
export function pickIconSrc(icons: unknown, theme: 'light' | 'dark'): string | undefined {
  if (!Array.isArray(icons)) return undefined;
  const usable = icons.filter(
    (i: Partial<Icon> | null): i is Icon => typeof i?.src === 'string' && SAFE_SRC.test(i.src.trim()),
  );
  const pick = usable.find((i) => i.theme === theme) ?? usable.find((i) => !i.theme) ?? usable[0];
  return pick?.src;
}

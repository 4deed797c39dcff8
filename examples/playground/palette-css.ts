import { PALETTE, type PaletteColor } from '../../src/theme/palette.js';

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const block = (side: 0 | 1) =>
  (Object.keys(PALETTE) as PaletteColor[]).map((name) => `  --palette-${kebab(name)}: ${PALETTE[name][side]};`).join('\n');

/**
 * The palette (src/theme/palette.ts) as page CSS, served at `/palette.css`: `--palette-<colour>` on `:root`, light
 * by default and dark under `prefers-color-scheme: dark`, so the playground page wears the elements' colours.
 */
export function paletteCss(): string {
  return `/* Generated from src/theme/palette.ts by the playground. */\n:root {\n${block(0)}\n}\n@media (prefers-color-scheme: dark) {\n  :root {\n${block(1).replace(/^/gm, '  ')}\n  }\n}\n`;
}

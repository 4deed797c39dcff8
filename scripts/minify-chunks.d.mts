// Types for minify-chunks.mjs, so TypeScript tests can import it with a plain static import.
import type { Plugin } from 'rollup';
import type { MinifyOptions } from 'terser';

/** The CDN build's terser step: one chunk after another, imports and exports linked under their short export names. */
export function minifyChunks(options: MinifyOptions): Plugin;

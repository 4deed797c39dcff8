// Types for minify-lit-templates.mjs, so TypeScript tests can import it with a plain static import.
import type { Plugin } from 'rollup';

/** Every private custom property name (`--_…`) of src/ and elements/, mapped to its short name. */
export function privateCustomProperties(): Map<string, string>;
/** Minifies one static part of a css`` template; `first`/`last` say whether it starts/ends the template. */
export function minifyCssText(text: string, first: boolean, last: boolean): string;
/** Finds css`…` templates in (esbuild-transpiled) JS and minifies their static parts. */
export function minifyCssTemplates(code: string): string;
/** The rollup plugin of the minified bundles. */
export function minifyLitTemplates(): Plugin;

// Types for build-examples.mjs, so the playground (TypeScript) can import it with a plain static import.

export const REPO_ROOT: string;
/** examples/pages: one folder per page. */
export const PAGES_DIR: string;
/** .cache/examples: one output folder per bundled page. */
export const OUT_ROOT: string;
/** The pages with a bundle (the `cdn` page has none) and their build differences. */
export const BUNDLED_PAGES: Record<string, { entry: string; jsx?: boolean; alias?: Record<string, string>; define?: Record<string, string> }>;
/** Builds one page's bundle if needed; resolves with its output folder (main.js, main.js.map). */
export function buildExample(name: string): Promise<string>;

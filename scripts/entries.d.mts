/** One JavaScript entry of package.json `exports` (wildcards expanded). */
export interface Entry {
  /** What users import, e.g. `ahp-elements/host`. */
  specifier: string;
  /** The `exports` key, e.g. `./host`. */
  subpath: string;
  /** The TypeScript module it is built from, e.g. `src/host.ts`. */
  source: string;
  /** `module`: built to dist/lib one file per module; `cdn`: the minified bundle. */
  kind: 'module' | 'cdn';
}
export const pkg: {
  name: string;
  main: string;
  module: string;
  types: string;
  exports: Record<string, string | Record<string, string>>;
  [key: string]: unknown;
};
export const CDN_SOURCE: string;
export function entries(): Entry[];
export function entry(subpath: string): Entry;

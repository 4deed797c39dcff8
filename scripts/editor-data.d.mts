// Types for editor-data.mjs, so TypeScript tests can import it with a plain static import.

/** File path (relative to the repository) → generated content of the editor data, from a parsed custom-elements.json. */
export function editorDataFiles(manifest: unknown): Map<string, string>;

// Types for find-chromium.mjs, so TypeScript tests can import it with a plain static import.

/** Returns the path of a Chromium binary (CHROME_PATH first, then the usual install locations) or throws an error that says how to get one. */
export function findChromium(): string;

/** Flags for headless Chromium on a machine with no network but loopback, running as root. */
export const CHROMIUM_ARGS: string[];

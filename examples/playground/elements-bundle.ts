/** Bundles every element (elements/define-all.ts) for the browser, once, in memory. */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { REPO_ROOT } from './config.js';

/** The entry the demo page loads as `/ahp-elements.js`. */
export const ELEMENTS_ENTRY = path.join(REPO_ROOT, 'elements/define-all.ts');
/** The session worker the demo page loads as `/ahp-session-worker.js` with `?worker=shared|dedicated`. */
export const WORKER_ENTRY = path.join(REPO_ROOT, 'src/worker/shared-worker-entry.ts');

/**
 * package.json `sideEffects` names the built files in dist/, so esbuild would drop the source
 * `define.ts` imports as side-effect free. Our own sources keep their side effects here.
 */
const ownSourcesHaveSideEffects: Plugin = {
  name: 'own-sources-have-side-effects',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const { path: resolved, errors } = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolving',
      });
      if (errors.length || !resolved.startsWith(REPO_ROOT + path.sep) || resolved.includes(`${path.sep}node_modules${path.sep}`)) {
        return undefined;
      }
      return { path: resolved, sideEffects: true };
    });
  },
};

/** Returns the ESM bundle text; throws with esbuild's messages when the elements do not build. */
export async function bundleElements(entry: string = ELEMENTS_ENTRY): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser'],
    target: 'es2022',
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
    plugins: [ownSourcesHaveSideEffects],
  }).catch((err: Error) => {
    throw new Error(`Could not bundle ${path.relative(REPO_ROOT, entry)} for the playground page:\n${err.message}`);
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error(`esbuild produced no output for ${entry}`);
  return file.text;
}

// The upstream reference reducers (AHP_REFERENCE) folded in a child process of their own for `bench:store`, one fold
// at a time, interleaved with the store's folds. Its own process: its own V8 heap, hidden classes and JIT feedback,
// and its own CPU time. Folded in the process that runs the store (up to session 14), the two slowed each other; in a
// worker thread of the same process, the worker's background work was counted in the store's CPU time. The issue's
// figures come from fresh processes too. The harness imports this module as well, to fold the reference in its own
// process when asked (AHP_REFERENCE_SAME_PROCESS=1, for comparison).
import { pathToFileURL } from 'node:url';
import type { AnyAction } from '../../src/protocol/index.js';
import { heapAfterGc } from './timing.js';
import { w1ChatDeltas, w2ToolCalls, w3ServerStates, type Workload } from './workloads.js';

/** What the harness asks for: one fold of the workload with this key (`w1`, `w2`, `w3-<servers>`). */
export interface ReferenceRequest {
  key: string;
}
/** One fold's CPU time (its process's, GC threads included, as the harness's other rows) and the heap its final state keeps (undefined without --expose-gc). */
export type ReferenceReply = { ms: number; bytes: number | undefined } | { error: string };

type Reducer = (state: unknown, action: AnyAction) => unknown;

/** Loads the reference reducers from `path` and returns its fold: one fold of a workload, by key, with its CPU time and memory. */
export async function referenceFolder(path: string): Promise<(key: string) => Promise<ReferenceReply>> {
  const mod = (await import(pathToFileURL(path).href)) as { chatReducer?: Reducer; sessionReducer?: Reducer };
  const { chatReducer, sessionReducer } = mod;
  if (typeof chatReducer !== 'function' || typeof sessionReducer !== 'function') throw new Error(`AHP_REFERENCE=${path} exports no chatReducer/sessionReducer`);
  const built = new Map<string, Workload<object>>();
  const workload = (key: string): Workload<object> => {
    let w = built.get(key);
    if (!w) {
      const servers = /^w3-(\d+)$/.exec(key);
      w = (key === 'w1' ? w1ChatDeltas() : key === 'w2' ? w2ToolCalls() : servers ? w3ServerStates(Number(servers[1])) : undefined) as Workload<object> | undefined;
      if (!w) throw new Error(`no workload "${key}"`);
      built.set(key, w);
    }
    return w;
  };
  return async (key) => {
    try {
      const w = workload(key);
      const reduce = key.startsWith('w3') ? sessionReducer : chatReducer;
      let state: unknown = w.initial();
      const start = process.cpuUsage();
      for (const a of w.actions) state = reduce(state, a);
      const used = process.cpuUsage(start);
      w.check(state as object);
      // Held by an object read after the await: a local nobody reads again would be dead, and collected, before it is weighed.
      const kept: { state?: unknown } = { state };
      state = undefined;
      const withState = await heapAfterGc();
      kept.state = undefined;
      const without = await heapAfterGc();
      return { ms: (used.user + used.system) / 1000, bytes: withState !== undefined && without !== undefined ? withState - without : undefined };
    } catch (err) {
      return { error: String((err as Error)?.stack ?? err) };
    }
  };
}

/** Set by the harness in the child it forks: this module is then the child's main module, and answers over IPC. */
export const CHILD_ENV = 'AHP_REFERENCE_CHILD';

const send = process.send?.bind(process);
if (send && process.env[CHILD_ENV] === '1') {
  const fold = await referenceFolder(String(process.env.AHP_REFERENCE));
  process.on('message', (request: ReferenceRequest) => void fold(request.key).then((reply) => send(reply)));
  send('ready');
}

import type { SessionHandle } from '../../src/client/session-handle.js';
import type { SessionStoreLike } from '../../src/store/types.js';

/** Watches one session's MCP servers for what their Apps will need; returns the stop. */
export type AppServerWatch = (store: SessionStoreLike, handle: SessionHandle) => () => void;

interface Provided {
  store: SessionStoreLike;
  handle: SessionHandle;
  stop?: (() => void) | undefined;
}

// The sessions `<ahp-session>` provides now, and what `<ahp-mcp-app>`'s module watches them with once it has loaded
// (in the CDN build it may load after the session connected, or never).
const provided = new Set<Provided>();
let watch: AppServerWatch | undefined;

/** A session is provided (by `<ahp-session>`); returns the end, which stops its watch. */
export function provideAppServers(store: SessionStoreLike, handle: SessionHandle): () => void {
  const session: Provided = { store, handle, stop: watch?.(store, handle) };
  provided.add(session);
  return () => {
    provided.delete(session);
    session.stop?.();
  };
}

/** Watches every provided session with `next` from now on (those already watched start over). */
export function watchAppServers(next: AppServerWatch): void {
  watch = next;
  for (const session of provided) {
    session.stop?.();
    session.stop = next(session.store, session.handle);
  }
}

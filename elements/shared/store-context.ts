import { createContext } from '@lit/context';
import type { SessionHandle } from '../../src/client/session-handle.js';
import type { SessionStoreLike } from '../../src/store/types.js';

/** Context through which `<ahp-session>` provides its store to descendant elements. */
export const storeContext = createContext<SessionStoreLike | undefined>(Symbol.for('ahp-store'));

/** Context through which `<ahp-session>` provides its session handle (connection state, authenticate, `mcp://`, createChat) next to the store. */
export const handleContext = createContext<SessionHandle | undefined>(Symbol.for('ahp-session-handle'));

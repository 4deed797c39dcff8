import { createContext } from '@lit/context';
import type { SessionStoreLike } from '../../src/store/types.js';

/** Context through which `<ahp-session>` provides its store to descendant elements. */
export const storeContext = createContext<SessionStoreLike | undefined>(Symbol.for('ahp-store'));

import type { AnyAction, StateAction } from '../../src/protocol/actions.js';
import type { SessionStoreLike } from '../../src/store/types.js';

/** An action an element dispatches: one of the protocol's, as the intent creators of `src/intents` build them. */
type Action = StateAction | AnyAction;

/** A user intent as an element sends it: the cancelable event that announces it, then the action(s) it dispatches. */
export type Intent = readonly [event: Event, actions: Action | readonly Action[]];

/**
 * Fires the intent's event at `from`; unless a listener cancelled it, dispatches its actions through `store` on
 * `channel` (the session when omitted). Returns false when the event was cancelled.
 */
export function runIntent(from: EventTarget, [event, actions]: Intent, store: SessionStoreLike | undefined, channel?: string): boolean {
  if (!from.dispatchEvent(event)) return false;
  for (const action of (Array.isArray(actions) ? actions : [actions]) as AnyAction[]) {
    if (channel === undefined) store?.dispatch(action);
    else store?.dispatch(action, channel);
  }
  return true;
}

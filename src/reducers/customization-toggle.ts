import type { CustomizationEnablement } from '../protocol/customizations.js';
import type { SessionState } from '../protocol/session.js';
import { isEnablement } from './customization-actions.js';
import { isAbsent, isRecord, isString, type Rec } from './guards.js';


/** The customization with this id, top level first, then children of containers. */
function findCustomization(state: SessionState, id: string): Rec | undefined {
  const list: unknown = state.customizations;
  if (!Array.isArray(list)) return undefined;
  for (const c of list) if (isRecord(c) && c.id === id) return c;
  for (const c of list) {
    if (!isRecord(c) || c.type === 'mcpServer' || !Array.isArray(c.children)) continue;
    for (const child of c.children) if (isRecord(child) && child.id === id) return child;
  }
  return undefined;
}

/**
 * Rewrites the older `session/customizationToggled {id, enabled}` as the 1.x `{id, enablement}` shape, so
 * a 1.1 peer never sees an entry with `enabled:false` and no `enablement` (which it reads as enabled).
 * The older action was a whole decision for this session's view of the entry, so the result keeps the
 * entry's existing decisions and sets the most specific one (the one that wins) to `enabled`; an entry
 * without decisions gets a `global` one, as `<ahp-mcp-server>` does. Any other action (or a toggle that
 * already carries `enablement`) comes back as the same object.
 */
export function normalizeCustomizationToggle<A>(state: SessionState | undefined, action: A): A {
  const a = action as unknown as Rec;
  if (!isRecord(a) || a.type !== 'session/customizationToggled' || !isAbsent(a.enablement) || typeof a.enabled !== 'boolean') return action;
  const entry = state && isString(a.id) ? findCustomization(state, a.id) : undefined;
  const current: unknown[] = entry && Array.isArray(entry.enablement) ? entry.enablement : [];
  const [first, ...rest] = current.filter(isEnablement);
  const enablement: CustomizationEnablement[] = first ? [{ ...first, enabled: a.enabled }, ...rest] : [{ kind: 'global', enabled: a.enabled }];
  const { enabled: _older, ...others } = a;
  return { ...others, enablement } as unknown as A;
}

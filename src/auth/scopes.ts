import type { McpAuthRequirement } from '../protocol/customizations.js';

/** Scopes to request: `requiredScopes` when given, else the resource's `scopes_supported`, else none. */
export function chooseScopes(req: McpAuthRequirement): string[] | undefined {
  const pick = (s: unknown) => (Array.isArray(s) && s.length ? s.filter((x): x is string => typeof x === 'string') : undefined);
  return pick(req.requiredScopes) ?? pick(req.resource?.scopes_supported);
}

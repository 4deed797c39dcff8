import type { CustomizationEnablement, McpServerCustomization } from '../../src/protocol/customizations.js';

/**
 * The `enablement` list to send with `session/customizationToggled` so the server's own effective
 * value becomes `enabled`: existing entries are kept and the first (most specific) one gets the new
 * value; a server without entries (or with only the older `enabled` boolean) gets a `global` entry.
 */
export function toggledEnablement(server: McpServerCustomization, enabled: boolean): CustomizationEnablement[] {
  const list: readonly unknown[] = Array.isArray(server.enablement) ? server.enablement : [];
  const [first, ...rest] = list;
  if (typeof first !== 'object' || first === null) return [{ kind: 'global', enabled }];
  return [{ ...(first as CustomizationEnablement), enabled }, ...(rest as CustomizationEnablement[])];
}

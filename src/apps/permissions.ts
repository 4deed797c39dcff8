import type { McpUiResourcePermissions } from './types.js';

// `_meta.ui.permissions` key → Permissions-Policy feature of the iframe `allow` attribute.
const FEATURES = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
} as const satisfies Record<keyof McpUiResourcePermissions, string>;

/** The permissions actually granted: only the known keys whose value is an object; undefined when none. */
export function normalizePermissions(permissions: unknown): McpUiResourcePermissions | undefined {
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions)) return undefined;
  const out: McpUiResourcePermissions = {};
  for (const key of Object.keys(FEATURES) as (keyof McpUiResourcePermissions)[]) {
    const value = (permissions as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) out[key] = {};
  }
  return Object.keys(out).length ? out : undefined;
}

/** The iframe `allow` attribute for these permissions (`"camera; clipboard-write"`); '' when none. */
export function buildAllowAttribute(permissions: unknown): string {
  const granted = normalizePermissions(permissions);
  if (!granted) return '';
  return (Object.keys(FEATURES) as (keyof McpUiResourcePermissions)[])
    .filter((key) => granted[key])
    .map((key) => FEATURES[key])
    .join('; ');
}

/** The `allow` attribute of every permission whose feature `allows` grants (as `buildAllowAttribute` orders them). */
export function allowAttributeOf(allows: (feature: string) => boolean): string {
  return Object.values(FEATURES).filter(allows).join('; ');
}

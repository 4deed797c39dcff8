/**
 * A safe download file name from a resource URI (its last path segment) or a proposed name: no path
 * separators, control characters, reserved characters, leading dots or trailing dots/spaces; ≤ 120 chars.
 */
export function sanitizeFileName(source: unknown, fallback = 'download'): string {
  let name = typeof source === 'string' ? source : '';
  try {
    if (/^[a-z][a-z0-9+.-]*:/i.test(name)) name = new URL(name).pathname;
  } catch {
    // Not a URL: use it as given.
  }
  try {
    name = decodeURIComponent(name);
  } catch {
    // Keep the raw text.
  }
  name = name.split(/[\\/]/).filter(Boolean).pop() ?? '';
  name = name
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .slice(0, 120);
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(name)) name = `_${name}`;
  return name || fallback;
}

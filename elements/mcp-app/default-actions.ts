import type { DownloadRequest } from '../../src/apps/bridge.js';
import { base64Bytes } from '../../src/apps/base64.js';

/**
 * Opens an http(s) link in a new window without opener or referrer; false when it is not http(s) or the popup was
 * blocked. (With 'noopener' `window.open` always returns null; this opens blank, cuts the opener, then navigates,
 * so a blocked popup is reported as a failure instead of a success.)
 */
export function openLinkSafely(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const win = window.open('', '_blank');
  if (!win) return false;
  try {
    win.opener = null;
    win.document.write('<meta name="referrer" content="no-referrer">');
    win.location.replace(parsed.href);
  } catch {
    win.close();
    return false;
  }
  return true;
}

/** Saves each file of a View's download request (text or base64 blob resources; others, and malformed blobs, are skipped). */
export function saveDownloads(request: DownloadRequest): void {
  for (const { fileName, item } of request.contents) {
    const resource = (item['resource'] ?? {}) as { text?: unknown; blob?: unknown; mimeType?: unknown };
    const type = typeof resource.mimeType === 'string' ? resource.mimeType : 'application/octet-stream';
    let blob: Blob | undefined;
    try {
      if (typeof resource.text === 'string') blob = new Blob([resource.text], { type });
      else if (typeof resource.blob === 'string') blob = new Blob([base64Bytes(resource.blob)], { type });
    } catch {
      // Not base64: this file is skipped, the others are still saved.
    }
    if (!blob) continue;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
}

/** What the authorization server sent to the redirect URI. */
export interface CallbackParams {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
  iss?: string;
}

import { CALLBACK_MESSAGE, PENDING_KEY, RESULT_KEY } from './flow-keys.js';

export { CALLBACK_MESSAGE, PENDING_KEY, RESULT_KEY };

const FIELDS = ['code', 'state', 'error', 'error_description', 'iss'] as const;

/** Picks the callback fields (strings only) out of a query string or a posted message. */
export function callbackParams(source: URLSearchParams | Record<string, unknown>): CallbackParams {
  const out: CallbackParams = {};
  for (const f of FIELDS) {
    const v = source instanceof URLSearchParams ? source.get(f) : source[f];
    if (typeof v === 'string') out[f] = v;
  }
  return out;
}

/**
 * Call this once in the page at your redirect URI. In a popup it posts the result to the opener — only
 * if the opener has this page's origin — and closes; in the redirect flow it stores the result and
 * returns to the page that started the flow. Returns false when there was nothing to complete.
 */
export function completeAuthorizationInCallbackPage(): boolean {
  const q = new URLSearchParams(location.search);
  if (!q.has('state')) return false;
  const data = { type: CALLBACK_MESSAGE, ...callbackParams(q) };
  // The code must not linger in the address bar or history.
  history.replaceState(null, '', location.pathname);
  const opener = window.opener as Window | null;
  if (opener && opener !== window) {
    opener.postMessage(data, location.origin);
    setTimeout(() => window.close(), 500);
    return true;
  }
  const pending = sessionStorage.getItem(PENDING_KEY);
  if (!pending) return false;
  sessionStorage.setItem(RESULT_KEY, JSON.stringify(data));
  let back: unknown;
  try {
    back = JSON.parse(pending).returnTo;
  } catch {
    back = undefined;
  }
  // Only ever return to this origin.
  location.replace(typeof back === 'string' && new URL(back, location.href).origin === location.origin ? back : '/');
  return true;
}

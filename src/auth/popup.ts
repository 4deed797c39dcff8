import { CALLBACK_MESSAGE, callbackParams, type CallbackParams } from './callback.js';
import { AuthError } from './errors.js';

/**
 * Resolves with the callback parameters the popup's callback page posts from the redirect URI's origin;
 * rejects with `popup_closed` if the popup closes first. Messages from any other window or origin are ignored.
 */
export function waitForPopupCallback(popup: Window, redirectUri: string): Promise<CallbackParams> {
  const origin = new URL(redirectUri).origin;
  return new Promise((resolve, reject) => {
    const stop = () => {
      removeEventListener('message', onMessage);
      clearInterval(timer);
    };
    const onMessage = (e: MessageEvent) => {
      const d: unknown = e.data;
      if (e.source !== popup || e.origin !== origin || !d || typeof d !== 'object' || (d as { type?: unknown }).type !== CALLBACK_MESSAGE) return;
      stop();
      resolve(callbackParams(d as Record<string, unknown>));
    };
    const timer = setInterval(() => {
      if (!popup.closed) return;
      stop();
      reject(new AuthError('popup_closed'));
    }, 250);
    addEventListener('message', onMessage);
  });
}

// Script of the shipped callback page (callback.html).
import { completeAuthorizationInCallbackPage } from './callback.js';

if (!completeAuthorizationInCallbackPage()) {
  document.body.textContent = 'Nothing to complete here. You can close this window.';
}

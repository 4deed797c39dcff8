// What `<ahp-session>` loads on demand to run a sign-in (kept apart so the elements bundle does not carry the driver).
export { authorize, resumeRedirectFlow } from './authorize.js';
export { defaultCallbackUrl } from './callback-url.js';

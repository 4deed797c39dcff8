/** `type` of the message the callback page posts to its opener. */
export const CALLBACK_MESSAGE = 'ahp-oauth-callback';
/** sessionStorage keys of the redirect flow (one flow per tab). */
export const PENDING_KEY = 'ahp-oauth:pending';
export const RESULT_KEY = 'ahp-oauth:result';

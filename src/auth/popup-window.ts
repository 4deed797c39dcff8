/**
 * Opens an empty sign-in popup; null (or undefined without `window.open`) when the browser blocks it, as outside a
 * click's user activation. With `onlyInClick`, no window is tried when the browser says there is no activation (a
 * background refresh of an expired token): a try would show a "pop-up blocked" notice, or flash a blank window.
 */
export const openPopupWindow = (onlyInClick?: boolean): Window | null | undefined =>
  onlyInClick && globalThis.navigator?.userActivation?.isActive === false ? null : globalThis.open?.('', '_blank', 'popup,width=520,height=700');

/** Opens an empty sign-in popup; null (or undefined without `window.open`) when the browser blocks it, as outside a click's user activation. */
export const openPopupWindow = (): Window | null | undefined => globalThis.open?.('', '_blank', 'popup,width=520,height=700');

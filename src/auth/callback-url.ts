/** URL of the callback page this package ships (next to this module in every build). */
export const defaultCallbackUrl = (): string => new URL('./callback.html', import.meta.url).href;

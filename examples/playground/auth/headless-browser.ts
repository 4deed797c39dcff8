/**
 * The user's side of an authorization request without a browser (tests, conformance): follows the authorization
 * endpoint's redirects and answers an HTML consent form (our `consent-page.ts`, or any form with a submit button
 * carrying `decision`), until the authorization server redirects to `redirectUri`.
 */

export interface HeadlessUserOptions {
  /** The client's redirect URI: the walk stops at the first redirect there (it is never fetched). */
  redirectUri: string;
  /** Which consent button to press; default allow. */
  decision?: 'allow' | 'deny';
  fetch?: typeof fetch;
  /** Safety stop for redirect loops. */
  maxSteps?: number;
}

const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag)?.[1];
const unescapeHtml = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The consent form's action and fields (hidden inputs + the chosen button), or undefined if the page has none. */
export function readConsentForm(html: string, decision: 'allow' | 'deny'): { action: string; fields: URLSearchParams } | undefined {
  const form = /<form\b[^>]*>/i.exec(html)?.[0];
  if (!form) return undefined;
  const fields = new URLSearchParams();
  for (const input of html.match(/<input\b[^>]*>/gi) ?? []) {
    const name = attr(input, 'name');
    if (name && /type\s*=\s*"hidden"/i.test(input)) fields.set(unescapeHtml(name), unescapeHtml(attr(input, 'value') ?? ''));
  }
  const button = (html.match(/<button\b[^>]*>/gi) ?? []).find((b) => attr(b, 'value') === decision);
  if (!button) return undefined;
  fields.set(unescapeHtml(attr(button, 'name') ?? 'decision'), decision);
  return { action: unescapeHtml(attr(form, 'action') ?? ''), fields };
}

/** Walks from the authorization URL to the callback; resolves with the callback URL's query parameters. */
export async function completeAuthorizationHeadlessly(authorizationUrl: string, options: HeadlessUserOptions): Promise<URLSearchParams> {
  const fetchImpl = options.fetch ?? fetch;
  const decision = options.decision ?? 'allow';
  let url = authorizationUrl;
  let init: RequestInit = { redirect: 'manual' };
  for (let step = 0; step < (options.maxSteps ?? 10); step++) {
    const res = await fetchImpl(url, init);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url).href;
      if (next.startsWith(options.redirectUri)) return new URL(next).searchParams;
      url = next;
      init = { redirect: 'manual' };
      continue;
    }
    const body = await res.text();
    if (!res.ok) throw new Error(`Authorization page ${url} answered HTTP ${res.status}: ${body.slice(0, 200)}`);
    const form = readConsentForm(body, decision);
    if (!form) throw new Error(`Authorization page ${url} has no consent form with a "${decision}" button`);
    url = new URL(form.action || url, url).href;
    init = { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.fields.toString() };
  }
  throw new Error(`No redirect to ${options.redirectUri} after ${options.maxSteps ?? 10} steps`);
}

/** The authorization server's consent page: a plain HTML form with Allow and Deny buttons. */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface ConsentPageInput {
  consentId: string;
  /** Path the form posts to. */
  action: string;
  /** What the user reads as the client's name (see `clientDisplayName`). */
  clientName: string;
  /** Where the client gets the code back (shown so the user can tell which page asks). */
  redirectOrigin?: string;
  scopes: string[];
}

const originOf = (uri: unknown): string | undefined => {
  try {
    return typeof uri === 'string' ? new URL(uri).origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A name a user can recognise: the registered `client_name`; else the host of a URL client id (a Client ID Metadata
 * Document); else the origin the client redirects to; never a bare generated id.
 */
export function clientDisplayName(client: { client_id: string; client_name?: string | undefined; redirect_uris?: readonly unknown[] | undefined }): string {
  if (client.client_name?.trim()) return client.client_name.trim();
  if (/^https?:\/\//i.test(client.client_id)) {
    try {
      return new URL(client.client_id).host;
    } catch {
      // fall through
    }
  }
  const origin = originOf(client.redirect_uris?.[0]);
  return origin ? `The page at ${origin}` : 'An unnamed application';
}

/** Renders the page; the buttons carry `decision=allow|deny`. */
export function consentPage({ consentId, action, clientName, redirectOrigin, scopes }: ConsentPageInput): string {
  const items = scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Authorize ${escapeHtml(clientName)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem}</style>
</head><body>
<h1>Playground sign-in</h1>
<p><strong>${escapeHtml(clientName)}</strong> asks for access to the protected MCP server with these scopes:</p>
<ul>${items || '<li>(none)</li>'}</ul>
${redirectOrigin ? `<p>After you answer, you go back to <code>${escapeHtml(redirectOrigin)}</code>.</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="consent" value="${escapeHtml(consentId)}">
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>
</body></html>`;
}

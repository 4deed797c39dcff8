/** The authorization server's consent page: a plain HTML form with Allow and Deny buttons. */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface ConsentPageInput {
  consentId: string;
  /** Path the form posts to. */
  action: string;
  clientName: string;
  scopes: string[];
}

/** Renders the page; the buttons carry `decision=allow|deny`. */
export function consentPage({ consentId, action, clientName, scopes }: ConsentPageInput): string {
  const items = scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Authorize ${escapeHtml(clientName)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem}</style>
</head><body>
<h1>Playground sign-in</h1>
<p><strong>${escapeHtml(clientName)}</strong> asks for access to the protected MCP server with these scopes:</p>
<ul>${items || '<li>(none)</li>'}</ul>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="consent" value="${escapeHtml(consentId)}">
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>
</body></html>`;
}

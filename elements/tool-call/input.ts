import { html, nothing } from 'lit';
import type { ContentRef } from '../../src/protocol/common.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';

/** `n` bytes as a short human size. */
export function formatSize(n: unknown): string {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A content reference as a plain label (no link: `uri` may be any scheme). */
export function refLabel(ref: Partial<ContentRef>): string {
  const extra = [ref.contentType, formatSize(ref.sizeHint)].filter(Boolean).join(', ');
  return `${typeof ref.uri === 'string' ? ref.uri : ''}${extra ? ` (${extra})` : ''}`;
}

/** `text` pretty-printed when it parses as JSON, else unchanged. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2) ?? text;
  } catch {
    return text;
  }
}

/** The input as a collapsed `<details>`: streamed text, pretty JSON, or a content-reference label. */
export function renderInput(tc: ToolCallState) {
  const t = tc as { partialInput?: unknown; toolInput?: unknown };
  let body;
  let kind: string;
  if (tc.status === 'streaming') {
    if (typeof t.partialInput !== 'string' || !t.partialInput) return nothing;
    [kind, body] = ['partial', html`<pre>${t.partialInput}</pre>`];
  } else if (typeof t.toolInput === 'string') {
    [kind, body] = ['inline', html`<pre>${prettyJson(t.toolInput)}</pre>`];
  } else if (t.toolInput && typeof t.toolInput === 'object') {
    [kind, body] = ['ref', html`<p class="ref">Stored input: ${refLabel(t.toolInput as ContentRef)}</p>`];
  } else return nothing;
  return html`<details part="input" data-input=${kind}>
    <summary>${kind === 'partial' ? 'Input (streaming)' : 'Input'}</summary>
    ${body}
  </details>`;
}

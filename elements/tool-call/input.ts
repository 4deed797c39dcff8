import { html, nothing } from 'lit';
import type { ContentRef } from '../../src/protocol/common.js';
import type { ToolCallState } from '../../src/protocol/tool-calls.js';
import type { LocaleController } from '../shared/i18n.js';

/** `n` bytes as a short human size in the element's language (`Intl.NumberFormat` byte units). */
export function formatSize(n: unknown, l: LocaleController): string {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return '';
  const [value, unit] = n < 1024 ? [n, 'byte'] : n < 1024 * 1024 ? [n / 1024, 'kilobyte'] : [n / 1024 / 1024, 'megabyte'];
  const bytes = unit === 'byte';
  return l.number(value, { style: 'unit', unit, unitDisplay: bytes ? 'long' : 'short', maximumFractionDigits: bytes ? 0 : 1, minimumFractionDigits: bytes ? 0 : 1 });
}

/** A content reference as a plain label (no link: `uri` may be any scheme). */
export function refLabel(ref: Partial<ContentRef>, l: LocaleController): string {
  const extra = [ref.contentType, formatSize(ref.sizeHint, l)].filter(Boolean).join(', ');
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
export function renderInput(tc: ToolCallState, l: LocaleController) {
  const t = tc as { partialInput?: unknown; toolInput?: unknown };
  let body;
  let kind: string;
  if (tc.status === 'streaming') {
    if (typeof t.partialInput !== 'string' || !t.partialInput) return nothing;
    [kind, body] = ['partial', html`<pre>${t.partialInput}</pre>`];
  } else if (typeof t.toolInput === 'string') {
    [kind, body] = ['inline', html`<pre>${prettyJson(t.toolInput)}</pre>`];
  } else if (t.toolInput && typeof t.toolInput === 'object') {
    [kind, body] = ['ref', html`<p class="ref">${l.t('toolCall.storedInput', { ref: refLabel(t.toolInput as ContentRef, l) })}</p>`];
  } else return nothing;
  return html`<details part="input" data-input=${kind}>
    <summary>${l.t(kind === 'partial' ? 'toolCall.inputStreaming' : 'toolCall.input')}</summary>
    ${body}
  </details>`;
}

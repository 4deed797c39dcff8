import { html, nothing } from 'lit';
import type { FileEdit } from '../../src/protocol/common.js';
import type { ToolResultContent } from '../../src/protocol/tool-calls.js';
import { formatSize, refLabel } from './input.js';
import type { LocaleController } from '../shared/i18n.js';

type Rec = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const IMAGE = /^image\/[\w.+-]+$/i;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Decoded size of base64 text. */
const base64Size = (data: string): number => {
  const clean = data.replace(/\s/g, '');
  return Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0);
};

/** One-line summary of a file edit: created, deleted, renamed or edited, with the diff counts. */
export function fileEditSummary(e: Partial<FileEdit>, l: LocaleController): string {
  const before = str(e.before?.uri);
  const after = str(e.after?.uri);
  const verb = !before
    ? l.t('toolCall.created', { uri: after })
    : !after
      ? l.t('toolCall.deleted', { uri: before })
      : before !== after
        ? l.t('toolCall.renamed', { from: before, to: after })
        : l.t('toolCall.edited', { uri: after });
  const d = e.diff;
  const diff = d ? [d.added ? `+${l.number(d.added)}` : '', d.removed ? `−${l.number(d.removed)}` : ''].filter(Boolean).join(' ') : '';
  return diff ? `${verb} (${diff})` : verb;
}

function renderItem(c: Rec, l: LocaleController) {
  switch (c.type) {
    case 'text':
      return html`<div class="text">${str(c.text)}</div>`;
    case 'embeddedResource': {
      const type = str(c.contentType);
      const data = str(c.data);
      if (IMAGE.test(type) && BASE64.test(data)) {
        return html`<img class="image" src=${`data:${type};base64,${data.replace(/\s/g, '')}`} alt=${l.t('toolCall.imageAlt', { type })} />`;
      }
      const size = formatSize(base64Size(data), l);
      return html`<p class="label">${type ? l.t('toolCall.embedded', { type, size }) : l.t('toolCall.embeddedData', { size })}</p>`;
    }
    case 'resource':
      return html`<p class="label">${l.t('toolCall.resource', { ref: refLabel(c, l) })}</p>`;
    case 'fileEdit':
      return html`<p class="label">${fileEditSummary(c, l)}</p>`;
    case 'terminal': {
      const r = (c.result ?? {}) as { exitCode?: unknown; preview?: unknown; truncated?: unknown };
      return html`<div class="terminal">
        <p class="label">${l.t('toolCall.terminal', { title: str(c.title) })}${typeof r.exitCode === 'number' ? html` <span class="exit">${l.t('toolCall.exitCode', { code: String(r.exitCode) })}</span>` : nothing}</p>
        ${typeof r.preview === 'string' ? html`<pre>${r.preview}${r.truncated === true ? '\n…' : ''}</pre>` : nothing}
      </div>`;
    }
    case 'subagent':
      return html`<p class="label">${l.t('toolCall.subagent', { title: str(c.title) })}${c.agentName ? ` (${str(c.agentName)})` : ''}${c.description
        ? html`<br /><span class="muted">${str(c.description)}</span>`
        : nothing}</p>`;
    default:
      return html`<p class="label muted">${l.t('toolCall.unsupported', { type: str(c.type) || 'unknown' })}</p>`;
  }
}

/** Result (or live partial) content items; each carries `data-content-type` with its raw type. */
export function renderContent(content: readonly ToolResultContent[] | undefined, l: LocaleController) {
  if (!Array.isArray(content) || !content.length) return nothing;
  return html`<ul class="content">
    ${content.map((c: unknown) =>
      c && typeof c === 'object'
        ? html`<li data-content-type=${str((c as Rec).type) || 'unknown'}>${renderItem(c as Rec, l)}</li>`
        : nothing,
    )}
  </ul>`;
}

/** Structured content as a collapsed, pretty-printed JSON block. */
export function renderStructured(value: unknown, l: LocaleController) {
  if (!value || typeof value !== 'object') return nothing;
  let text: string;
  try {
    text = JSON.stringify(value, null, 2);
  } catch {
    return nothing;
  }
  return html`<details class="structured"><summary>${l.t('toolCall.structured')}</summary><pre>${text}</pre></details>`;
}

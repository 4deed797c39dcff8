import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { ResponsePart } from '../../src/protocol/session.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { renderMarkdown, renderStringOrMarkdown } from '../shared/markdown.js';
import type { LocaleController } from '../shared/i18n.js';
import { renderAnsweredRequest, renderInputRequestForm } from '../shared/input-request-form.js';
import { isRecord } from '../../src/protocol/guards.js';

type Rec = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A stable key for a response part (its id, the tool-call id, else its index). */
export function partKey(part: unknown, index: number): string {
  if (!isRecord(part)) return `#${index}`;
  if (part.kind === 'toolCall' && isRecord(part.toolCall) && typeof part.toolCall.toolCallId === 'string') {
    return `toolCall:${part.toolCall.toolCallId}`;
  }
  return typeof part.id === 'string' ? `${str(part.kind)}:${part.id}` : `#${index}`;
}

/**
 * What a part renders inside `<ahp-chat>`; unknown kinds render nothing. `answerable` (the element, for
 * parts of the active turn) lets an open input request be answered in place.
 */
export function renderPart(part: ResponsePart | unknown, chat: string, store: SessionStoreLike | undefined, l: LocaleController, answerable?: HTMLElement): TemplateResult | typeof nothing {
  if (!isRecord(part)) return nothing;
  switch (part.kind) {
    case 'markdown':
      return html`<div class="markdown" data-part="markdown">${renderMarkdown(str(part.content))}</div>`;
    case 'reasoning':
      return html`<details class="reasoning" data-part="reasoning"><summary>${l.t('chat.reasoning')}</summary><div class="markdown">${renderMarkdown(str(part.content))}</div></details>`;
    case 'toolCall': {
      const id = isRecord(part.toolCall) ? str(part.toolCall.toolCallId) : '';
      if (!id) return nothing;
      return html`<ahp-tool-call data-part="toolCall" chat=${chat} tool-call-id=${id} .store=${store} .connectionNotice=${false}></ahp-tool-call>`;
    }
    case 'systemNotification':
      return html`<div class="notification" data-part="systemNotification" role="note">${renderStringOrMarkdown(part.content as never)}</div>`;
    case 'contentRef':
      return html`<p class="reference" data-part="contentRef">${l.t('chat.attachment')} <span class="uri">${str(part.uri)}</span></p>`;
    case 'inputRequest': {
      const request = isRecord(part.request) ? part.request : {};
      return part.response === undefined && answerable
        ? renderInputRequestForm(request, { chat, store, host: answerable, l })
        : renderAnsweredRequest(request, part.response, l);
    }
    case 'error': {
      const error = isRecord(part.error) ? part.error : {};
      const type = str(error.errorType);
      return html`<p class="error" data-part="error"><strong>${type ? l.t('chat.errorType', { type }) : l.t('chat.error')}</strong> ${str(error.message) || l.t('chat.errorFallback')}</p>`;
    }
    default:
      return nothing;
  }
}

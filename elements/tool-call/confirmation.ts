import { html, nothing } from 'lit';
import type { ConfirmationOption, ToolCallPendingConfirmationState } from '../../src/protocol/tool-calls.js';
import { renderStringOrMarkdown } from '../shared/markdown.js';
import { fileEditSummary } from './result-content.js';
import type { LocaleController } from '../shared/i18n.js';

/** What the confirmation buttons call back with. */
export interface ConfirmationHandlers {
  approve(optionId?: string): void;
  deny(optionId?: string): void;
  edited(text: string): void;
}

const validOptions = (options: unknown): ConfirmationOption[] =>
  Array.isArray(options)
    ? options
        .filter((o: Partial<ConfirmationOption> | null) => typeof o?.id === 'string' && (o.kind === 'approve' || o.kind === 'deny'))
        .sort((a, b) => (a.group ?? 0) - (b.group ?? 0))
    : [];

function renderRisk(risk: ToolCallPendingConfirmationState['riskAssessment'], l: LocaleController) {
  if (!risk || typeof risk !== 'object') return nothing;
  if (risk.status !== 'complete') return html`<p class="risk" data-risk="loading">${l.t('toolCall.assessingRisk')}</p>`;
  const safety = typeof risk.safety === 'number' ? Math.min(1, Math.max(0, risk.safety)) : 0;
  const level = safety < 0.34 ? 'high' : safety < 0.67 ? 'medium' : 'low';
  return html`<div class="risk" data-risk=${level}>
    <strong>${l.t(`toolCall.risk.${level}`)}</strong> ${l.t('toolCall.safety', { percent: l.number(Math.round(safety * 100) / 100, { style: 'percent' }) })}
    <div class="md">${renderStringOrMarkdown(risk.reason)}</div>
  </div>`;
}

/** The confirmation block: title, risk, proposed edits, editable input and the option (or Approve/Deny) buttons. */
export function renderConfirmation(tc: ToolCallPendingConfirmationState, editedInput: string | undefined, on: ConfirmationHandlers, l: LocaleController) {
  const options = validOptions(tc.options);
  const editable = tc.editable === true && typeof tc.toolInput === 'string';
  const edits = Array.isArray(tc.edits?.items) ? tc.edits.items : [];
  return html`<div class="confirm">
    ${tc.confirmationTitle ? html`<div class="md title">${renderStringOrMarkdown(tc.confirmationTitle)}</div>` : nothing}
    ${renderRisk(tc.riskAssessment, l)}
    ${edits.length ? html`<ul class="edits">${edits.map((e) => html`<li>${fileEditSummary(e, l)}</li>`)}</ul>` : nothing}
    ${editable
      ? html`<label class="edit"
          >${l.t('toolCall.editInput')}
          <textarea
            data-edit-input
            spellcheck="false"
            .value=${editedInput ?? (tc.toolInput as string)}
            @input=${(e: Event) => on.edited((e.target as HTMLTextAreaElement).value)}
          ></textarea>
        </label>`
      : nothing}
    <div part="actions" class="actions">
      ${options.length
        ? options.map(
            (o) => html`<button
              type="button"
              data-action=${o.kind}
              data-option-id=${o.id}
              data-group=${o.group ?? 0}
              @click=${() => (o.kind === 'approve' ? on.approve(o.id) : on.deny(o.id))}
            >${typeof o.label === 'string' && o.label ? o.label : o.id}</button>`,
          )
        : html`<button type="button" data-action="approve" class="primary" @click=${() => on.approve()}>${l.t('toolCall.approve')}</button>
            <button type="button" data-action="deny" @click=${() => on.deny()}>${l.t('toolCall.deny')}</button>`}
    </div>
  </div>`;
}

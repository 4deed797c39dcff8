import { html, nothing, type TemplateResult } from 'lit';
import type { ChatInputAnswer, ChatInputResponse } from '../../src/protocol/chat-extras.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { inputCompleted } from '../../src/intents/chat.js';
import { AhpChatInputAnswerEvent } from './events.js';
import { runIntent, type Intent } from './intents.js';
import type { LocaleController } from './i18n.js';
import { isRecord } from '../../src/protocol/guards.js';
import { QUESTION_EN } from '../locales/en/question.js';
import { addEnglish } from './i18n.js';

addEnglish(QUESTION_EN);

type Rec = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Where an answer goes: the chat to dispatch on, the store, and the element that fires the cancelable event. */
export interface InputRequestTarget {
  chat: string;
  store: SessionStoreLike | undefined;
  host: HTMLElement;
  /** The element's locale, for every visible string. */
  l: LocaleController;
}

/** The draft (or given) value of a question, for pre-filling its control. */
function draftOf(request: Rec, questionId: string): unknown {
  const answer = isRecord(request.answers) ? request.answers[questionId] : undefined;
  return isRecord(answer) && isRecord(answer.value) ? answer.value.value : undefined;
}

function options(q: Rec): Rec[] {
  return Array.isArray(q.options) ? q.options.filter(isRecord) : [];
}

function renderControl(q: Rec, request: Rec, l: LocaleController): TemplateResult {
  const id = str(q.id);
  const name = `q:${id}`;
  const draft = draftOf(request, id) ?? q.defaultValue;
  const required = q.required === true;
  switch (q.kind) {
    case 'text':
      return html`<input type="text" name=${name} .value=${str(draft)} ?required=${required} minlength=${num(q.min) ?? nothing} maxlength=${num(q.max) ?? nothing} />`;
    case 'number':
    case 'integer':
      return html`<input type="number" name=${name} step=${q.kind === 'integer' ? '1' : 'any'} .value=${draft === undefined ? '' : String(draft)} ?required=${required} min=${num(q.min) ?? nothing} max=${num(q.max) ?? nothing} />`;
    case 'boolean':
      return html`<input type="checkbox" name=${name} .checked=${draft === true} />`;
    case 'single-select':
    case 'multi-select': {
      const multi = q.kind === 'multi-select';
      const chosen = new Set(Array.isArray(draft) ? draft : [draft]);
      return html`<span class="options" role=${multi ? 'group' : 'radiogroup'}>
        ${options(q).map(
          (o) => html`<label class="option"><input type=${multi ? 'checkbox' : 'radio'} name=${name} value=${str(o.id)} .checked=${chosen.has(o.id)} ?required=${required && !multi} />
            ${str(o.label) || str(o.id)}${o.recommended === true ? html` <span class="recommended">${l.t('question.recommended')}</span>` : nothing}</label>`,
        )}
        ${q.allowFreeformInput === true ? html`<input type="text" name=${`${name}:other`} aria-label=${l.t('question.otherLabel')} placeholder=${l.t('question.other')} />` : nothing}
      </span>`;
    }
    default:
      return html`<span class="muted">${l.t('question.unsupported', { kind: str(q.kind) })}</span>`;
  }
}

/** Reads one question's answer from the form; undefined for a kind this form does not know. */
function answerOf(q: Rec, data: FormData): ChatInputAnswer | undefined {
  const name = `q:${str(q.id)}`;
  const text = (k: string) => (typeof data.get(k) === 'string' ? (data.get(k) as string).trim() : '');
  const other = text(`${name}:other`);
  const skipped: ChatInputAnswer = { state: 'skipped' };
  switch (q.kind) {
    case 'text':
      return text(name) ? { state: 'submitted', value: { kind: 'text', value: text(name) } } : skipped;
    case 'number':
    case 'integer': {
      const n = Number(text(name));
      return text(name) && Number.isFinite(n) ? { state: 'submitted', value: { kind: 'number', value: n } } : skipped;
    }
    case 'boolean':
      return { state: 'submitted', value: { kind: 'boolean', value: data.get(name) !== null } };
    case 'single-select': {
      const value = text(name);
      if (!value && !other) return skipped;
      return { state: 'submitted', value: { kind: 'selected', value, ...(other && { freeformValues: [other] }) } };
    }
    case 'multi-select': {
      const values = data.getAll(name).filter((v): v is string => typeof v === 'string');
      if (!values.length && !other) return skipped;
      return { state: 'submitted', value: { kind: 'selected-many', value: values, ...(other && { freeformValues: [other] }) } };
    }
    default:
      return undefined;
  }
}

/** Answer (or decline) an agent's question on its chat: `ahp-chat-input-answer`, then `chat/inputCompleted`. */
export function answerQuestion(chat: string, requestId: string, response: ChatInputResponse, answers: Record<string, ChatInputAnswer>): Intent {
  return [new AhpChatInputAnswerEvent({ chat, requestId, response, answers }), inputCompleted(requestId, response, answers)];
}

/**
 * Fires the cancelable event (from the form, so it bubbles through the row that shows it, else from the
 * host), then dispatches `chat/inputCompleted` on the request's chat.
 */
function complete(target: InputRequestTarget, from: Element | null, requestId: string, response: ChatInputResponse, answers: Record<string, ChatInputAnswer>): void {
  runIntent(from?.isConnected ? from : target.host, answerQuestion(target.chat, requestId, response, answers), target.store, target.chat);
}

/**
 * An agent's question (`ChatInputRequest`) as a form answered in place: one control per question kind
 * (text, number/integer, boolean, single- and multi-select with optional free text), pre-filled from draft
 * answers; Submit sends `chat/inputCompleted` with `accept` and the answers, Decline with `decline`.
 */
export function renderInputRequestForm(request: Rec, target: InputRequestTarget): TemplateResult {
  const requestId = str(request.id);
  const questions = Array.isArray(request.questions) ? request.questions.filter(isRecord) : [];
  const onSubmit = (e: SubmitEvent): void => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const answers: Record<string, ChatInputAnswer> = {};
    for (const q of questions) {
      const answer = answerOf(q, data);
      if (answer) answers[str(q.id)] = answer;
    }
    complete(target, form, requestId, 'accept', answers);
  };
  return html`<form class="input-request" data-part="inputRequest" data-request-id=${requestId} @submit=${onSubmit}>
    ${request.message ? html`<p class="question">${str(request.message)}</p>` : nothing}
    ${typeof request.url === 'string' && /^https?:/i.test(request.url)
      ? html`<p><a href=${request.url} target="_blank" rel="noopener noreferrer">${target.l.t('question.openUrl')}</a></p>`
      : nothing}
    ${questions.map(
      (q) => html`<label class="field" data-question-id=${str(q.id)} data-kind=${str(q.kind)}>
        <span class="label">${str(q.title) || str(q.message)}${q.required === true ? html` <span aria-hidden="true">*</span>` : nothing}</span>
        ${q.title && q.message ? html`<span class="hint">${str(q.message)}</span>` : nothing}
        ${renderControl(q, request, target.l)}
      </label>`,
    )}
    <div class="buttons">
      <button type="submit" data-action="answer">${target.l.t(questions.length ? 'question.submit' : 'question.continue')}</button>
      <button type="button" data-action="decline" @click=${(e: Event) => complete(target, (e.currentTarget as HTMLButtonElement).form, requestId, 'decline', {})}>${target.l.t('question.decline')}</button>
    </div>
  </form>`;
}

/** What a closed request shows: how it was answered. */
export function renderAnsweredRequest(request: Rec, response: unknown, l: LocaleController): TemplateResult {
  const how = l.t(response === 'accept' ? 'question.answered' : response === 'decline' ? 'question.declined' : response === 'cancel' ? 'question.cancelled' : 'question.closed');
  return html`<p class="input-request done" data-part="inputRequest" data-request-id=${str(request.id)} data-response=${str(response)}>
    ${str(request.message) || l.t('question.asked')} <span class="muted">· ${how}</span>
  </p>`;
}

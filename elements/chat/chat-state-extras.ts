import { html, nothing, type TemplateResult } from 'lit';
import type { PendingMessageKind } from '../../src/protocol/chat-extras.js';
import type { ChatState } from '../../src/protocol/session.js';
import { isResumable as isResumableTurn } from '../../src/reducers/chat-history.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { runIntent } from '../shared/intents.js';
import { removePendingIntent, resumeIntent } from './intents.js';
import type { LocaleController } from '../shared/i18n.js';
import { isRecord } from '../../src/protocol/guards.js';

type Rec = Record<string, unknown>;
const textOf = (m: unknown): string => (isRecord(m) && isRecord(m.message) && typeof m.message.text === 'string' ? m.message.text : '');

/** Where the chat's controls dispatch: the element (cancelable events first), its store and chat. */
export interface ChatTarget {
  host: HTMLElement;
  store: SessionStoreLike | undefined;
  chat: string;
  l: LocaleController;
}

/** The chat's activity text (what the agent is doing now), as a polite status line. */
export function renderActivity(state: ChatState): TemplateResult | typeof nothing {
  return typeof state.activity === 'string' && state.activity
    ? html`<p part="activity" class="activity muted" role="status">${state.activity}</p>`
    : nothing;
}

/** Says that older turns exist but are not loaded (a tail window, or a history the host truncated). */
export function renderHistoryNote(state: ChatState, l: LocaleController): TemplateResult | typeof nothing {
  return typeof state.turnsNextCursor === 'string'
    ? html`<p part="history-note" class="history-note muted" data-history="truncated">${l.t('chat.historyTruncated')}</p>`
    : nothing;
}

/** A Resume button under the latest turn when it ended in an error the agent can resume. */
export function renderResume(state: ChatState, turn: unknown, target: ChatTarget): TemplateResult | typeof nothing {
  const turns = Array.isArray(state.turns) ? state.turns : [];
  if (state.activeTurn || turn !== turns[turns.length - 1] || !isResumableTurn(turn) || !isRecord(turn)) return nothing;
  const turnId = String(turn.id);
  const resume = (): void => {
    runIntent(target.host, resumeIntent(target.chat, turnId), target.store, target.chat);
  };
  return html`<p class="resume"><button type="button" part="resume" data-action="resume" @click=${resume}>${target.l.t('chat.resume')}</button>
    <span class="muted">${target.l.t('chat.resumeHint')}</span></p>`;
}

/**
 * The messages waiting to be sent: the steering message (goes into the running response) and the queue
 * (each starts a later turn, in order), each with Remove (`chat/pendingMessageRemoved`).
 */
export function renderPending(state: ChatState, target: ChatTarget): TemplateResult | typeof nothing {
  const steering = isRecord(state.steeringMessage) ? (state.steeringMessage as unknown as Rec) : undefined;
  const queued: Rec[] = Array.isArray(state.queuedMessages) ? (state.queuedMessages as unknown[]).filter(isRecord) : [];
  if (!steering && !queued.length) return nothing;
  const remove = (kind: PendingMessageKind, id: string) => (): void => {
    runIntent(target.host, removePendingIntent(target.chat, kind, id), target.store, target.chat);
  };
  const { l } = target;
  const row = (kind: PendingMessageKind, m: Rec, label: string) => html`<li class="pending-message" data-kind=${kind} data-id=${String(m.id)}>
    <span class="who">${label}</span> <span class="text">${textOf(m)}</span>
    <button type="button" class="link" data-action="remove-pending" aria-label=${l.t('chat.removePendingLabel', { text: textOf(m) })} @click=${remove(kind, String(m.id))}>${l.t('chat.removePending')}</button>
  </li>`;
  return html`<ul part="pending" class="pending" aria-label=${l.t('chat.pendingList')}>
    ${steering ? row('steering', steering, l.t('chat.steering')) : nothing}
    ${queued.map((m, i) => row('queued', m, l.t('chat.queued', { n: i + 1 })))}
  </ul>`;
}

// <ahp-chat> and <ahp-input-needed> over the real SessionStore: the AHP 1.1 chat state users need to see and answer.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../elements/chat/define.js';
import '../../elements/input-needed/define.js';
import type { AhpChat } from '../../elements/chat/chat.js';
import type { AhpInputNeeded } from '../../elements/input-needed/input-needed.js';
import type { ActionEnvelope, ChatState } from '../../src/protocol/index.js';
import { realSessionStore } from './fixtures/real-store.js';
import { session } from './fixtures/sessions.js';

const SESSION = 'ahp-session:/ahp11';
const CHAT = 'ahp-chat:/ahp11';
const T = 't1';
const msg = (text: string) => ({ text, origin: { kind: 'user' } });
const request = {
  id: 'r1',
  message: 'Where should I deploy?',
  questions: [
    { id: 'env', kind: 'single-select', message: 'Environment', required: true, options: [{ id: 'staging', label: 'Staging', recommended: true }, { id: 'prod', label: 'Production' }] },
    { id: 'note', kind: 'text', message: 'Anything else?' },
    { id: 'count', kind: 'integer', message: 'Replicas' },
    { id: 'dry', kind: 'boolean', message: 'Dry run' },
  ],
};

function chatState(): ChatState {
  return { resource: CHAT, title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] };
}

function realStore() {
  const { store, sent } = realSessionStore(SESSION, session([]), async (uri) => ({ resource: uri, fromSeq: 0, state: chatState() }));
  let serverSeq = 0;
  const server = (action: ActionEnvelope['action'], channel = CHAT) => store.receive({ channel, action, serverSeq: ++serverSeq });
  return { store, sent, server };
}

const $ = (el: HTMLElement, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel);
const $$ = (el: HTMLElement, sel: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(sel)];

/** <ahp-chat> over a real store, once the snapshot shows, with a user turn `text` that asks `request`. */
async function chatAsking(text: string) {
  const real = realStore();
  const el = await fixture<AhpChat>(html`<ahp-chat chat=${CHAT} .store=${real.store}></ahp-chat>`);
  await waitUntil(() => $(el, '[data-empty="empty"]'), 'snapshot');
  real.server({ type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T10:00:00.000Z', message: msg(text) });
  real.server({ type: 'chat/inputRequested', request });
  return { ...real, el };
}

describe('<ahp-chat>: AHP 1.1 chat state', () => {
  it('answers an input request in place: the form, its draft answers, Submit sends chat/inputCompleted with typed answers', async () => {
    const { store, sent, server, el } = await chatAsking('deploy it');
    server({ type: 'chat/inputAnswerChanged', requestId: 'r1', questionId: 'note', answer: { state: 'draft', value: { kind: 'text', value: 'after 5pm' } } });
    await waitUntil(() => $(el, 'form.input-request'), 'the question form');
    const form = $(el, 'form.input-request')!;
    expect(form.querySelector('.question')!.textContent).to.contain('Where should I deploy?');
    expect((form.querySelector('[data-question-id="note"] input') as HTMLInputElement).value).to.equal('after 5pm');
    expect(form.querySelectorAll('input[type="radio"]').length).to.equal(2);
    expect(form.textContent).to.contain('(recommended)');

    const answers: unknown[] = [];
    el.addEventListener('ahp-chat-input-answer', (e) => answers.push(e.detail));
    (form.querySelector('input[value="prod"]') as HTMLInputElement).click();
    (form.querySelector('[data-question-id="count"] input') as HTMLInputElement).value = '3';
    (form.querySelector('[data-question-id="dry"] input') as HTMLInputElement).click();
    (form.querySelector('[data-action="answer"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(answers).to.have.length(1);
    const done = sent.at(-1)!;
    expect(done.channel).to.equal(CHAT);
    expect(done.action).to.deep.equal({
      type: 'chat/inputCompleted', requestId: 'r1', response: 'accept',
      answers: {
        env: { state: 'submitted', value: { kind: 'selected', value: 'prod' } },
        note: { state: 'submitted', value: { kind: 'text', value: 'after 5pm' } },
        count: { state: 'submitted', value: { kind: 'number', value: 3 } },
        dry: { state: 'submitted', value: { kind: 'boolean', value: true } },
      },
    });
    // Optimistically closed: the form gives way to what was answered.
    await waitUntil(() => !$(el, 'form.input-request'), 'the form closes');
    expect($(el, '.input-request.done')!.dataset.response).to.equal('accept');
  });

  it('Decline sends decline; a listener can cancel the answer', async () => {
    const { store, sent, server, el } = await chatAsking('go');
    await waitUntil(() => $(el, 'form.input-request'), 'form');
    const stop = (e: Event) => e.preventDefault();
    el.addEventListener('ahp-chat-input-answer', stop);
    ($(el, '[data-action="decline"]') as HTMLButtonElement).click();
    expect(sent.filter((p) => p.action.type === 'chat/inputCompleted')).to.have.length(0);
    el.removeEventListener('ahp-chat-input-answer', stop);
    ($(el, '[data-action="decline"]') as HTMLButtonElement).click();
    expect(sent.at(-1)!.action).to.deep.equal({ type: 'chat/inputCompleted', requestId: 'r1', response: 'decline', answers: {} });
  });

  it('shows queued and steering messages with Remove, the activity text, and a truncated history', async () => {
    const { store, sent, server } = realStore();
    const el = await fixture<AhpChat>(html`<ahp-chat chat=${CHAT} .store=${store}></ahp-chat>`);
    await waitUntil(() => $(el, '[data-empty="empty"]'), 'snapshot');
    server({ type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T10:00:00.000Z', message: msg('start') });
    server({ type: 'chat/pendingMessageSet', kind: 'steering', id: 's1', message: msg('use staging') });
    server({ type: 'chat/pendingMessageSet', kind: 'queued', id: 'q1', message: msg('then write docs') });
    server({ type: 'chat/pendingMessageSet', kind: 'queued', id: 'q2', message: msg('then tests') });
    server({ type: 'chat/activityChanged', activity: 'Running the build' });
    await waitUntil(() => $(el, '[part="pending"]'), 'pending list');
    expect($$(el, '.pending-message').map((li) => [li.dataset.kind, li.querySelector('.text')!.textContent])).to.deep.equal([
      ['steering', 'use staging'], ['queued', 'then write docs'], ['queued', 'then tests'],
    ]);
    expect($(el, '[part="activity"]')!.textContent).to.equal('Running the build');
    ($$(el, '[data-action="remove-pending"]')[1] as HTMLButtonElement).click();
    expect(sent.at(-1)!.action).to.deep.equal({ type: 'chat/pendingMessageRemoved', kind: 'queued', id: 'q1' });
    await waitUntil(() => $$(el, '.pending-message').length === 2, 'optimistic removal');
    server({ type: 'chat/activityChanged' });
    await waitUntil(() => !$(el, '[part="activity"]'), 'activity cleared');

    expect($(el, '[part="history-note"]')).to.equal(null);
    server({ type: 'chat/turnComplete', turnId: T, duration: 5 });
    server({ type: 'chat/turnsLoaded', turns: [], turnsNextCursor: 'older' });
    await waitUntil(() => $(el, '[part="history-note"]'), 'history note');
    server({ type: 'chat/truncated' });
    await waitUntil(() => !$(el, '[part="history-note"]') && $(el, '[data-empty="empty"]'), 'history cleared');
  });

  it('offers Resume under the latest turn when it ended in a resumable error, and not otherwise', async () => {
    const { store, sent, server } = realStore();
    const el = await fixture<AhpChat>(html`<ahp-chat chat=${CHAT} .store=${store}></ahp-chat>`);
    await waitUntil(() => $(el, '[data-empty="empty"]'), 'snapshot');
    server({ type: 'chat/turnStarted', turnId: 't0', startedAt: '2026-02-01T09:00:00.000Z', message: msg('first') });
    server({ type: 'chat/error', turnId: 't0', duration: 3, part: { kind: 'error', error: { errorType: 'fatal', message: 'Broken' } } });
    await waitUntil(() => $(el, '[data-part="error"]'), 'first error');
    expect($(el, '[part="resume"]')).to.equal(null);
    server({ type: 'chat/turnStarted', turnId: T, startedAt: '2026-02-01T10:00:00.000Z', message: msg('second') });
    server({ type: 'chat/error', turnId: T, duration: 3, part: { kind: 'error', error: { errorType: 'rate', message: 'Rate limited' }, resumable: true } });
    await waitUntil(() => $(el, '[part="resume"]'), 'Resume');
    expect($$(el, '[part="resume"]')).to.have.length(1);
    expect($(el, '[part="resume"]')!.closest('[part="turn"]')!.getAttribute('data-turn-id')).to.equal(T);
    ($(el, '[part="resume"]') as HTMLButtonElement).click();
    expect(sent.at(-1)!).to.deep.include({ channel: CHAT });
    expect(sent.at(-1)!.action).to.deep.equal({ type: 'chat/turnResume', turnId: T });
    // Optimistically reopened: the turn is active again, so no Resume.
    await waitUntil(() => !$(el, '[part="resume"]'), 'Resume gone');
    expect($$(el, '[part="turn"]').at(-1)!.dataset.state).to.equal('active');
  });
});

describe('<ahp-input-needed>: chat questions answered in place', () => {
  it('renders the question form for a chatInput entry and answers on its chat', async () => {
    const { store, sent, server } = realStore();
    const el = await fixture<AhpInputNeeded>(html`<ahp-input-needed .store=${store}></ahp-input-needed>`);
    server({ type: 'session/inputNeededSet', request: { kind: 'chatInput', id: 'in1', chat: CHAT, request } }, SESSION);
    await waitUntil(() => $(el, 'form.input-request'), 'form');
    const form = $(el, 'form.input-request')!;
    (form.querySelector('input[value="staging"]') as HTMLInputElement).click();
    (form.querySelector('[data-action="answer"]') as HTMLButtonElement).click();
    await el.updateComplete;
    const done = sent.at(-1)!;
    expect(done.channel).to.equal(CHAT);
    expect(done.action).to.deep.include({ type: 'chat/inputCompleted', requestId: 'r1', response: 'accept' });
    expect((done.action as { answers: Record<string, unknown> }).answers.env).to.deep.equal({ state: 'submitted', value: { kind: 'selected', value: 'staging' } });
    await waitUntil(() => $(el, '[part~="item"]')!.getAttribute('aria-busy') === 'true', 'row waits for the session');
    expect($(el, '[data-action="open"]')).to.not.equal(null);
  });
});

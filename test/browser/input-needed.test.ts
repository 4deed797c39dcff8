import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../elements/input-needed/define.js';
import type { AhpInputNeeded } from '../../elements/input-needed/input-needed.js';
import type { AhpToolCall } from '../../elements/tool-call/tool-call.js';
import { CHAT, FakeChatStore, OTHER_CHAT, sessionWithInput, toolCall } from './fixtures/chats.js';

const confirmation = (extra: Record<string, unknown> = {}, id = 'in-1') => ({
  kind: 'toolConfirmation',
  id,
  chat: OTHER_CHAT,
  turnId: 'turn-9',
  toolCall: toolCall('tc-1', 'pending-confirmation', { invocationMessage: { markdown: 'Adding **1** and 2' }, ...extra }),
});
const resultConfirmation = () => ({ kind: 'toolConfirmation', id: 'in-2', chat: OTHER_CHAT, turnId: 'turn-9', toolCall: toolCall('tc-2', 'pending-result-confirmation') });
const authentication = () => ({ kind: 'toolAuthentication', id: 'in-3', chat: CHAT, turnId: 'turn-1', toolCall: toolCall('tc-3', 'auth-required') });
const chatInput = () => ({ kind: 'chatInput', id: 'in-4', chat: CHAT, request: { id: 'q-1', message: 'Which branch should I use?' } });
const clientExecution = () => ({
  kind: 'toolClientExecution',
  id: 'in-5',
  chat: CHAT,
  turnId: 'turn-1',
  clientId: 'runner',
  toolCall: toolCall('tc-5', 'running', { contributor: { kind: 'client', clientId: 'runner' }, displayName: 'Run tests' }),
});
const unknownKind = () => ({ kind: 'telepathy', id: 'in-6', chat: CHAT });

const ALL = [confirmation(), resultConfirmation(), authentication(), chatInput(), clientExecution(), unknownKind()];

async function render(entries: unknown[] | undefined) {
  const store = new FakeChatStore(entries ? sessionWithInput(entries) : undefined);
  const el = await fixture<AhpInputNeeded>(html`<ahp-input-needed .store=${store}></ahp-input-needed>`);
  await settle(el);
  return { el, store };
}

const rows = (el: AhpInputNeeded) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="item"]')];
const row = (el: AhpInputNeeded, id: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="item"][data-id="${id}"]`)!;
const call = (r: HTMLElement) => r.querySelector<AhpToolCall>('ahp-tool-call');
/** The buttons of a row: its own, or those of its `<ahp-tool-call>`. */
const controls = (r: HTMLElement) => [...(call(r)?.shadowRoot ?? r).querySelectorAll<HTMLButtonElement>('button[data-action]')];
const buttons = (r: HTMLElement) => controls(r).map((b) => b.dataset.action);
const btn = (r: HTMLElement, action: string) => controls(r).find((b) => b.dataset.action === action)!;
const settle = async (el: AhpInputNeeded) => {
  await el.updateComplete;
  await Promise.all(rows(el).map((r) => call(r)?.updateComplete));
};

describe('<ahp-input-needed> states', () => {
  it('shows loading before the snapshot and the empty state without entries', async () => {
    const { el, store } = await render(undefined);
    expect(el.shadowRoot!.querySelector('[data-empty="loading"]')!.textContent).to.equal('Loading…');
    expect(el.matches(':state(loading)')).to.be.true;
    await expect(el).to.be.accessible();
    store.setState(sessionWithInput([]));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[data-empty="empty"]')!.textContent).to.equal('Nothing needs your input');
    expect(el.matches(':state(empty)')).to.be.true;
    await expect(el).to.be.accessible();
  });

  it('renders one row per entry, in order, with the actions of each kind, and is accessible', async () => {
    const { el } = await render(ALL);
    expect(rows(el).map((r) => r.dataset.kind)).to.deep.equal([
      'toolConfirmation', 'toolConfirmation', 'toolAuthentication', 'chatInput', 'toolClientExecution', 'telepathy',
    ]);
    expect(rows(el).map((r) => r.querySelector('.badge')!.textContent)).to.deep.equal([
      'Needs approval', 'Review result', 'Needs access', 'Question', 'Runs on a client', 'telepathy',
    ]);
    expect(rows(el).map(buttons)).to.deep.equal([['approve', 'deny'], ['accept', 'reject'], ['grant-access', 'cancel'], ['answer', 'decline', 'open'], [], ['open']]);
    expect(el.matches(':state(waiting)')).to.be.true;
    expect(el.shadowRoot!.querySelector('[part="list"]')!.localName).to.equal('ul');
    await expect(el).to.be.accessible();
  });

  for (const [name, entry] of Object.entries({ confirmation, resultConfirmation, authentication, chatInput, clientExecution, unknownKind })) {
    it(`a lone ${name} row is accessible`, async () => {
      const { el } = await render([entry()]);
      expect(rows(el)).to.have.length(1);
      await expect(el).to.be.accessible();
    });
  }

  it('hands a tool entry to <ahp-tool-call> with its tool call, chat, turn and store', async () => {
    const { el, store } = await render([confirmation()]);
    const tc = call(row(el, 'in-1'))!;
    expect(tc.toolCall).to.equal((store.getState()!.inputNeeded![0] as { toolCall: unknown }).toolCall);
    expect(tc.getAttribute('chat')).to.equal(OTHER_CHAT);
    expect(tc.getAttribute('turn-id')).to.equal('turn-9');
    expect(tc.store).to.equal(store);
    expect(row(el, 'in-1').dataset.chat).to.equal(OTHER_CHAT);
  });

  it('shows the tool name, the contributing server (live) and the invocation message as safe markdown', async () => {
    const { el, store } = await render([confirmation({ displayName: 'Get <b>sum</b>' })]);
    const root = call(row(el, 'in-1'))!.shadowRoot!;
    expect(root.textContent).to.contain('Get <b>sum</b>');
    expect(root.querySelector('b')).to.equal(null);
    expect(root.querySelector('[part="server"]')!.textContent).to.contain('Everything');
    expect(root.querySelector('.message strong')!.textContent).to.equal('1');

    const next = sessionWithInput([]);
    next.inputNeeded = store.getState()!.inputNeeded;
    next.customizations = [{ type: 'mcpServer', id: 'everything', uri: 'mcp-config:/everything', name: 'Everything (renamed)', state: { kind: 'ready' } }];
    store.setState(next);
    await settle(el);
    expect(call(row(el, 'in-1'))!.shadowRoot!.querySelector('[part="server"]')!.textContent).to.contain('Everything (renamed)');
  });

  it('informs about client execution and degrades malformed and unknown entries to neutral rows', async () => {
    const { el } = await render([clientExecution(), { kind: 'toolConfirmation', id: 'bad', chat: CHAT }, unknownKind(), null, { id: 7 }]);
    expect(rows(el).map((r) => r.dataset.id)).to.deep.equal(['in-5', 'bad', 'in-6']);
    expect(row(el, 'in-5').textContent).to.contain('Waiting for Desktop runner to run it.');
    expect(call(row(el, 'bad'))).to.equal(null);
    expect(row(el, 'bad').querySelector('.badge')!.textContent).to.equal('Needs input');
    expect(row(el, 'in-6').querySelector('.badge')!.textContent).to.equal('telepathy');
    await expect(el).to.be.accessible();
  });
});

describe('<ahp-input-needed> answers', () => {
  it('Approve dispatches chat/toolCallConfirmed on the entry chat after ahp-tool-call-approve, then the row waits', async () => {
    const { el, store } = await render([confirmation()]);
    const r = row(el, 'in-1');
    setTimeout(() => btn(r, 'approve').click());
    const event = await oneEvent(el, 'ahp-tool-call-approve');
    const action = { type: 'chat/toolCallConfirmed', turnId: 'turn-9', toolCallId: 'tc-1', approved: true, confirmed: 'user-action' };
    expect(event.detail).to.deep.equal({ chat: OTHER_CHAT, turnId: 'turn-9', toolCallId: 'tc-1', action });
    expect(event.cancelable && event.bubbles && event.composed).to.be.true;
    expect(store.sent).to.deep.equal([{ action, channel: OTHER_CHAT }]);
    await settle(el);
    expect(r.getAttribute('aria-busy')).to.equal('true');
    expect(r.querySelector('.badge')!.textContent).to.equal('Needs approval · sending…');
    btn(r, 'deny').click();
    expect(store.sent).to.have.length(1);
  });

  it('Deny dispatches approved:false with reason denied', async () => {
    const { el, store } = await render([confirmation()]);
    setTimeout(() => btn(row(el, 'in-1'), 'deny').click());
    const event = await oneEvent(el, 'ahp-tool-call-deny');
    const action = { type: 'chat/toolCallConfirmed', turnId: 'turn-9', toolCallId: 'tc-1', approved: false, reason: 'denied' };
    expect(event.detail.action).to.deep.equal(action);
    expect(store.sent).to.deep.equal([{ action, channel: OTHER_CHAT }]);
  });

  it('offers the tool call options and sends the chosen one', async () => {
    const options = [
      { id: 'once', label: 'Allow once', kind: 'approve' },
      { id: 'never', label: 'Never', kind: 'deny' },
    ];
    const { el, store } = await render([confirmation({ options })]);
    const r = row(el, 'in-1');
    expect(controls(r).map((b) => b.textContent)).to.deep.equal(['Allow once', 'Never']);
    setTimeout(() => controls(r).find((b) => b.dataset.optionId === 'never')!.click());
    const deny = await oneEvent(el, 'ahp-tool-call-deny');
    expect(deny.detail.selectedOptionId).to.equal('never');
    expect(store.sent.map((x) => x.action)).to.deep.equal([
      { type: 'chat/toolCallConfirmed', turnId: 'turn-9', toolCallId: 'tc-1', approved: false, reason: 'denied', selectedOptionId: 'never' },
    ]);
  });

  it('a cancelled approve dispatches nothing and leaves the row answerable', async () => {
    const { el, store } = await render([confirmation()]);
    document.addEventListener('ahp-tool-call-approve', (e) => e.preventDefault(), { once: true });
    btn(row(el, 'in-1'), 'approve').click();
    await settle(el);
    expect(store.sent).to.deep.equal([]);
    expect(row(el, 'in-1').getAttribute('aria-busy')).to.equal('false');
    btn(row(el, 'in-1'), 'approve').click();
    expect(store.sent).to.have.length(1);
  });

  it('Accept and Reject answer a result confirmation', async () => {
    for (const [action, approved] of [['accept', true], ['reject', false]] as const) {
      const { el, store } = await render([resultConfirmation()]);
      const r = row(el, 'in-2');
      setTimeout(() => btn(r, action).click());
      const event = await oneEvent(el, 'ahp-tool-call-result-confirm');
      expect(event.detail.approved).to.equal(approved);
      expect(store.sent).to.deep.equal([
        { action: { type: 'chat/toolCallResultConfirmed', turnId: 'turn-9', toolCallId: 'tc-2', approved }, channel: OTHER_CHAT },
      ]);
    }
  });

  it('Grant access fires ahp-auth-request and dispatches nothing', async () => {
    const { el, store } = await render([authentication()]);
    const entry = authentication();
    setTimeout(() => btn(row(el, 'in-3'), 'grant-access').click());
    const event = await oneEvent(el, 'ahp-auth-request');
    expect(event.detail).to.deep.equal({
      kind: 'toolCall',
      chat: CHAT,
      turnId: 'turn-1',
      toolCallId: 'tc-3',
      customizationId: 'everything',
      auth: (entry.toolCall as unknown as { auth: unknown }).auth,
    });
    expect(event.cancelable).to.be.true;
    await settle(el);
    expect(store.sent).to.deep.equal([]);
    expect(row(el, 'in-3').getAttribute('aria-busy')).to.equal('false');
  });

  it('Cancel completes an auth-blocked call with a failed result after ahp-tool-call-cancel', async () => {
    const { el, store } = await render([authentication()]);
    setTimeout(() => btn(row(el, 'in-3'), 'cancel').click());
    const event = await oneEvent(el, 'ahp-tool-call-cancel');
    const action = {
      type: 'chat/toolCallComplete',
      turnId: 'turn-1',
      toolCallId: 'tc-3',
      result: { success: false, pastTenseMessage: 'Cancelled', error: { message: 'Cancelled by the user', code: 'cancelled' } },
    };
    expect(event.detail.action).to.deep.equal(action);
    expect(store.sent).to.deep.equal([{ action, channel: CHAT }]);
  });

  it('Open chat fires ahp-input-needed-open for a question (which is also answerable in place)', async () => {
    const { el, store } = await render([chatInput()]);
    const r = row(el, 'in-4');
    expect(r.querySelector('form.input-request .question')!.textContent).to.equal('Which branch should I use?');
    setTimeout(() => btn(r, 'open').click());
    const event = await oneEvent(el, 'ahp-input-needed-open');
    expect(event.detail).to.deep.equal({ chat: CHAT, id: 'in-4' });
    expect(event.bubbles && event.composed).to.be.true;
    expect(store.sent).to.deep.equal([]);
    expect(r.querySelector('a')).to.equal(null);
  });

  it('a failed answer makes the row answerable again', async () => {
    const { el, store } = await render([confirmation()]);
    btn(row(el, 'in-1'), 'approve').click();
    await settle(el);
    expect(row(el, 'in-1').getAttribute('aria-busy')).to.equal('true');
    store.fail({ kind: 'rejected', channel: OTHER_CHAT, clientSeq: 1, action: store.sent[0]!.action, reason: 'nope' });
    await settle(el);
    expect(row(el, 'in-1').getAttribute('aria-busy')).to.equal('false');
    btn(row(el, 'in-1'), 'approve').click();
    expect(store.sent).to.have.length(2);
  });

  it('is keyboard operable and moves focus on when an answered row goes away', async () => {
    const { el, store } = await render([confirmation(), resultConfirmation()]);
    btn(row(el, 'in-1'), 'approve').focus();
    await sendKeys({ press: 'Tab' });
    expect(call(row(el, 'in-1'))!.shadowRoot!.activeElement).to.equal(btn(row(el, 'in-1'), 'deny'));
    await sendKeys({ press: 'Enter' });
    expect(store.sent.map((x) => (x.action as { approved?: boolean }).approved)).to.deep.equal([false]);

    store.setState(sessionWithInput([resultConfirmation()]));
    await settle(el);
    expect(call(row(el, 'in-2'))!.shadowRoot!.activeElement).to.equal(btn(row(el, 'in-2'), 'accept'));
    await sendKeys({ press: 'Space' });
    expect(store.sent).to.have.length(2);

    store.setState(sessionWithInput([]));
    await settle(el);
    expect((el.shadowRoot!.activeElement as HTMLElement).dataset.empty).to.equal('empty');
  });
});

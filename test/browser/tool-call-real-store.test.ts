import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../elements/tool-call/define.js';
import type { AhpToolCall } from '../../elements/tool-call/tool-call.js';
import type { AnyAction } from '../../src/protocol/actions.js';
import type { DispatchActionParams, Snapshot } from '../../src/protocol/commands.js';
import type { ChatState } from '../../src/protocol/session.js';
import { realSessionStore } from './fixtures/real-store.js';
import { STATES, mcpServer, session } from './fixtures/sessions.js';
import { CHAT, TURN } from './fixtures/tool-calls.js';

const SESSION = 'ahp-session:/real';
const OPTIONS = [{ id: 'once', label: 'Allow once', kind: 'approve' }, { id: 'no', label: 'No', kind: 'deny' }];

const emptyChat = (): ChatState => ({ resource: CHAT, title: 'C', status: 1, modifiedAt: '2026-01-01T00:00:00.000Z', turns: [] });

/** A real SessionStore whose chat subscriptions are answered by the test; `host` applies server actions to the chat. */
function realStore() {
  let answer: ((s: Snapshot) => void) | undefined;
  const state = session([mcpServer('srv', STATES.ready!, { name: 'Calc' })]);
  const { store, sent, subscribed, unsubscribed } = realSessionStore(SESSION, state, () => new Promise<Snapshot>((resolve) => (answer = resolve)));
  let serverSeq = 0;
  const chatSeq = { n: 0 };
  const host = {
    // The store subscribes (and so can be answered) once its chat reducers are here.
    snapshot: async (state: ChatState) => {
      await waitUntil(() => answer, 'the chat subscribed');
      answer!({ resource: CHAT, state, fromSeq: 0 });
    },
    chat: (action: AnyAction, origin?: DispatchActionParams) =>
      store.receive({ channel: CHAT, action, serverSeq: ++chatSeq.n, origin: origin ? { clientId: 'me', clientSeq: origin.clientSeq } : null }),
    session: (action: AnyAction) => store.receive({ channel: SESSION, action, serverSeq: ++serverSeq, origin: null }),
  };
  return { store, sent, subscribed, unsubscribed, host };
}

const status = (el: AhpToolCall) => el.shadowRoot!.querySelector<HTMLElement>('[part="status"]')?.dataset.status;
const button = (el: AhpToolCall, sel: string) => el.shadowRoot!.querySelector<HTMLButtonElement>(sel)!;
const live = (el: AhpToolCall) => el.shadowRoot!.querySelector('[aria-live]')!.textContent!.trim();

describe('<ahp-tool-call> over the real SessionStore', () => {
  it('watches the chat, follows the whole lifecycle, and dispatches on the chat channel', async () => {
    const { store, sent, subscribed, unsubscribed, host } = realStore();
    const el = await fixture<AhpToolCall>(html`<ahp-tool-call chat=${CHAT} tool-call-id="x" .store=${store}></ahp-tool-call>`);
    // The store subscribes once its chat reducers are here (loaded on the first chat).
    await waitUntil(() => subscribed.length > 0, 'the chat subscribed');
    expect(subscribed).to.deep.equal([CHAT]);
    expect(el.matches(':state(loading)')).to.be.true;

    await host.snapshot(emptyChat());
    await waitUntil(() => el.matches(':state(not-found)'), 'chat loaded');
    host.chat({ type: 'chat/turnStarted', turnId: TURN, startedAt: '2026-01-01T00:00:00.000Z', message: { text: 'sum', origin: { kind: 'user' } } });
    host.chat({ type: 'chat/toolCallStart', turnId: TURN, toolCallId: 'x', toolName: 'get-sum', displayName: 'Get sum', contributor: { kind: 'mcp', customizationId: 'srv' } });
    host.chat({ type: 'chat/toolCallDelta', turnId: TURN, toolCallId: 'x', content: '{"a":1' });
    await el.updateComplete;
    expect(status(el)).to.equal('streaming');
    expect(el.shadowRoot!.querySelector('[part="server"]')!.textContent!.trim()).to.equal('Calc');
    expect(el.shadowRoot!.querySelector('[part="input"] pre')!.textContent).to.equal('{"a":1');

    host.chat({ type: 'chat/toolCallReady', turnId: TURN, toolCallId: 'x', invocationMessage: { markdown: 'Add **1** + 2' }, toolInput: '{"a":1,"b":2}', options: OPTIONS });
    await el.updateComplete;
    expect(status(el)).to.equal('pending-confirmation');
    expect(live(el)).to.equal('Get sum: Needs approval');
    await expect(el).to.be.accessible();

    button(el, '[data-option-id="once"]').click();
    await el.updateComplete;
    expect(sent).to.deep.equal([
      { channel: CHAT, clientSeq: 1, action: { type: 'chat/toolCallConfirmed', turnId: TURN, toolCallId: 'x', approved: true, confirmed: 'user-action', selectedOptionId: 'once' } },
    ]);
    expect(status(el), 'optimistic').to.equal('running');
    host.chat(sent[0]!.action as AnyAction, sent[0]);
    await el.updateComplete;
    expect(status(el)).to.equal('running');
    expect(store.getPendingCount(CHAT)).to.equal(0);

    // The server loses its token mid-call: the call offers Grant access, then the call itself becomes auth-required.
    host.session({ type: 'session/mcpServerStateChanged', id: 'srv', state: STATES.authRequired! });
    await el.updateComplete;
    expect(el.matches(':state(auth-blocked)')).to.be.true;
    expect(button(el, '[data-action="grant-access"]')).to.exist;
    host.chat({ type: 'chat/toolCallAuthRequired', turnId: TURN, toolCallId: 'x', auth: { reason: 'expired', resource: { resource: 'https://mcp.example.com/' } } });
    await el.updateComplete;
    expect(status(el)).to.equal('auth-required');
    await expect(el).to.be.accessible();

    button(el, '[data-action="cancel"]').click();
    await el.updateComplete;
    expect(sent[1]!.action).to.deep.include({ type: 'chat/toolCallComplete', toolCallId: 'x' });
    expect(status(el)).to.equal('completed');
    expect(el.shadowRoot!.querySelector('[data-error]')!.textContent).to.equal('Cancelled by the user');
    expect(el.matches(':state(failed)')).to.be.true;
    await expect(el).to.be.accessible();

    el.remove();
    expect(unsubscribed).to.deep.equal([CHAT]);
  });

  it('result confirmation: reject ends as cancelled (result-denied)', async () => {
    const { store, sent, host } = realStore();
    const el = await fixture<AhpToolCall>(html`<ahp-tool-call chat=${CHAT} tool-call-id="x" .store=${store}></ahp-tool-call>`);
    await host.snapshot(emptyChat());
    host.chat({ type: 'chat/turnStarted', turnId: TURN, startedAt: '2026-01-01T00:00:00.000Z', message: { text: 'sum', origin: { kind: 'user' } } });
    host.chat({ type: 'chat/toolCallStart', turnId: TURN, toolCallId: 'x', toolName: 'rm', displayName: 'Remove', contributor: { kind: 'mcp', customizationId: 'srv' } });
    host.chat({ type: 'chat/toolCallReady', turnId: TURN, toolCallId: 'x', invocationMessage: 'rm', confirmed: 'not-needed' });
    host.chat({ type: 'chat/toolCallComplete', turnId: TURN, toolCallId: 'x', requiresResultConfirmation: true, result: { success: true, pastTenseMessage: 'Removed', content: [{ type: 'text', text: 'gone' }] } });
    await waitUntil(() => status(el) === 'pending-result-confirmation');
    button(el, '[data-action="reject"]').click();
    await el.updateComplete;
    expect(sent[0]!.action).to.deep.equal({ type: 'chat/toolCallResultConfirmed', turnId: TURN, toolCallId: 'x', approved: false });
    expect(status(el)).to.equal('cancelled');
    expect(el.shadowRoot!.querySelector('[part="status"]')!.textContent!.trim()).to.equal('Result rejected');
    expect(live(el)).to.equal('Remove: Result rejected');
  });
});

import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/input-needed/define.js';
import type { AhpInputNeeded } from '../../elements/input-needed/input-needed.js';
import type { DispatchActionParams } from '../../src/protocol/commands.js';
import { SessionStore } from '../../src/store/index.js';
import { OTHER_CHAT, sessionWithInput, toolCall } from './fixtures/chats.js';

const SESSION = 'ahp-session:/real-input';

describe('<ahp-input-needed> over the real SessionStore', () => {
  it('answers a confirmation in a chat the page never watched; the row goes when the host removes the entry', async () => {
    const sent: DispatchActionParams[] = [];
    let seq = 0;
    const store = new SessionStore({ channel: SESSION, clientId: 'me', send: (p) => sent.push(p), nextClientSeq: () => ++seq });
    const entry = { kind: 'toolConfirmation', id: 'in-1', chat: OTHER_CHAT, turnId: 'turn-9', toolCall: toolCall('tc-1', 'pending-confirmation') };
    store.loadSnapshot({ resource: SESSION, fromSeq: 0, state: sessionWithInput([entry]) });
    const el = await fixture<AhpInputNeeded>(html`<ahp-input-needed .store=${store}></ahp-input-needed>`);

    const call = el.shadowRoot!.querySelector('ahp-tool-call')!;
    await call.updateComplete;
    const approve = call.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="approve"]')!;
    approve.focus();
    approve.click();
    await el.updateComplete;
    await new Promise((r) => setTimeout(r));
    expect(sent).to.deep.equal([
      {
        channel: OTHER_CHAT,
        clientSeq: 1,
        action: { type: 'chat/toolCallConfirmed', turnId: 'turn-9', toolCallId: 'tc-1', approved: true, confirmed: 'user-action' },
      },
    ]);
    expect(store.getChatState(OTHER_CHAT)).to.equal(undefined);
    expect(el.shadowRoot!.querySelector('[data-id="in-1"]')!.getAttribute('aria-busy')).to.equal('true');

    store.receive({ channel: OTHER_CHAT, action: sent[0]!.action, serverSeq: 1, origin: { clientId: 'me', clientSeq: 1 } });
    store.receive({ channel: SESSION, action: { type: 'session/inputNeededRemoved', id: 'in-1' }, serverSeq: 1 });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part~="item"]')).to.equal(null);
    expect(el.shadowRoot!.querySelector('[data-empty="empty"]')).not.to.equal(null);
    expect((el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.empty).to.equal('empty');
    await expect(el).to.be.accessible();
  });
});

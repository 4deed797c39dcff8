import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../elements/chat/define.js';
import type { AhpChat } from '../../elements/chat/chat.js';
import type { ActionEnvelope, DispatchActionParams } from '../../src/protocol/commands.js';
import { CHAT, chatState, md, turn } from './fixtures/chats.js';
import { realSessionStore } from './fixtures/real-store.js';
import { session } from './fixtures/sessions.js';

const SESSION = 'ahp-session:/real-chat';

/** A real SessionStore whose chat subscription answers with a snapshot; `sent` records the wire. */
function realStore() {
  const { store, sent, subscribed, unsubscribed } = realSessionStore(SESSION, session([]), async (uri) => ({
    resource: uri,
    fromSeq: 0,
    state: chatState([turn('t0', 'earlier', [md('a', 'earlier answer')])], undefined, uri),
  }));
  let serverSeq = 0;
  const server = (action: ActionEnvelope['action']) => store.receive({ channel: CHAT, action, serverSeq: ++serverSeq });
  const echo = (p: DispatchActionParams) =>
    store.receive({ channel: p.channel, action: p.action, serverSeq: ++serverSeq, origin: { clientId: 'me', clientSeq: p.clientSeq } });
  return { store, sent, subscribed, unsubscribed, server, echo };
}

const $ = (el: AhpChat, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel);

describe('<ahp-chat> over the real SessionStore', () => {
  it('subscribes, shows the snapshot, starts a turn optimistically, streams, and stops it', async () => {
    const { store, sent, subscribed, unsubscribed, server, echo } = realStore();
    const el = await fixture<AhpChat>(html`<ahp-chat chat=${CHAT} .store=${store}></ahp-chat>`);
    // The store subscribes once its chat reducers are here (loaded on the first chat).
    await waitUntil(() => subscribed.length > 0, 'the chat subscribed');
    expect(subscribed).to.deep.equal([CHAT]);
    await waitUntil(() => $(el, '[part="turn"]'), 'snapshot rendered');
    expect($(el, '[data-part="markdown"]')!.textContent).to.contain('earlier answer');

    const textarea = $(el, 'textarea') as HTMLTextAreaElement;
    textarea.value = 'hello agent';
    ($(el, '[part="send"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(sent).to.have.length(1);
    expect(sent[0]!.channel).to.equal(CHAT);
    expect(sent[0]!.action.type).to.equal('chat/turnStarted');
    const turnId = (sent[0]!.action as { turnId: string }).turnId;
    const turns = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="turn"]')];
    expect(turns.map((t) => t.dataset.state)).to.deep.equal(['complete', 'active']);
    expect(turns[1]!.querySelector('.text')!.textContent).to.equal('hello agent');
    expect(($(el, '[part="send"]') as HTMLButtonElement).disabled).to.be.true;
    expect(el.shadowRoot!.activeElement).to.equal(textarea);

    echo(sent[0]!);
    server({ type: 'chat/responsePart', turnId, part: { kind: 'markdown', id: 'p1', content: 'Hi' } });
    server({ type: 'chat/delta', turnId, partId: 'p1', content: ' there' });
    await el.updateComplete;
    expect(turns[1]!.querySelector('[data-part="markdown"]')!.textContent!.trim()).to.equal('Hi there');

    ($(el, '[part="stop"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(sent[1]!.action).to.include({ type: 'chat/turnCancelled', turnId });
    expect(sent[1]!.channel).to.equal(CHAT);
    expect($(el, '[part="stop"]')).to.equal(null);
    const after = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="turn"]')];
    expect(after[1]).to.equal(turns[1]);
    expect(after[1]!.dataset.state).to.equal('cancelled');
    expect(el.shadowRoot!.activeElement).to.equal(textarea);
    await expect(el).to.be.accessible();

    el.remove();
    expect(unsubscribed).to.deep.equal([CHAT]);
    expect(store.getChatState(CHAT)).to.equal(undefined);
  });
});

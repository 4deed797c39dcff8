// Every element shows the connection state (not "Loading…" forever), disables what cannot be sent with the
// reason, and the composer never loses typed text.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../elements/define-all.js';
import type { ConnectionState } from '../../src/client/connection-state.js';
import type { AnyAction } from '../../src/protocol/actions.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { FakeStore } from './fixtures/fake-store.js';
import { CHAT, FakeChatStore, chatState, sessionWithInput, toolCall, turn } from './fixtures/chats.js';
import { STATES, mcpServer, session } from './fixtures/sessions.js';

type El = HTMLElement & { updateComplete: Promise<unknown> };
const RECONNECTING: ConnectionState = { kind: 'reconnecting', attempt: 2, nextAttemptAt: Date.now() + 60_000 };

class RecordingHandle extends FakeHandle {
  reconnects = 0;
  override reconnectNow(): void {
    this.reconnects++;
  }
}

function handleIn(state: ConnectionState): RecordingHandle {
  const h = new RecordingHandle();
  h.setConnectionState(state);
  return h;
}

const inner = (host: Element, selector: string) => host.shadowRoot!.querySelector<HTMLElement>(selector);
const banner = (host: Element) => inner(host, '[part="connection"]');

async function inSession<T extends El>(store: unknown, handle: FakeHandle, child: ReturnType<typeof html>, tag: string): Promise<T> {
  const el = await fixture<HTMLElement>(html`<ahp-session .store=${store} .handle=${handle}>${child}</ahp-session>`);
  const target = el.querySelector<T>(tag)!;
  await target.updateComplete;
  return target;
}

describe('connection state in the elements', () => {
  it('<ahp-mcp-server>: banner with the next attempt time, :state(disconnected), controls disabled with the reason; Retry now; back to normal when open', async () => {
    const handle = handleIn(RECONNECTING);
    const store = new FakeStore(session([mcpServer('a', STATES.ready!)]));
    const el = await inSession<El>(store, handle, html`<ahp-mcp-server server-id="a"></ahp-mcp-server>`, 'ahp-mcp-server');
    expect(banner(el)!.getAttribute('role')).to.equal('status');
    expect(banner(el)!.textContent).to.match(/Connection lost\. Next attempt at .* \(attempt 2\)/);
    expect(el.matches(':state(disconnected)') && el.matches(':state(reconnecting)')).to.equal(true);
    const fieldset = inner(el, 'fieldset.intents') as HTMLFieldSetElement;
    expect(fieldset.disabled).to.equal(true);
    expect(fieldset.title).to.match(/Not connected to the host/);
    const stop = inner(el, '[data-action="stop"]') as HTMLButtonElement;
    expect(stop.matches(':disabled')).to.equal(true);
    stop.click();
    expect(store.dispatched).to.deep.equal([]);
    (inner(el, '[data-action="reconnect"]') as HTMLButtonElement).click();
    expect(handle.reconnects).to.equal(1);
    handle.setConnectionState({ kind: 'open' });
    await el.updateComplete;
    expect(banner(el)).to.equal(null);
    expect(el.matches(':state(disconnected)')).to.equal(false);
    (inner(el, '[data-action="stop"]') as HTMLButtonElement).click();
    expect(store.dispatched.map((a) => a.type)).to.deep.equal(['session/mcpServerStopRequested']);
  });

  it('before the first snapshot, every element says it is connecting (or why not) instead of "Loading…"', async () => {
    const handle = handleIn({ kind: 'connecting' });
    const store = new FakeChatStore(undefined as never);
    const root = await fixture<HTMLElement>(html`<ahp-session .store=${store} .handle=${handle}>
      <ahp-mcp-server server-id="a"></ahp-mcp-server>
      <ahp-mcp-server-list></ahp-mcp-server-list>
      <ahp-input-needed></ahp-input-needed>
      <ahp-chat chat=${CHAT}></ahp-chat>
      <ahp-tool-call chat=${CHAT} tool-call-id="tc1"></ahp-tool-call>
    </ahp-session>`);
    const els = [...root.children] as El[];
    await Promise.all(els.map((e) => e.updateComplete));
    for (const el of els) {
      expect(banner(el)?.textContent?.trim(), el.localName).to.equal('Connecting to the host…');
      expect(el.shadowRoot!.textContent, el.localName).not.to.match(/Loading/);
      expect(el.matches(':state(connecting)'), el.localName).to.equal(true);
    }
    handle.setConnectionState({ kind: 'closed', reason: 'gave up reconnecting after 3 attempts' });
    await Promise.all(els.map((e) => e.updateComplete));
    for (const el of els) expect(banner(el)?.textContent, el.localName).to.match(/Disconnected: gave up reconnecting after 3 attempts/);
  });

  it('<ahp-mcp-server-list> shows one banner for all its servers', async () => {
    const handle = handleIn(RECONNECTING);
    const store = new FakeStore(session([mcpServer('a', STATES.ready!), mcpServer('b', STATES.stopped!)]));
    const list = await inSession<El>(store, handle, html`<ahp-mcp-server-list></ahp-mcp-server-list>`, 'ahp-mcp-server-list');
    const servers = [...list.shadowRoot!.querySelectorAll<El>('ahp-mcp-server')];
    await Promise.all(servers.map((s) => s.updateComplete));
    expect(list.shadowRoot!.querySelectorAll('[part="connection"]').length).to.equal(1);
    for (const s of servers) {
      expect(banner(s)).to.equal(null);
      expect((inner(s, 'fieldset.intents') as HTMLFieldSetElement).disabled).to.equal(true);
    }
    expect(list.matches(':state(reconnecting)')).to.equal(true);
  });

  it('<ahp-tool-call> and <ahp-input-needed>: answers are disabled while disconnected', async () => {
    const handle = handleIn(RECONNECTING);
    const store = new FakeChatStore(sessionWithInput([{ id: 'i1', kind: 'toolConfirmation', chat: CHAT, turnId: 't1', toolCall: toolCall('c1', 'pending-confirmation') }]));
    const el = await inSession<El>(store, handle, html`<ahp-input-needed></ahp-input-needed>`, 'ahp-input-needed');
    await waitUntil(() => el.shadowRoot!.querySelector('ahp-tool-call'), 'no row');
    const tc = el.shadowRoot!.querySelector<El>('ahp-tool-call')!;
    await tc.updateComplete;
    expect(banner(el)).not.to.equal(null);
    expect(banner(tc), 'one banner: the list shows it').to.equal(null);
    const approve = inner(tc, '[data-action="approve"]') as HTMLButtonElement;
    expect(approve.matches(':disabled')).to.equal(true);
    approve.click();
    expect(store.sent).to.deep.equal([]);
    handle.setConnectionState({ kind: 'open' });
    await tc.updateComplete;
    (inner(tc, '[data-action="approve"]') as HTMLButtonElement).click();
    expect(store.sent.map((s) => s.action.type)).to.deep.equal(['chat/toolCallConfirmed']);
  });

  describe('<ahp-chat> composer', () => {
    async function chat(state: ConnectionState, store = new FakeChatStore(session([]))) {
      store.setChat(CHAT, chatState([turn('t1', 'hello')]));
      const handle = handleIn(state);
      const el = await inSession<El>(store, handle, html`<ahp-chat chat=${CHAT}></ahp-chat>`, 'ahp-chat');
      const input = inner(el, 'textarea') as HTMLTextAreaElement;
      const send = inner(el, '[data-action="send"]') as HTMLButtonElement;
      return { el, store, handle, input, send };
    }
    const type = async (el: El, input: HTMLTextAreaElement, text: string) => {
      input.value = text;
      input.dispatchEvent(new Event('input'));
      await el.updateComplete;
    };
    const enter = (input: HTMLTextAreaElement) => input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));

    it('while reconnecting: the typed text stays, Send is disabled with the reason, Enter sends nothing; after reconnecting it is sent', async () => {
      const { el, store, handle, input, send } = await chat(RECONNECTING);
      await type(el, input, 'typed while offline');
      expect(send.disabled).to.equal(true);
      expect(send.title).to.match(/Not connected/);
      enter(input);
      await el.updateComplete;
      expect(store.sent).to.deep.equal([]);
      expect(input.value).to.equal('typed while offline');
      expect(inner(el, '[part="composer-hint"]')!.textContent).to.match(/your message stays here/);
      expect(el.matches(':state(disconnected)')).to.equal(true);
      handle.setConnectionState({ kind: 'open' });
      await el.updateComplete;
      expect(input.value).to.equal('typed while offline');
      expect(send.disabled).to.equal(false);
      send.click();
      expect(store.sent.map((s) => (s.action as { message?: { text: string } }).message?.text)).to.deep.equal(['typed while offline']);
      expect(input.value).to.equal('');
    });

    it('a message the host never got comes back into the box with the reason (before anything typed since)', async () => {
      const { el, store, input, send } = await chat({ kind: 'open' });
      await type(el, input, 'first');
      send.click();
      expect(input.value).to.equal('');
      await type(el, input, 'second');
      const sent = store.sent[0]!.action as AnyAction & { turnId: string };
      store.fail({ kind: 'dropped', channel: CHAT, clientSeq: 1, action: sent, reason: 'not accepted before reconnect' });
      await el.updateComplete;
      expect(input.value).to.equal('first\nsecond');
      const hint = inner(el, '[part="composer-hint"]')!;
      expect(hint.getAttribute('role')).to.equal('alert');
      expect(hint.textContent).to.match(/Not sent \(not accepted before reconnect\): your message is back in the box/);
    });

    it('a message over the size limit is refused before sending, with a clear error; the text stays', async () => {
      class LimitedStore extends FakeChatStore {
        override dispatch(action: AnyAction, channel?: string): number {
          const text = (action as { message?: { text?: string } }).message?.text ?? '';
          if (text.length > 10) throw new RangeError(`SessionStore.dispatch: the message text is ${text.length} characters; the limit is 10 bytes`);
          return super.dispatch(action, channel);
        }
      }
      const { el, store, input, send } = await chat({ kind: 'open' }, new LimitedStore(session([])));
      await type(el, input, 'far too long for the limit');
      send.click();
      await el.updateComplete;
      expect(store.sent).to.deep.equal([]);
      expect(input.value).to.equal('far too long for the limit');
      expect(inner(el, '[part="composer-hint"]')!.textContent).to.match(/Too large to send: the message text is 26 characters; the limit is 10 bytes/);
    });
  });
});

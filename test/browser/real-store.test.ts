import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/define-all.js';
import type { AhpMcpServer, AhpMcpServerList } from '../../elements/index.js';
import type { ActionEnvelope, DispatchActionParams } from '../../src/protocol/commands.js';
import { SessionStore } from '../../src/store/index.js';
import type { ActionFailure } from '../../src/store/types.js';
import { STATES, mcpServer, plugin, session } from './fixtures/sessions.js';

const CHANNEL = 'ahp-session:/real';

/** A real SessionStore fed a snapshot; `sent` records what it would put on the wire. */
function realStore() {
  const sent: DispatchActionParams[] = [];
  let seq = 0;
  const store = new SessionStore({ channel: CHANNEL, clientId: 'me', send: (p) => sent.push(p), nextClientSeq: () => ++seq });
  store.loadSnapshot({
    resource: CHANNEL,
    fromSeq: 0,
    state: session([mcpServer('a', STATES.ready!), plugin('p', 'Plugin', [mcpServer('b', STATES.stopped!)])]),
  });
  let serverSeq = 0;
  const echo = (p: DispatchActionParams, extra: Partial<ActionEnvelope> = {}) =>
    store.receive({ channel: CHANNEL, action: p.action, serverSeq: ++serverSeq, origin: { clientId: 'me', clientSeq: p.clientSeq }, ...extra });
  return { store, sent, echo };
}

const focused = (el: AhpMcpServer) => (el.shadowRoot!.activeElement as HTMLElement | null)?.dataset.action;
const kindOf = (el: AhpMcpServer) => el.shadowRoot!.querySelector<HTMLElement>('[part="status"]')!.dataset.kind;
const button = (el: AhpMcpServer, action: string) => el.shadowRoot!.querySelector<HTMLButtonElement>(`[data-action="${action}"]`)!;

describe('elements over the real SessionStore', () => {
  it('stop shows stopped at once, sends the action, keeps it after the echo, and moves focus to Start', async () => {
    const { store, sent, echo } = realStore();
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>`);
    button(el, 'stop').focus();
    button(el, 'stop').click();
    await el.updateComplete;
    expect(kindOf(el)).to.equal('stopped');
    expect(sent).to.deep.equal([{ channel: CHANNEL, clientSeq: 1, action: { type: 'session/mcpServerStopRequested', id: 'a' } }]);
    expect(focused(el)).to.equal('start');
    echo(sent[0]!);
    await el.updateComplete;
    expect(kindOf(el)).to.equal('stopped');
    expect(store.getPendingCount()).to.equal(0);
  });

  it('restart goes to starting at once and keeps focus in the actions when its button disappears', async () => {
    const { store, sent } = realStore();
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="a" .store=${store}></ahp-mcp-server>`);
    button(el, 'restart').focus();
    button(el, 'restart').click();
    await el.updateComplete;
    expect(sent.map((p) => p.action.type)).to.deep.equal(['session/mcpServerStopRequested', 'session/mcpServerStartRequested']);
    expect(kindOf(el)).to.equal('starting');
    expect(el.shadowRoot!.querySelector('[data-action="restart"]')).to.equal(null);
    expect(focused(el)).to.equal('stop');
  });

  it('a rejected start falls back to the confirmed state', async () => {
    const { store, sent, echo } = realStore();
    const failures: ActionFailure[] = [];
    store.onActionFailed((f) => failures.push(f));
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="b" .store=${store}></ahp-mcp-server>`);
    button(el, 'start').click();
    await el.updateComplete;
    expect(kindOf(el)).to.equal('starting');
    echo(sent[0]!, { rejectionReason: 'not allowed' });
    await el.updateComplete;
    expect(kindOf(el)).to.equal('stopped');
    expect(failures.map((f) => f.reason)).to.deep.equal(['not allowed']);
  });

  it('the switch disables the server optimistically with a global entry', async () => {
    const { store, sent } = realStore();
    const el = await fixture<AhpMcpServer>(html`<ahp-mcp-server server-id="b" .store=${store}></ahp-mcp-server>`);
    button(el, 'toggle').click();
    await el.updateComplete;
    expect(sent[0]!.action).to.deep.equal({ type: 'session/customizationToggled', id: 'b', enablement: [{ kind: 'global', enabled: false }] });
    expect(button(el, 'toggle').getAttribute('aria-checked')).to.equal('false');
    expect(el.matches(':state(disabled)')).to.be.true;
  });

  it('the list follows servers added by the host', async () => {
    const { store } = realStore();
    const el = await fixture<AhpMcpServerList>(html`<ahp-mcp-server-list .store=${store}></ahp-mcp-server-list>`);
    expect(el.shadowRoot!.querySelectorAll('ahp-mcp-server').length).to.equal(2);
    store.receive({ channel: CHANNEL, serverSeq: 1, action: { type: 'session/customizationUpdated', customization: mcpServer('c', STATES.starting!) } });
    await el.updateComplete;
    const ids = [...el.shadowRoot!.querySelectorAll('ahp-mcp-server')].map((s) => s.getAttribute('server-id'));
    expect(ids).to.deep.equal(['a', 'c', 'b']);
  });
});

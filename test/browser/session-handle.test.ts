import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { LitElement } from 'lit';
import '../../elements/define-all.js';
import type { AhpMcpApp, AhpSession } from '../../elements/index.js';
import { SessionHandleController } from '../../elements/shared/session-handle-controller.js';
import type { SessionHandle } from '../../src/client/session-handle.js';
import { FakeHandle } from './fixtures/fake-handle.js';
import { FakeStore } from './fixtures/fake-store.js';
import { session } from './fixtures/sessions.js';

/** A minimal element using the controller, as an element of issue 10's per-element connection UI would. */
class HandleProbe extends LitElement {
  static override properties = { handle: { attribute: false } };
  declare handle: SessionHandle | undefined;
  readonly session = new SessionHandleController(this, () => this.handle);
  renders = 0;
  override render() {
    this.renders++;
    return html`<span>${this.session.connection?.kind ?? 'none'}</span>`;
  }
}
customElements.define('test-handle-probe', HandleProbe);

const shown = (el: HandleProbe) => el.shadowRoot!.querySelector('span')!.textContent;

describe('SessionHandleController', () => {
  it('reads the handle from <ahp-session> and re-renders on every connection change; follows a replaced handle', async () => {
    const a = new FakeHandle();
    const b = new FakeHandle();
    const root = await fixture<AhpSession>(html`<ahp-session .store=${new FakeStore(session([]))} .handle=${a}><test-handle-probe></test-handle-probe></ahp-session>`);
    const probe = root.querySelector<HandleProbe>('test-handle-probe')!;
    await probe.updateComplete;
    expect(probe.session.handle).to.equal(a);
    expect(shown(probe)).to.equal('open');
    a.setConnectionState({ kind: 'reconnecting', attempt: 2, nextAttemptAt: Date.now() + 1000 });
    await waitUntil(() => shown(probe) === 'reconnecting');
    expect(probe.session.connection).to.include({ kind: 'reconnecting', attempt: 2 });
    root.handle = b;
    b.setConnectionState({ kind: 'closed', reason: 'gone' });
    await waitUntil(() => shown(probe) === 'closed');
    expect(a.listenerCount).to.equal(0, 'the session and the probe stopped listening to the old handle');
    const listening = b.listenerCount;
    probe.remove();
    expect(b.listenerCount).to.equal(listening - 1, 'the probe stops listening when disconnected');
  });

  it('an own handle wins over the provided one; without any, it says why a capability is missing', async () => {
    const own = new FakeHandle({ unavailable: { createChat: 'read-only here' } });
    const probe = await fixture<HandleProbe>(html`<test-handle-probe></test-handle-probe>`);
    expect(shown(probe)).to.equal('none');
    expect(probe.session.unavailable('authenticate')).to.match(/no session handle/);
    probe.handle = own;
    await probe.updateComplete;
    expect(shown(probe)).to.equal('open');
    expect(probe.session.unavailable('createChat')).to.equal('read-only here');
    expect(probe.session.unavailable('authenticate')).to.equal(undefined);
  });
});

describe('<ahp-mcp-app> says plainly why there is no mcp:// channel', () => {
  let otherOrigin = '';
  before(async () => {
    otherOrigin = (await (await fetch('/__test/env.json')).json()).otherOrigin;
  });
  const status = (el: AhpMcpApp) => el.shadowRoot!.querySelector('[role="alert"]')?.textContent ?? '';

  it('without a session handle', async () => {
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app server-id="basic" resource-uri="ui://x" sandbox-url=${`${otherOrigin}/sandbox/sandbox-proxy.html`}></ahp-mcp-app>`);
    await waitUntil(() => el.matches(':state(error)'), 'error state');
    expect(status(el)).to.contain('has no mcp:// channel').and.contain('no session handle');
  });

  it('with a handle that has no mcp:// capability, giving its reason', async () => {
    const handle = new FakeHandle({ unavailable: { mcpChannel: 'the host did not grant mcpApps to this client' } });
    const el = await fixture<AhpMcpApp>(html`<ahp-mcp-app .handle=${handle} server-id="basic" resource-uri="ui://x" sandbox-url=${`${otherOrigin}/sandbox/sandbox-proxy.html`}></ahp-mcp-app>`);
    await waitUntil(() => el.matches(':state(error)'), 'error state');
    expect(status(el)).to.contain('the host did not grant mcpApps to this client');
  });
});

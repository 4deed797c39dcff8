// <ahp-session url> without a session attribute when the host cannot be asked: the reason and a retry.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../elements/session/define.js';
import type { AhpSession } from '../../elements/session/session.js';

describe('<ahp-session url> without session: discovery failure', () => {
  it('says why the sessions could not be listed, offers Try again (which asks again), and provides no store', async () => {
    // Port 9 (discard) on loopback: nothing answers a WebSocket there.
    const el = await fixture<AhpSession>(html`<ahp-session url="ws://127.0.0.1:9/ahp"></ahp-session>`);
    const note = () => el.shadowRoot!.querySelector<HTMLElement>('[part="sessions"][data-sessions="error"]');
    await waitUntil(() => note(), 'the failure note', { timeout: 10_000 });
    expect(note()!.getAttribute('role')).to.equal('alert');
    expect(note()!.textContent).to.contain("Could not list the host's sessions");
    expect(el.currentStore).to.equal(undefined);
    (note()!.querySelector('[data-action="retry"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(note(), 'asking again clears the note').to.equal(null);
    await waitUntil(() => note(), 'the failure again', { timeout: 10_000 });
    // A session attribute takes over: no discovery note.
    el.setAttribute('session', 'ahp-session:/x');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="sessions"]')).to.equal(null);
  });
});

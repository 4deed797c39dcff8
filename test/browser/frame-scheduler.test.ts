// frameScheduler, the scheduleNotify <ahp-session> gives its store: envelopes received between two frames are folded
// once and the elements hear of them once, at the next animation frame, before it is painted.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { StoreController } from '../../elements/shared/store-controller.js';
import { frameScheduler } from '../../elements/shared/frame-scheduler.js';
import { SessionStore } from '../../src/store/index.js';
import type { AnyAction, SessionState } from '../../src/protocol/index.js';
import { session } from './fixtures/sessions.js';

const CHANNEL = 'ahp-session:/frames';

class FrameProbe extends LitElement {
  static override properties = { store: { attribute: false } };
  declare store: SessionStore | undefined;
  renders = 0;
  readonly title$ = new StoreController(this, { getStore: () => this.store, select: (s) => s?.title });
  protected override render() {
    this.renders++;
    return this.title$.value ?? '';
  }
}
customElements.define('test-frame-probe', FrameProbe);

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

describe('frameScheduler', () => {
  it('calls the flush once, in the next animation frame', async () => {
    const calls: string[] = [];
    let inFrame = false;
    requestAnimationFrame(() => (inFrame = true));
    frameScheduler(() => calls.push(inFrame ? 'in the frame' : 'before the frame'));
    await Promise.resolve();
    expect(calls).to.deep.equal([]);
    await nextFrame();
    await nextFrame();
    expect(calls).to.deep.equal(['in the frame']);
  });

  it('a store with it: 40 envelopes of one task wake the element once, at the frame, with the last state', async () => {
    let flushes = 0;
    const store = new SessionStore({
      channel: CHANNEL,
      clientId: 'me',
      send: () => {},
      nextClientSeq: () => 1,
      scheduleNotify: (flush) => frameScheduler(() => (flushes++, flush())),
    });
    store.loadSnapshot({ resource: CHANNEL, state: { ...session([]), title: 'start' } as SessionState, fromSeq: 0 });
    const el = await fixture<FrameProbe>(html`<test-frame-probe .store=${store}></test-frame-probe>`);
    await el.updateComplete;
    const before = el.renders;
    expect(el.shadowRoot!.textContent).to.equal('start');
    for (let i = 1; i <= 40; i++) store.receive({ channel: CHANNEL, serverSeq: i, action: { type: 'session/titleChanged', title: `t${i}` } as AnyAction });
    expect(store.getState()?.title).to.equal('t40', 'reads see every envelope at once');
    await el.updateComplete;
    expect(el.renders).to.equal(before, 'nothing rendered before the frame');
    await nextFrame();
    await el.updateComplete;
    expect(flushes).to.equal(1);
    expect(el.renders).to.equal(before + 1);
    expect(el.shadowRoot!.textContent).to.equal('t40');
  });
});

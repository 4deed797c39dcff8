import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { StoreController } from '../../elements/shared/store-controller.js';
import type { SessionStoreLike } from '../../src/store/types.js';
import { FakeStore } from './fixtures/fake-store.js';
import { session } from './fixtures/sessions.js';

class TitleProbe extends LitElement {
  static override properties = { store: { attribute: false } };
  declare store: SessionStoreLike | undefined;
  renders = 0;
  readonly title$ = new StoreController(this, { getStore: () => this.store, select: (s) => s?.title });
  protected override render() {
    this.renders++;
    return this.title$.value ?? '';
  }
}
customElements.define('test-title-probe', TitleProbe);

const withTitle = (title: string) => ({ ...session([]), title });

describe('StoreController', () => {
  it('subscribes while connected and unsubscribes when disconnected', async () => {
    const store = new FakeStore(withTitle('one'));
    const el = await fixture<TitleProbe>(html`<test-title-probe .store=${store}></test-title-probe>`);
    expect(store.listenerCount).to.equal(1);
    expect(el.shadowRoot!.textContent).to.equal('one');
    el.remove();
    expect(store.listenerCount).to.equal(0);
    document.body.append(el);
    expect(store.listenerCount).to.equal(1);
    el.remove();
  });

  it('requests an update only when the selected value changes', async () => {
    const store = new FakeStore(withTitle('one'));
    const el = await fixture<TitleProbe>(html`<test-title-probe .store=${store}></test-title-probe>`);
    const before = el.renders;
    store.setState({ ...withTitle('one'), status: 8 });
    await el.updateComplete;
    expect(el.renders).to.equal(before);
    store.setState(withTitle('two'));
    await el.updateComplete;
    expect(el.renders).to.equal(before + 1);
    expect(el.shadowRoot!.textContent).to.equal('two');
  });

  it('picks up a store that arrives later and drops the one it replaces', async () => {
    const el = await fixture<TitleProbe>(html`<test-title-probe></test-title-probe>`);
    expect(el.title$.value).to.equal(undefined);
    const a = new FakeStore(withTitle('a'));
    el.store = a;
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).to.equal('a');
    const b = new FakeStore(withTitle('b'));
    el.store = b;
    await el.updateComplete;
    expect(a.listenerCount).to.equal(0);
    expect(b.listenerCount).to.equal(1);
    b.setState(withTitle('b2'));
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).to.equal('b2');
  });

  it('catches up with changes made while disconnected', async () => {
    const store = new FakeStore(withTitle('one'));
    const el = await fixture<TitleProbe>(html`<test-title-probe .store=${store}></test-title-probe>`);
    const parent = el.parentElement!;
    el.remove();
    store.setState(withTitle('changed'));
    parent.append(el);
    await el.updateComplete;
    expect(el.shadowRoot!.textContent).to.equal('changed');
  });
});

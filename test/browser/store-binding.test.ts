// The StoreBinding base as the element-specific subscriptions use it (StoreSubscription): open while connected,
// re-opened when a dependency changes, closed on disconnect or when the dependency goes away.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { StoreSubscription } from '../../elements/shared/store-binding.js';

class SubscriptionProbe extends LitElement {
  static override properties = { key: {} };
  declare key: string | undefined;
  readonly log: string[] = [];
  constructor() {
    super();
    new StoreSubscription(this, () => [this.key], () => {
      const key = this.key;
      if (!key) return undefined;
      this.log.push(`open ${key}`);
      return () => this.log.push(`close ${key}`);
    });
  }
}
customElements.define('test-subscription-probe', SubscriptionProbe);

describe('StoreSubscription', () => {
  it('opens while connected, re-opens on a new dependency, and closes on disconnect', async () => {
    const el = await fixture<SubscriptionProbe>(html`<test-subscription-probe key="a"></test-subscription-probe>`);
    expect(el.log).to.deep.equal(['open a']);
    el.requestUpdate();
    await el.updateComplete;
    expect(el.log).to.deep.equal(['open a'], 'an update with the same dependencies keeps the subscription');
    el.key = 'b';
    await el.updateComplete;
    expect(el.log).to.deep.equal(['open a', 'close a', 'open b']);
    el.remove();
    expect(el.log).to.deep.equal(['open a', 'close a', 'open b', 'close b']);
    document.body.append(el);
    expect(el.log.at(-1)).to.equal('open b', 'reconnecting opens it again');
    el.key = undefined;
    await el.updateComplete;
    expect(el.log.at(-1)).to.equal('close b', 'nothing to watch: closed, and not re-opened on every update');
    el.requestUpdate();
    await el.updateComplete;
    expect(el.log.at(-1)).to.equal('close b');
    el.remove();
  });

  it('opens nothing while disconnected, and follows a dependency changed meanwhile', async () => {
    const el = document.createElement('test-subscription-probe') as SubscriptionProbe;
    el.key = 'x';
    expect(el.log).to.deep.equal([]);
    el.key = 'y';
    document.body.append(el);
    await el.updateComplete;
    expect(el.log).to.deep.equal(['open y']);
    el.remove();
  });
});

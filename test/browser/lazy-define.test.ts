// Elements defined on first use (the CDN file's loader, elements/shared/lazy-define.ts), with stand-in tags whose
// loaders define them: in the document, added later, asked for from a shadow root, asked for by class, a failed load.
import { expect } from '@open-wc/testing';
import { defineOnFirstUse, loadElement, requestDefinition } from '../../elements/shared/lazy-define.js';
import '../../elements/session/define.js';

const waitUntil = async (check: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting until ${what}`);
};

/** A loader that counts its calls and defines `tag` (or fails while `fail.now`). */
function loaderFor(tag: string, fail = { now: false }) {
  const calls = { count: 0 };
  const load = async (): Promise<void> => {
    calls.count++;
    await Promise.resolve();
    if (fail.now) throw new Error(`chunk of ${tag} unavailable`);
    if (!customElements.get(tag)) customElements.define(tag, class extends HTMLElement {});
  };
  return { load, calls };
}

describe('defining elements on first use', () => {
  it('loads a tag already in the document once, and one added later when it is added', async () => {
    const present = document.createElement('lazy-present');
    document.body.append(present);
    const a = loaderFor('lazy-present');
    const b = loaderFor('lazy-later');
    defineOnFirstUse({ 'lazy-present': a.load, 'lazy-later': b.load });
    await waitUntil(() => !!customElements.get('lazy-present'), 'lazy-present is defined');
    expect(b.calls.count).to.equal(0);
    const wrapper = document.createElement('div');
    wrapper.innerHTML = '<p><lazy-later></lazy-later><lazy-later></lazy-later></p>';
    document.body.append(wrapper);
    await waitUntil(() => !!customElements.get('lazy-later'), 'lazy-later is defined');
    expect(a.calls.count).to.equal(1);
    expect(b.calls.count).to.equal(1);
    present.remove();
    wrapper.remove();
  });

  it('a tag inside a shadow root loads when its renderer asks for it; loadElement resolves with the class', async () => {
    const inShadow = loaderFor('lazy-in-shadow');
    const byClass = loaderFor('lazy-by-class');
    defineOnFirstUse({ 'lazy-in-shadow': inShadow.load, 'lazy-by-class': byClass.load });
    const host = document.createElement('div');
    host.attachShadow({ mode: 'open' }).innerHTML = '<lazy-in-shadow></lazy-in-shadow>';
    document.body.append(host);
    await new Promise((r) => setTimeout(r, 50));
    expect(customElements.get('lazy-in-shadow'), 'a shadow root is out of the document observer’s sight').to.equal(undefined);
    requestDefinition('lazy-in-shadow');
    await waitUntil(() => !!customElements.get('lazy-in-shadow'), 'lazy-in-shadow is defined');
    const ctor = await loadElement('lazy-by-class');
    expect(ctor).to.equal(customElements.get('lazy-by-class'));
    expect(await loadElement('lazy-by-class')).to.equal(ctor);
    expect(byClass.calls.count).to.equal(1);
    host.remove();
  });

  it('tags beside an <ahp-session> inside a page component shadow root load, now and when added later', async () => {
    const present = loaderFor('lazy-beside-session');
    const later = loaderFor('lazy-added-beside-session');
    defineOnFirstUse({ 'lazy-beside-session': present.load, 'lazy-added-beside-session': later.load });
    const host = document.createElement('div');
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = '<lazy-beside-session></lazy-beside-session>';
    document.body.append(host);
    await new Promise((r) => setTimeout(r, 50));
    expect(customElements.get('lazy-beside-session'), 'not seen before a session is in that shadow root').to.equal(undefined);
    root.append(document.createElement('ahp-session'));
    await waitUntil(() => !!customElements.get('lazy-beside-session'), 'the tag beside the session is defined');
    root.querySelector('ahp-session')!.append(document.createElement('lazy-added-beside-session'));
    await waitUntil(() => !!customElements.get('lazy-added-beside-session'), 'a tag added later in that shadow root is defined');
    expect([present.calls.count, later.calls.count]).to.deep.equal([1, 1]);
    host.remove();
  });

  it('loadElement rejects for a tag nobody registered; a failed chunk is logged and tried again next time', async () => {
    let error: unknown;
    await loadElement('lazy-unknown').catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('<lazy-unknown>');

    const fail = { now: true };
    const flaky = loaderFor('lazy-flaky', fail);
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      defineOnFirstUse({ 'lazy-flaky': flaky.load });
      let failed: unknown;
      await loadElement('lazy-flaky').catch((e: unknown) => (failed = e));
      expect(String(failed)).to.contain('could not be loaded');
      expect(String(logged[0]?.[0])).to.contain('<lazy-flaky>');
      // Not retried on its own (a tag on the page would retry in a loop), only when the tag shows up again.
      const stays = document.createElement('lazy-flaky');
      document.body.append(stays);
      await waitUntil(() => flaky.calls.count === 2 && logged.length === 2, 'the added tag retried once');
      await new Promise((r) => setTimeout(r, 100));
      expect(flaky.calls.count).to.equal(2);
      fail.now = false;
      const el = document.createElement('lazy-flaky');
      document.body.append(el);
      await waitUntil(() => !!customElements.get('lazy-flaky'), 'lazy-flaky is defined on its next appearance');
      expect(flaky.calls.count).to.equal(3);
      el.remove();
      stays.remove();
    } finally {
      console.error = original;
    }
  });
});

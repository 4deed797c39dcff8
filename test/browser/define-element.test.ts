import { expect } from '@open-wc/testing';
import { defineElement } from '../../elements/shared/define-element.js';
import { VERSION } from '../../elements/shared/version.js';
import { captureWarnings, expectOneVersionWarning } from './fixtures/console-warnings.js';

describe('defineElement', () => {
  it('defines a tag, and defining it again with the same version is silent', () => {
    class A extends HTMLElement {}
    class B extends HTMLElement {}
    const warnings = captureWarnings(() => {
      defineElement('test-define-same', A);
      defineElement('test-define-same', A);
      defineElement('test-define-same', B);
    });
    expect(customElements.get('test-define-same')).to.equal(A);
    expect(warnings).to.deep.equal([]);
  });

  it('keeps the first definition and warns once, naming both versions, on a version mismatch', () => {
    class Old extends HTMLElement {}
    class New extends HTMLElement {}
    const warnings = captureWarnings(() => {
      defineElement('test-define-mismatch', Old, '0.0.1-other');
      defineElement('test-define-mismatch', New);
      defineElement('test-define-mismatch', New);
    });
    expect(customElements.get('test-define-mismatch')).to.equal(Old);
    expectOneVersionWarning(warnings, 'test-define-mismatch', ['0.0.1-other', VERSION]);
  });

  it('warns about a tag defined by something other than ahp-elements', () => {
    customElements.define('test-define-foreign', class extends HTMLElement {});
    const warnings = captureWarnings(() => defineElement('test-define-foreign', class extends HTMLElement {}));
    expect(warnings.length).to.equal(1);
  });

  it('does nothing when customElements is missing (SSR)', () => {
    const descriptor = Object.getOwnPropertyDescriptor(window, 'customElements')!;
    Object.defineProperty(window, 'customElements', { value: undefined, configurable: true });
    try {
      expect(() => defineElement('test-define-ssr', class extends HTMLElement {})).not.to.throw();
    } finally {
      Object.defineProperty(window, 'customElements', descriptor);
    }
    expect(customElements.get('test-define-ssr')).to.equal(undefined);
  });

  it('VERSION matches package.json', async () => {
    const pkg = (await (await fetch('/package.json')).json()) as { version: string };
    expect(VERSION).to.equal(pkg.version);
  });
});

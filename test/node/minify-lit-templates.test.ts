import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minifyCssTemplates, minifyCssText } from '../../scripts/minify-lit-templates.mjs';

// scripts/minify-lit-templates.mjs: the static text of css`` templates in the minified builds. Each rule below writes
// what a browser parses to the same style sheet (checked on the CDN build: every element's CSSOM is identical).

test('whitespace, comments and the last semicolon go; strings and url() stay as written', () => {
  assert.equal(
    minifyCssText("\n  :host {\n    display: block; /* note */\n    font: 1rem 'A  B';\n    background: url( a b.png );\n  }\n", true, true),
    ":host{display:block;font:1rem 'A  B';background:url( a b.png )}",
  );
});

test('an attribute selector value that is an identifier loses its quotes; any other keeps them', () => {
  assert.equal(minifyCssText(".a[data-kind='error'] {}", true, true), '.a[data-kind=error]{}');
  assert.equal(minifyCssText('[aria-checked="true"] {}', true, true), '[aria-checked=true]{}');
  assert.equal(minifyCssText("[title='two words'] {}", true, true), "[title='two words']{}");
  assert.equal(minifyCssText("[data-n='1st'] {}", true, true), "[data-n='1st']{}");
  assert.equal(minifyCssText("[data-x='a' i] {}", true, true), "[data-x='a' i]{}");
  // Not an attribute selector: a string after `=` that does not close a `[…]`.
  assert.equal(minifyCssText(".a::after { content: 'x'; }", true, true), ".a::after{content:'x'}");
});

test('no space around a combinator in a selector, but calc() and at-rules keep theirs', () => {
  assert.equal(minifyCssText('.group + .group { margin: 0 }', true, true), '.group+.group{margin:0}');
  assert.equal(minifyCssText('ul > li ~ li { margin: 0 }', true, true), 'ul>li~li{margin:0}');
  assert.equal(minifyCssText(':host { --w: calc(1px + 2px); width: calc(100% - 1px + 2px) }', true, true), ':host{--w:calc(1px + 2px);width:calc(100% - 1px + 2px)}');
  assert.equal(minifyCssText('@media (width > 40rem) { .a > .b { order: 1 } }', true, true), '@media (width > 40rem){.a>.b{order:1}}');
});

test('0.5 becomes .5, except in a custom property, whose value keeps the text it was written with', () => {
  assert.equal(minifyCssText('.a { opacity: 0.6; margin: 0.5rem 10.5rem; }', true, true), '.a{opacity:.6;margin:.5rem 10.5rem}');
  assert.equal(minifyCssText(':host { --_size: var(--ahp-size, 0.875rem); }', true, true), ':host{--_size:var(--ahp-size,0.875rem)}');
});

test('interpolations are kept and split the text the rules see (a selector cut by one keeps its spaces)', () => {
  assert.equal(
    minifyCssTemplates("const s = css`\n  button { ${base} cursor: pointer; }\n  .x > ${sel} { opacity: 0.5 }\n`;"),
    'const s = css`button{${base} cursor:pointer}.x > ${sel}{opacity:.5}`;',
  );
});

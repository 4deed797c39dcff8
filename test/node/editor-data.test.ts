// Editor support: the VS Code custom HTML data and the JetBrains web-types are generated from custom-elements.json
// (scripts/editor-data.mjs via `npm run docs`), committed, shipped in the package and kept current by `docs --check`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { editorDataFiles } from '../../scripts/editor-data.mjs';
import { elementsOf } from '../../scripts/manifest-model.mjs';

const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
const elements = elementsOf(manifest);
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

describe('editor data (VS Code custom data, JetBrains web-types)', () => {
  const files = editorDataFiles(manifest);

  it('the committed files are what the manifest generates', () => {
    for (const [file, content] of files) assert.equal(readFileSync(file, 'utf8'), content, `${file} is stale: run npm run docs`);
  });

  it('VS Code: every element with every attribute; literal-union attributes list their values', () => {
    const data = JSON.parse(files.get('editor/vscode.html-custom-data.json')!);
    assert.equal(data.version, 1.1);
    assert.deepEqual(data.tags.map((t: { name: string }) => t.name), elements.map((e) => e.tagName));
    for (const el of elements) {
      const tag = data.tags.find((t: { name: string }) => t.name === el.tagName);
      assert.deepEqual(tag.attributes.map((a: { name: string }) => a.name), el.attributes.map((a) => a.name), el.tagName);
      assert.ok(tag.description.length > 10, `${el.tagName} has a description`);
    }
    const mode = data.tags.find((t: { name: string }) => t.name === 'ahp-mcp-app').attributes.find((a: { name: string }) => a.name === 'display-mode');
    assert.deepEqual(mode.values.map((v: { name: string }) => v.name), ['inline', 'fullscreen', 'pip']);
    const worker = data.tags.find((t: { name: string }) => t.name === 'ahp-session').attributes.find((a: { name: string }) => a.name === 'worker');
    assert.deepEqual(worker.values.map((v: { name: string }) => v.name), ['shared', 'dedicated']);
  });

  it('web-types: elements with attributes, events and CSS parts; named by package.json and shipped', () => {
    const data = JSON.parse(files.get('editor/web-types.json')!);
    assert.equal(data.name, 'ahp-elements');
    assert.equal(data.version, pkg.version);
    const html = data.contributions.html.elements;
    for (const el of elements) {
      const w = html.find((x: { name: string }) => x.name === el.tagName);
      assert.ok(w, el.tagName);
      assert.deepEqual(w.attributes.map((a: { name: string }) => a.name), el.attributes.map((a) => a.name));
      assert.deepEqual(w.js.events.map((e: { name: string }) => e.name), el.events.map((e) => e.name));
      assert.deepEqual(w.css.parts.map((p: { name: string }) => p.name), el.cssParts.map((p) => p.name));
    }
    assert.equal(pkg['web-types'], './editor/web-types.json');
    assert.ok(pkg.files.includes('editor'), 'package.json files ships editor/');
    assert.equal(pkg.exports['./editor/*'], './editor/*');
  });
});

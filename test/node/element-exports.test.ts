// Every event class an element documents (custom-elements.json) is exported from `ahp-elements/elements`: the React
// wrappers and the framework typings import them from there, and pages need them for `instanceof` and types.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { elementsOf } from '../../scripts/manifest-model.mjs';

describe('elements/index.ts exports', () => {
  it('every documented event class, and the localization API', async () => {
    const exported = (await import('../../elements/index.js')) as Record<string, unknown>;
    const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8'));
    const missing = [...new Set(elementsOf(manifest).flatMap((el) => el.events.map((e) => e.eventClass)))].filter(
      (cls): cls is string => !!cls && typeof exported[cls] !== 'function',
    );
    assert.deepEqual(missing, [], `not exported from elements/index.ts: ${missing.join(', ')}`);
    for (const name of ['registerLanguage', 'loadLanguage', 'translate', 'LocaleController']) assert.equal(typeof exported[name], 'function', name);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiateVersion, parseVersion } from '../../src/host.js';

test('picks the highest compatible offer regardless of offer order and echoes it exactly', () => {
  assert.deepEqual(negotiateVersion(['1.0.0', '1.2.0', '0.9.1']), { kind: 'ok', version: '1.2.0' });
  assert.deepEqual(negotiateVersion(['0.9.0', '0.9.4']), { kind: 'ok', version: '0.9.4' });
  assert.deepEqual(negotiateVersion(['2.0.0', '1.1.0']), { kind: 'ok', version: '1.1.0' });
});

test('caret ranges: same major for 1.x, same minor for 0.x, never below the baseline', () => {
  for (const v of ['2.0.0', '0.10.0', '0.8.9', '0.5.0', '0.0.1']) {
    assert.deepEqual(negotiateVersion([v]), { kind: 'unsupported', supportedVersions: ['^1.0.0', '^0.9.0'] }, v);
  }
  assert.equal(negotiateVersion(['1.99.3']).kind, 'ok');
  assert.deepEqual(negotiateVersion(['0.5.0'], ['0.5.0']), { kind: 'ok', version: '0.5.0' });
});

test('malformed versions are reported, even next to a good one', () => {
  for (const bad of ['1.0', '1.0.0-beta', 'v1.0.0', '01.0.0', '', 3, null]) {
    assert.deepEqual(negotiateVersion(['1.0.0', bad]), { kind: 'malformed', value: bad });
  }
  assert.deepEqual(parseVersion('10.20.30'), [10, 20, 30]);
  assert.equal(parseVersion('1.2.3.4'), undefined);
});

test('an empty offer is unsupported', () => {
  assert.equal(negotiateVersion([]).kind, 'unsupported');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errorText, isObjectOrArray, isPlainObject, isRecord } from '../../src/protocol/guards.js';
import { randomId } from '../../src/protocol/random-id.js';
import { isRecord as reducersIsRecord } from '../../src/reducers/guards.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('isRecord: plain objects only (no arrays, null or primitives)', () => {
  for (const yes of [{}, { a: 1 }, Object.create(null), new Date(0)]) assert.equal(isRecord(yes), true, typeof yes);
  for (const no of [[], [1], null, undefined, 0, '', 'x', true, 1n, Symbol('s'), () => {}]) assert.equal(isRecord(no), false, typeof no);
  assert.equal(reducersIsRecord, isRecord, 'the reducers use the same guard');
});

test('isObjectOrArray: any non-null object, arrays included', () => {
  for (const yes of [{}, [], [1], { a: 1 }]) assert.equal(isObjectOrArray(yes), true);
  for (const no of [null, undefined, 0, 'x', true, () => {}]) assert.equal(isObjectOrArray(no), false);
});

test('isPlainObject: object literals and null-prototype objects, not arrays, dates or class instances', () => {
  for (const yes of [{}, { a: [1] }, Object.create(null), JSON.parse('{"a":1}'), structuredClone({ b: 2 })]) assert.equal(isPlainObject(yes), true);
  for (const no of [[], null, 'x', new Date(0), new Map(), new (class Thing {})()]) assert.equal(isPlainObject(no), false);
});

test('errorText: the message of an Error, else the value as text', () => {
  assert.equal(errorText(new TypeError('bad input')), 'bad input');
  assert.equal(errorText('plain'), 'plain');
  assert.equal(errorText(42), '42');
  assert.equal(errorText(undefined), 'undefined');
  assert.equal(errorText(null), 'null');
});

/** Runs `fn` with `globalThis.crypto` replaced by `replacement` (undefined removes it). */
function withCrypto<T>(replacement: unknown, fn: () => T): T {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  Object.defineProperty(globalThis, 'crypto', { value: replacement, configurable: true, writable: true });
  try {
    return fn();
  } finally {
    if (original) Object.defineProperty(globalThis, 'crypto', original);
  }
}

test('randomId: a v4 UUID from randomUUID, getRandomValues, or Math.random, distinct each call', () => {
  const ids = new Set(Array.from({ length: 200 }, randomId));
  assert.equal(ids.size, 200);
  for (const id of ids) assert.match(id, UUID);

  const viaGetRandomValues = withCrypto({ getRandomValues: (b: Uint8Array) => globalThis.crypto === undefined ? b : b.fill(0xff) }, () => randomId());
  assert.equal(viaGetRandomValues, 'ffffffff-ffff-4fff-bfff-ffffffffffff');

  const withoutCrypto = withCrypto(undefined, () => [randomId(), randomId()]);
  for (const id of withoutCrypto) assert.match(id, UUID);
  assert.notEqual(withoutCrypto[0], withoutCrypto[1]);
});

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.ts$/.test(name)) yield path;
  }
}

test('one home: no other copy of isRecord / isObject / isPlainObject / errorText / randomId in src, elements or the playground', () => {
  const copy = /(?:function|const)\s+(isRecord|isObject|isPlainObject|isObjectOrArray|errorText|randomId)\b\s*[=(<]/;
  const found: string[] = [];
  for (const root of ['src', 'elements', 'examples/playground']) {
    for (const file of sources(root)) {
      if (file === join('src', 'protocol', 'guards.ts') || file === join('src', 'protocol', 'random-id.ts')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => copy.test(line) && found.push(`${file}:${i + 1}: ${line.trim()}`));
    }
  }
  assert.deepEqual(found, []);
});

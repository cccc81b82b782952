// The routes a batch of strings takes by cost (js/src/keys/keys.ts,
// JOIN_MAX_UNITS): short strings joined and encoded in one call; longer ones on
// the TextEncoder route through the single-key path key by key, and in Node,
// text that is not ASCII (UTF-16 units, JOIN_MAX_UNITS_AS_UNITS) written one
// by one into the arena, then one crossing. Keys exactly at, just below and
// just above each limit, and mixed batches, must be stored and answered
// exactly as the loop of single calls stores and answers them, and a bad key
// or a full filter must fail the same way on every route.
import { readFileSync } from 'node:fs';
import { init, FilterError, KeyBatch, BloomFilter, CuckooFilter, CountingBloomFilter } from 'cuckoo-bloom-wasm';
import { prng, randomInt, thrownBy, utf8 } from '../helpers/keys.mjs';

beforeAll(() => init());

// The limits as the source states them, so these tests follow them when they move.
const source = readFileSync(new URL('../../js/src/keys/keys.ts', import.meta.url), 'utf8');
const limit = (name) => {
  const match = new RegExp(`const ${name} = (\\d+);`).exec(source);
  if (match === null) throw new Error(`keys.ts no longer declares ${name}`);
  return Number(match[1]);
};
const JOIN_MAX_UNITS = limit('JOIN_MAX_UNITS');
const JOIN_MAX_UNITS_AS_UNITS = limit('JOIN_MAX_UNITS_AS_UNITS');

// Pieces of text that is not ASCII: 2- and 3-byte characters, a surrogate
// pair (2 units), lone surrogates of both halves.
const WIDE = ['é', 'Ж', '日', '€', '😀', '\ud800', '\udc00', '\udbff', 'a', 'b'];

/** Key `i` of exactly `units` UTF-16 units (at least the prefix's). */
function keyOf(i, units, wide, random) {
  let key = `${i}:`;
  while (key.length < units) {
    const piece = wide ? WIDE[randomInt(random, WIDE.length)] : String.fromCharCode(97 + randomInt(random, 26));
    key += key.length + piece.length <= units ? piece : 'x';
  }
  return key;
}

function keysOf(count, units, wide, seed) {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => keyOf(i, units, wide, random));
}

/** Keys of every length from 0 to 3 × `around` units, some empty, ASCII or not. */
function mixedKeys(count, around, seed) {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => {
    if (i % 97 === 0) return '';
    return keyOf(i, randomInt(random, 3 * around), random() < 0.5, random);
  });
}

/** Each key's own UTF-8, one after another, as KeyBatch must hold them. */
function expectedBytes(keys) {
  const parts = keys.map((key) => (typeof key === 'string' ? utf8.encode(key) : key));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  const offsets = new Uint32Array(keys.length + 1);
  parts.forEach((part, i) => {
    bytes.set(part, offsets[i]);
    offsets[i + 1] = offsets[i] + part.length;
  });
  return { bytes, offsets };
}

/**
 * addMany, hasMany (arrays and KeyBatches), removeMany and KeyBatch.from on
 * `keys` against the loop of single calls, on a Bloom filter and a counting
 * one (removal). `queries` mixes stored keys with keys never stored.
 */
function expectSameAsLoop(keys, queries) {
  for (const Class of [BloomFilter, CountingBloomFilter]) {
    const options = { capacity: keys.length + 10, falsePositiveRate: 0.01, seed: 17 };
    const looped = new Class(options);
    const batched = new Class(options);
    for (const key of keys) looped.add(key);
    batched.addMany(keys);
    expect(batched.equals(looped)).toBe(true);
    const expected = Uint8Array.from(queries, (key) => (looped.has(key) ? 1 : 0));
    expect(sameBytes(batched.hasMany(queries, { as: 'Uint8Array' }), expected)).toBe(true);
    expect(sameBytes(batched.hasMany(KeyBatch.from(queries), { as: 'Uint8Array' }), expected)).toBe(true);
    expect(batched.hasMany(queries.slice(0, 50))).toEqual(Array.from(expected.subarray(0, 50), (b) => b === 1));
    if (Class === CountingBloomFilter) {
      const removing = queries.slice(0, 300);
      let removed = 0;
      for (const key of removing) removed += looped.remove(key) ? 1 : 0;
      expect(batched.removeMany(removing)).toBe(removed);
      expect(batched.equals(looped)).toBe(true);
    }
    looped.free();
    batched.free();
  }
  const batch = KeyBatch.from(keys);
  const { bytes, offsets } = expectedBytes(keys);
  // Compared as Buffers: Jest's toEqual walks megabytes element by element.
  expect(batch.offsets.length).toBe(offsets.length);
  expect(sameBytes(new Uint8Array(batch.offsets.buffer, batch.offsets.byteOffset, batch.offsets.byteLength), new Uint8Array(offsets.buffer))).toBe(true);
  expect(sameBytes(batch.bytes, bytes)).toBe(true);
}

function sameBytes(a, b) {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

describe.each([
  { route: 'ASCII (TextEncoder)', wide: false, limitUnits: JOIN_MAX_UNITS },
  { route: 'not ASCII (UTF-16 units in Node)', wide: true, limitUnits: JOIN_MAX_UNITS_AS_UNITS },
])('keys around the join limit, $route', ({ wide, limitUnits }) => {
  test.each([
    ['just below', -1],
    ['exactly at', 0],
    ['just above', 1],
  ])('%s the limit: batches store and answer as the loop does', (_, delta) => {
    const units = limitUnits + delta;
    // Enough keys for several batches (65,472 units each), so the route of
    // a batch after one that was not ASCII is taken too.
    const count = Math.ceil((4 * 65472) / units);
    const keys = keysOf(count, units, wide, 100 + units);
    const absent = keysOf(400, units, wide, 200 + units).map((key) => `~${key.slice(1)}`);
    expectSameAsLoop(keys, [...keys.slice(0, 600), ...absent]);
  });
});

describe('mixed batches', () => {
  test('lengths from empty to three times each limit, ASCII and not, alternating runs', () => {
    const keys = [
      ...mixedKeys(1500, JOIN_MAX_UNITS, 5),
      ...keysOf(700, JOIN_MAX_UNITS + 50, false, 6),
      ...mixedKeys(1500, JOIN_MAX_UNITS_AS_UNITS, 7),
      ...keysOf(700, JOIN_MAX_UNITS_AS_UNITS + 50, true, 8),
      ...keysOf(700, 12, false, 9),
    ];
    expectSameAsLoop(keys, [...keys.filter((_, i) => i % 3 === 0), ...mixedKeys(500, JOIN_MAX_UNITS, 10)]);
  });

  test('long keys with bytes among them, empty strings, and a surrogate pair split between two long keys', () => {
    const random = prng(11);
    const keys = [];
    for (let i = 0; i < 900; i++) {
      const long = keyOf(i, JOIN_MAX_UNITS + 1 + randomInt(random, 100), i % 2 === 1, random);
      if (i % 10 === 3) keys.push(utf8.encode(long));
      else if (i % 10 === 5) keys.push('');
      else if (i % 10 === 7) keys.push(`${long}\ud83d`, `\ude00${long}`);
      else keys.push(long);
    }
    expectSameAsLoop(keys, keys);
    // Each half alone is a lone surrogate (U+FFFD), never a 4-byte character.
    const split = keys.find((key) => typeof key === 'string' && key.endsWith('\ud83d'));
    expect(KeyBatch.from([split]).bytes.subarray(-3)).toEqual(new Uint8Array([0xef, 0xbf, 0xbd]));
  });
});

test('a cuckoo filter filling up on long keys: FULL at the first key not stored, as the loop finds it', () => {
  for (const [units, wide] of [
    [JOIN_MAX_UNITS + 30, false],
    [JOIN_MAX_UNITS_AS_UNITS + 30, true],
    [30, false],
  ]) {
    const keys = keysOf(2000, units, wide, 400 + units);
    const options = { capacity: 500, seed: 4 };
    const looped = new CuckooFilter(options);
    let loopFull = -1;
    for (let i = 0; i < keys.length && loopFull < 0; i++) {
      const error = thrownBy(() => looped.add(keys[i]));
      if (error !== undefined) {
        expect(error.code).toBe('FULL');
        loopFull = i;
      }
    }
    expect(loopFull).toBeGreaterThan(0);
    const batched = new CuckooFilter(options);
    const caught = thrownBy(() => batched.addMany(keys));
    expect(caught).toBeInstanceOf(FilterError);
    expect(caught.code).toBe('FULL');
    expect(caught.index).toBe(loopFull);
    expect(batched.count).toBe(loopFull);
    expect(batched.hasMany(keys.slice(0, loopFull)).every(Boolean)).toBe(true);
    looped.free();
    batched.free();
  }
});

describe('a bad key fails every route as it fails has()', () => {
  const cases = [
    { name: 'a number', bad: 42 },
    { name: 'null', bad: null },
    {
      name: 'a detached Uint8Array',
      bad: (() => {
        const key = new Uint8Array([1, 2, 3]);
        structuredClone(key.buffer, { transfer: [key.buffer] });
        return key;
      })(),
    },
  ];
  test.each(cases)('$name among long keys: INVALID_ARGUMENT with its index; nothing after it stored', ({ bad }) => {
    for (const [units, wide] of [
      [JOIN_MAX_UNITS + 7, false],
      [JOIN_MAX_UNITS_AS_UNITS + 7, true],
      [20, false],
    ]) {
      const keys = keysOf(1200, units, wide, 300 + units);
      const badIndex = 1000;
      const withBad = [...keys.slice(0, badIndex), bad, ...keys.slice(badIndex)];
      const filter = new CuckooFilter({ capacity: 2000, falsePositiveRate: 0.000001, seed: 3 });
      const single = thrownBy(() => filter.has(bad));
      expect(single).toBeInstanceOf(FilterError);
      for (const call of [() => filter.hasMany(withBad), () => KeyBatch.from(withBad), () => filter.addMany(withBad)]) {
        const caught = thrownBy(call);
        expect(caught).toBeInstanceOf(FilterError);
        expect(caught.code).toBe(single.code);
        expect(caught.index).toBe(badIndex);
        expect(caught.message).toContain(`key ${badIndex}`);
      }
      expect(filter.count).toBeLessThanOrEqual(badIndex);
      expect(filter.hasMany(keys.slice(badIndex)).some(Boolean)).toBe(false);
      filter.free();
    }
  });
});

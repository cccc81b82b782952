// What hasMany returns, key for key, whatever route each batch took: the
// boolean[] is written straight from each batch's result bytes in wasm memory,
// and the key arena keeps its typed-array views of that memory between
// batches, re-made only after memory grows. So: the answers must be the
// loop's at every index across many batches and every route (short strings
// joined, long strings key by key, text that is not ASCII, bytes, KeyBatch),
// real booleans with no holes, and still right when wasm memory grows in the
// middle of a call (stale views read nothing and write nowhere).
import { init, KeyBatch, BloomFilter, CuckooFilter } from 'cuckoo-bloom-wasm';
import { prng, randomInt, utf8 } from '../helpers/keys.mjs';

beforeAll(() => init());

const TYPES = [
  { name: 'bloom', Class: BloomFilter },
  { name: 'cuckoo', Class: CuckooFilter },
];

/** `count` keys of `units` UTF-16 units; `wide` mixes in 2-, 3- and 4-byte characters and lone surrogates. */
function keysOf(prefix, count, units, wide, seed) {
  const random = prng(seed);
  const pieces = wide ? ['é', '日', '😀', '\ud800', 'a', 'b'] : ['a', 'b', 'c', 'd'];
  return Array.from({ length: count }, (_, i) => {
    let key = `${prefix}${i}:`;
    while (key.length < units) {
      const piece = pieces[randomInt(random, pieces.length)];
      key += key.length + piece.length <= units ? piece : 'x';
    }
    return key;
  });
}

/** The loop's answers: has() key by key. */
function loopAnswers(filter, queries) {
  return queries.map((key) => filter.has(key));
}

/** Fails unless `answers` is a dense array of booleans equal to `expected` at every index. */
function expectSameBooleans(answers, expected) {
  expect(Array.isArray(answers)).toBe(true);
  expect(answers.length).toBe(expected.length);
  let holes = 0;
  let notBoolean = 0;
  let differing = -1;
  for (let i = 0; i < expected.length; i++) {
    if (!(i in answers)) holes++;
    if (typeof answers[i] !== 'boolean') notBoolean++;
    if (differing < 0 && answers[i] !== expected[i]) differing = i;
  }
  expect({ holes, notBoolean, differing }).toEqual({ holes: 0, notBoolean: 0, differing: -1 });
}

function expectSameBytes(answers, expected) {
  expect(answers).toBeInstanceOf(Uint8Array);
  expect(answers.length).toBe(expected.length);
  const differing = expected.findIndex((found, i) => answers[i] !== (found ? 1 : 0));
  expect(differing).toBe(-1);
}

describe.each(TYPES)('$name: hasMany answers as the loop does, key for key', ({ Class }) => {
  // Stored keys and keys never stored, interleaved, so answers alternate.
  const stored = [
    ...keysOf('s', 20000, 10, false, 1), // 10-unit ASCII: several joined batches
    ...keysOf('l', 300, 400, false, 2), // past JOIN_MAX_UNITS: key by key
    ...keysOf('w', 3000, 40, true, 3), // not ASCII: the UTF-16 route in Node
    ...keysOf('t', 3000, 12, false, 4), // short ASCII again after text that was not
  ];
  const absent = stored.map((key) => `~${key}`);
  const queries = stored.flatMap((key, i) => (i % 3 === 0 ? [absent[i], key] : [key, absent[i]]));

  test('boolean[] and Uint8Array, from arrays and KeyBatches, over every route', () => {
    const filter = new Class({ capacity: stored.length, falsePositiveRate: 0.001, seed: 9 });
    filter.addMany(stored);
    const expected = loopAnswers(filter, queries);
    // Both answers occur, or this would not tell a copied true from a false.
    expect(expected.filter(Boolean).length).toBeGreaterThanOrEqual(stored.length);
    expect(expected.filter((found) => !found).length).toBeGreaterThan(stored.length / 2);
    expectSameBooleans(filter.hasMany(queries), expected);
    expectSameBooleans(filter.hasMany(queries, { as: 'boolean[]' }), expected);
    expectSameBytes(filter.hasMany(queries, { as: 'Uint8Array' }), expected);
    const batch = KeyBatch.from(queries);
    expectSameBooleans(filter.hasMany(batch), expected);
    expectSameBytes(filter.hasMany(batch, { as: 'Uint8Array' }), expected);
    filter.free();
  });

  test('bytes among strings, empty strings and lone surrogates', () => {
    const random = prng(5);
    const keys = keysOf('m', 6000, 10, false, 6).map((key, i) => {
      if (i % 7 === 0) return utf8.encode(key);
      if (i === 22 || i === 4411) return ''; // stored (even index), and asked again
      if (i % 13 === 0) return `${key}\udc00`;
      return randomInt(random, 4) === 0 ? `${key}é` : key;
    });
    const filter = new Class({ capacity: keys.length, falsePositiveRate: 0.001, seed: 2 });
    filter.addMany(keys.filter((_, i) => i % 2 === 0));
    const expected = loopAnswers(filter, keys);
    expect(expected.some((found) => !found)).toBe(true);
    expectSameBooleans(filter.hasMany(keys), expected);
    expectSameBytes(filter.hasMany(keys, { as: 'Uint8Array' }), expected);
    filter.free();
  });

  test('an empty batch is an empty array, or an empty Uint8Array', () => {
    const filter = new Class({ capacity: 100 });
    expect(filter.hasMany([])).toEqual([]);
    expect(filter.hasMany(new Set())).toEqual([]);
    expect(filter.hasMany([], { as: 'Uint8Array' })).toEqual(new Uint8Array(0));
    expect(filter.hasMany(KeyBatch.from([]))).toEqual([]);
    filter.free();
  });
});

test('wasm memory growing in the middle of a hasMany: the batches after it still answer right', () => {
  const filter = new BloomFilter({ capacity: 30000, falsePositiveRate: 0.001, seed: 4 });
  const before = keysOf('b', 12000, 10, false, 7);
  const after = keysOf('a', 12000, 10, false, 8);
  const wideAfter = keysOf('c', 4000, 40, true, 9);
  filter.addMany([...before, ...after, ...wideAfter]);
  // Long enough that the arena must grow past all of wasm memory as it is:
  // each alone is a batch, then batches of short keys follow it.
  // (`module` is the filter's protected getter, read here only to prove the growth happened.)
  const memoryBefore = filter.module.HEAPU8.length;
  const hugeAscii = 'h'.repeat(Math.ceil(memoryBefore / 2));
  const hugeWide = 'é'.repeat(Math.ceil(memoryBefore / 2));
  const queries = [
    ...before,
    '~absent-1',
    hugeAscii,
    ...after,
    '~absent-2',
    ...wideAfter.slice(0, 2000),
    hugeWide,
    ...wideAfter.slice(2000),
    ...before.map((key) => `~${key}`),
  ];
  const answers = filter.hasMany(queries);
  expect(filter.module.HEAPU8.length).toBeGreaterThan(memoryBefore);
  const expected = loopAnswers(filter, queries);
  expect(expected.filter(Boolean).length).toBeGreaterThanOrEqual(28000);
  expectSameBooleans(answers, expected);
  expectSameBytes(filter.hasMany(queries, { as: 'Uint8Array' }), expected);
  filter.free();
});

test('wasm memory growing between two hasMany calls (another allocation): the second answers right', () => {
  const filter = new BloomFilter({ capacity: 30000, falsePositiveRate: 0.001, seed: 5 });
  const keys = keysOf('g', 20000, 10, false, 10);
  filter.addMany(keys.slice(0, 10000));
  const queries = [...keys, ...keysOf('h', 3000, 40, true, 11)];
  const expected = loopAnswers(filter, queries);
  expectSameBooleans(filter.hasMany(queries), expected);
  // A filter big enough that wasm memory must grow: every view made of it before is detached now.
  const memoryBefore = filter.module.HEAPU8.length;
  const big = new BloomFilter({ capacity: Math.ceil((memoryBefore * 8) / 9.6), falsePositiveRate: 0.01 });
  expect(filter.module.HEAPU8.length).toBeGreaterThan(memoryBefore);
  expectSameBooleans(filter.hasMany(queries), expected);
  expectSameBytes(filter.hasMany(queries, { as: 'Uint8Array' }), expected);
  big.free();
  filter.free();
});

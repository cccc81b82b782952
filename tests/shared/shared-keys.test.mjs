// String keys in `cuckoo-bloom-wasm/shared` hash as the main entry hashes them
// (issue #47: the shared entry now takes the main entry's key routes,
// js/src/shared/shared-keys.ts): a string is its UTF-8 bytes exactly as
// TextEncoder writes it alone, whichever route a batch or a key takes (joined
// ASCII, joined and mapped by the core, UTF-16 units encoded by the core, key
// by key), so a Bloom-family filter's bytes equal the main entry's for the same
// keys, and `has(string)` agrees with `has(its TextEncoder bytes)`.
import * as normal from 'cuckoo-bloom-wasm';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);

const encoder = new TextEncoder();
const OPTIONS = { capacity: 200_000, falsePositiveRate: 0.01, seed: 11 };

beforeAll(async () => {
  await normal.init();
  await shared.init({ maximumMemory: 64 * 2 ** 20 });
});

/** A shared Bloom filter and the main entry's, each given `keys` by addMany; the shared one's bytes must be the main one's. */
function bothWith(keys) {
  const sharedFilter = new shared.SharedBloomFilter(OPTIONS);
  sharedFilter.addMany(keys);
  const mainFilter = new normal.BloomFilter(OPTIONS);
  mainFilter.addMany(keys);
  return { sharedFilter, mainFilter };
}

function expectSameBytes(sharedFilter, mainFilter) {
  expect(Buffer.from(sharedFilter.serialize()).equals(Buffer.from(mainFilter.serialize()))).toBe(true);
}

// Short (at most 16 units: the loop), long (the encodeInto and UTF-16 routes), 2-, 3- and 4-byte characters.
const WIDE = [
  'é',
  'naïve café',
  '日本語',
  'Ελληνικά και русский текст, long enough for the long-key routes',
  'emoji 😀 in the middle of a long enough key string',
  '😀',
  '𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞',
  'https://例え.テスト/パス?q=値&x=1',
  'ascii-only-key-after-wide-ones-0123456789',
];
// Lone surrogates (U+FFFD in TextEncoder's bytes) at the start, middle and end
// of short and long keys, and a pair split between two neighbouring keys: each
// key alone has a lone surrogate, while the two joined would be one 4-byte character.
const LONE = [
  '\uD800',
  '\uDC00',
  'a\uD83D',
  '\uDE00b',
  'lone high \uD800 in a key long enough for the core routes',
  'lone low \uDC00 in a key long enough for the core routes too',
  'ends in a high surrogate, long enough for the core \uDBFF',
  '\uDC01 starts with a low surrogate, long enough for the core',
  'x\uD83D\uDE00y',
  '\uDFFF\uD800',
];

describe('string keys hash as the main entry hashes them', () => {
  test('non-ASCII keys: the same bytes as the main entry, found as strings and as their UTF-8 bytes', () => {
    const keys = [...WIDE, ...WIDE.map((key) => `${key}-${key.length}`)];
    const { sharedFilter, mainFilter } = bothWith(keys);
    expectSameBytes(sharedFilter, mainFilter);
    for (const key of keys) {
      expect(sharedFilter.has(key)).toBe(true);
      expect(sharedFilter.has(encoder.encode(key))).toBe(true);
    }
    expect(sharedFilter.hasMany(keys.map((key) => encoder.encode(key)))).toEqual(keys.map(() => true));
    sharedFilter.free();
    mainFilter.free();
  });

  test('lone surrogates, and a pair split between two keys of a batch, as TextEncoder encodes each key alone', () => {
    const { sharedFilter, mainFilter } = bothWith(LONE);
    expectSameBytes(sharedFilter, mainFilter);
    const read = normal.BloomFilter.deserialize(sharedFilter.serialize());
    for (const key of LONE) {
      expect(sharedFilter.has(key)).toBe(true);
      expect(sharedFilter.has(encoder.encode(key))).toBe(true);
      expect(read.has(encoder.encode(key))).toBe(true);
    }
    // The split pair joined is another key: the two halves alone do not make it.
    expect(encoder.encode('a\uD83D\uDE00b')).not.toEqual(new Uint8Array([...encoder.encode('a\uD83D'), ...encoder.encode('\uDE00b')]));
    expect(sharedFilter.hasMany(LONE)).toEqual(LONE.map(() => true));
    // Key by key into a second filter (single-key routes): the same bytes.
    const oneByOne = new shared.SharedBloomFilter(OPTIONS);
    for (const key of LONE) oneByOne.add(key);
    expectSameBytes(oneByOne, mainFilter);
    for (const filter of [sharedFilter, mainFilter, read, oneByOne]) filter.free();
  });

  test('batches switch routes (ASCII, not ASCII, ASCII again; strings and bytes mixed) and every answer matches has()', () => {
    const ascii = Array.from({ length: 3000 }, (_, i) => `https://ascii.example/${i}/path`);
    const wide = Array.from({ length: 3000 }, (_, i) => `https://wïde.example/ü/${i}/日本`);
    const mixed = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? encoder.encode(`bytes-${i}-é`) : `mixed-${i}${i % 5 === 0 ? '\uD800' : ''}`));
    const added = [...ascii, ...wide, ...mixed].filter((_, i) => i % 2 === 0);
    const sharedFilter = new shared.SharedCuckooFilter({ capacity: 20_000, seed: 3 });
    sharedFilter.addMany(added);
    for (const batch of [ascii, wide, ascii, mixed, wide]) {
      expect(sharedFilter.hasMany(batch)).toEqual(batch.map((key) => sharedFilter.has(key)));
    }
    expect(sharedFilter.hasMany(added).every(Boolean)).toBe(true);
    const read = normal.CuckooFilter.deserialize(sharedFilter.serialize());
    expect(read.hasMany(added).every(Boolean)).toBe(true);
    sharedFilter.free();
    read.free();
  });
});

describe('batch sizes', () => {
  test('an empty batch: hasMany and removeMany answer [], addMany adds nothing', () => {
    const filter = new shared.SharedCountingBloomFilter(OPTIONS);
    expect(filter.hasMany([])).toEqual([]);
    filter.addMany([]);
    expect(filter.count).toBe(0);
    expect(filter.removeMany([])).toEqual([]);
    expect(filter.hasMany(new Set())).toEqual([]);
    filter.free();
  });

  test('a large batch: past 16,384 keys and 65,472 units, one key longer than a whole batch; answers in order', () => {
    // 40,000 keys of ~60 units (many crossings, cut by units before keys), a
    // 100,000-unit key (a batch of its own), wide keys and bytes among them.
    const keys = Array.from({ length: 40_000 }, (_, i) => `https://large.example/batch/${i}/${'x'.repeat(30)}`);
    keys[20_000] = 'é'.repeat(100_000);
    keys[20_001] = encoder.encode('bytes among strings');
    keys[30_000] = `wide ${'日本'.repeat(50)} \uD800`;
    const added = keys.filter((_, i) => i % 2 === 0 || i === 20_001);
    const { sharedFilter, mainFilter } = bothWith(added);
    expectSameBytes(sharedFilter, mainFilter);
    const answers = sharedFilter.hasMany(keys);
    expect(answers).toHaveLength(keys.length);
    expect(answers).toEqual(mainFilter.hasMany(keys));
    for (let i = 0; i < keys.length; i += 2) expect(answers[i]).toBe(true);
    expect(answers[20_001]).toBe(true);
    // About 1% of the absent half may be false positives, not more.
    expect(answers.filter((found, i) => found && i % 2 === 1 && i !== 20_001).length).toBeLessThan(600);
    sharedFilter.free();
    mainFilter.free();
  });

  test('removeMany of a large batch removes exactly the keys it names (counting Bloom)', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `remove-${i}-ü`);
    const filter = new shared.SharedCountingBloomFilter(OPTIONS);
    filter.addMany(keys);
    expect(filter.removeMany(keys.slice(0, 10_000)).every(Boolean)).toBe(true);
    expect(filter.hasMany(keys.slice(10_000)).every(Boolean)).toBe(true);
    expect(filter.count).toBe(10_000);
    filter.free();
  });
});

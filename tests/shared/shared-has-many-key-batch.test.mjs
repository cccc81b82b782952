// Found by an outside attack (shared/ADVERSARY.md) on the shared batch lookup (issue #47) with a KeyBatch. KeyBatch's doc
// (js/src/keys/key-batch.ts, shipped in the typings): "every filter's hasMany,
// addMany and removeMany take a KeyBatch as well as an array". The shared
// filters' hasMany refuses one: FilterError INVALID_ARGUMENT "hasMany needs an
// iterable of keys, got a KeyBatch". Either the shared hasMany takes it (the
// answers of the same keys as an array), or the doc must name the exception; this
// test holds the doc's words.
import { KeyBatch, init } from 'cuckoo-bloom-wasm';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);

beforeAll(async () => {
  await init();
  await shared.init({ maximumMemory: 64 * 2 ** 20 });
});

const KEYS = ['', 'a', 'é', '日本', ...Array.from({ length: 2000 }, (_, i) => `key-${i}`)];
const ABSENT = Array.from({ length: 2000 }, (_, i) => `absent-${i}`);

test.each([
  ['SharedBloomFilter', { capacity: 5000 }],
  ['SharedBlockedBloomFilter', { capacity: 5000 }],
  ['SharedCountingBloomFilter', { capacity: 5000 }],
  ['SharedCuckooFilter', { capacity: 5000 }],
])('%s.hasMany(KeyBatch) answers as hasMany of the same keys in an array', (className, options) => {
  const filter = new shared[className](options);
  try {
    filter.addMany(KEYS);
    const queried = [...KEYS, ...ABSENT];
    const expected = filter.hasMany(queried, { as: 'Uint8Array' });
    expect(expected.subarray(0, KEYS.length).every((byte) => byte === 1)).toBe(true);
    expect(filter.hasMany(KeyBatch.from(queried), { as: 'Uint8Array' })).toEqual(expected);
  } finally {
    filter.free();
  }
});

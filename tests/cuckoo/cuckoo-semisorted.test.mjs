// Semi-sorted cuckoo buckets through the package: one bit less per slot, the
// same answers as packed buckets, exact round trips and removals.
import { CuckooFilter, FilterError, deserialize, init } from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';

beforeAll(async () => {
  await init();
});

test('semi-sorted buckets are the default for buckets of 4, and only for them', () => {
  const byDefault = new CuckooFilter({ capacity: 1000 });
  const twos = new CuckooFilter({ capacity: 1000, bucketSize: 2 });
  expect([byDefault.semiSorted, twos.semiSorted]).toEqual([true, false]);
  byDefault.free();
  twos.free();
});

test('semiSorted: one bit less per slot, the same answers, and the bytes say so', () => {
  const semi = new CuckooFilter({ capacity: 50_000, falsePositiveRate: 0.001, seed: 9, semiSorted: true });
  // The semi-sorted table is sized to hold its capacity at a load of 0.92, a packed one at the
  // first-failure 0.95 (headroom that keeps inserts short near capacity): for the same answers,
  // the packed filter with the same bucket count (capacity ≈ 50,000 × 0.95 / 0.92).
  let capacity = Math.floor((50_000 * 0.95) / 0.92) - 50;
  let packed = new CuckooFilter({ capacity, falsePositiveRate: 0.001, seed: 9, semiSorted: false });
  while (packed.bucketCount < semi.bucketCount) {
    packed.free();
    packed = new CuckooFilter({ capacity: ++capacity, falsePositiveRate: 0.001, seed: 9, semiSorted: false });
  }
  expect(packed.bucketCount).toBe(semi.bucketCount);
  expect([packed.semiSorted, semi.semiSorted]).toEqual([false, true]);
  expect(semi.byteLength / packed.byteLength).toBeCloseTo((semi.fingerprintBits - 1) / semi.fingerprintBits, 2);
  const keys = asciiKeys(47_000, 'semi-');
  packed.addMany(keys);
  semi.addMany(keys);
  const absent = asciiKeys(100_000, 'absent-');
  expect(semi.hasMany(keys).every(Boolean)).toBe(true);
  expect(semi.hasMany(absent)).toEqual(packed.hasMany(absent));
  const copy = deserialize(semi.serialize());
  expect(copy.semiSorted).toBe(true);
  expect(copy.serialize()).toEqual(semi.serialize());
  for (let i = 0; i < keys.length; i += 3) expect(copy.remove(keys[i])).toBe(true);
  expect(copy.hasMany(keys.filter((_, i) => i % 3 !== 0)).every(Boolean)).toBe(true);
  for (const f of [packed, semi, copy]) f.free();
});

test.each([
  [{ capacity: 10, semiSorted: 1 }, /semiSorted must be true or false, got a number \(1\)/],
  [{ capacity: 10, semiSorted: true, bucketSize: 2 }, /semiSorted buckets need bucketSize 4, got 2/],
])('bad semiSorted options are INVALID_ARGUMENT: %o', (options, message) => {
  let caught;
  try {
    new CuckooFilter(options);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(FilterError);
  expect(caught.code).toBe('INVALID_ARGUMENT');
  expect(caught.message).toMatch(message);
});

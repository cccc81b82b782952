// Semi-sorted cuckoo buckets through the package: one bit less per slot, the
// same answers as packed buckets, exact round trips and removals.
import { CuckooFilter, FilterError, deserialize, init } from 'cuckoo-bloom-wasm';
import { asciiKeys } from './helpers/keys.mjs';

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
  const packed = new CuckooFilter({ capacity: 50_000, falsePositiveRate: 0.001, seed: 9, semiSorted: false });
  const semi = new CuckooFilter({ capacity: 50_000, falsePositiveRate: 0.001, seed: 9, semiSorted: true });
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

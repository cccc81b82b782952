// The growing filters from JavaScript: 10,000x growth with no false negatives
// and the measured rate under the target, bits per key against the static
// filter of the final size, round trips mid-growth, removal after growth,
// damaged bytes and the options' errors.
import { BloomFilter, CuckooFilter, ScalableBloomFilter, ScalableCuckooFilter, deserialize, init } from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';
import { expectCode } from '../helpers/filter-errors.mjs';

beforeAll(async () => {
  await init();
});

const GROWING = [
  // The bound on bits/key against the static filter of 1M keys is the
  // schedule's own arithmetic at 1M keys (docs/SCALABLE.md) plus 3%: the
  // issue's 1.6x (Bloom) and 1.3x (cuckoo) are below what any growth-2 chain
  // can reach from 100 keys (its newest link alone is 1.64x the keys).
  { name: 'scalable-bloom', Growing: ScalableBloomFilter, Static: BloomFilter, bound: { 0.01: 3.0, 0.001: 2.56 } },
  { name: 'scalable-cuckoo', Growing: ScalableCuckooFilter, Static: CuckooFilter, bound: { 0.01: 2.6, 0.001: 2.4 } },
];

describe.each(GROWING)('$name', ({ name, Growing, Static, bound }) => {
  test.each([0.01, 0.001])(
    'grows from 100 to 1,000,000 keys at %p: no false negatives, measured rate under the target',
    (rate) => {
      const keyCount = 1_000_000;
      const keys = asciiKeys(keyCount, 'in-');
      const filter = new Growing({ initialCapacity: 100, falsePositiveRate: rate, seed: 11 });
      filter.addMany(keys);
      expect(filter.hasMany(keys).every(Boolean)).toBe(true);
      expect(filter.links).toBe(14);
      expect(filter.capacity).toBe(100 * (2 ** 14 - 1));
      // 1M absent probes: at 0.1% the target expects 1000 (sd ~32).
      const probes = 1_000_000;
      const found = filter.hasMany(asciiKeys(probes, 'out-')).filter(Boolean).length;
      expect(found / probes).toBeLessThanOrEqual(rate);
      expect(filter.estimatedFalsePositiveRate).toBeLessThanOrEqual(rate);
      expect(filter.falsePositiveRate).toBe(rate);
      const flat = new Static({ capacity: keyCount, falsePositiveRate: rate });
      const ratio = (filter.byteLength * 8) / keyCount / ((flat.byteLength * 8) / keyCount);
      console.log(`${name} at ${rate}: ${filter.links} links, bits/key ${((filter.byteLength * 8) / keyCount).toFixed(2)} = ${ratio.toFixed(3)}x static, measured ${found / probes}`);
      expect(ratio).toBeLessThanOrEqual(bound[rate]);
      flat.free();
      filter.free();
    },
  );

  test('round-trips mid-growth, and the copy grows exactly as the original', () => {
    const keys = asciiKeys(60_000, `${name}-`);
    const original = new Growing({ initialCapacity: 100, falsePositiveRate: 0.001, seed: 5 });
    original.addMany(keys.slice(0, 20_000));
    const bytes = original.serialize();
    const copy = Growing.deserialize(bytes);
    const generic = deserialize(bytes);
    expect(generic).toBeInstanceOf(Growing);
    expect(copy.links).toBe(original.links);
    expect(copy.count).toBe(original.count);
    copy.addMany(keys.slice(20_000));
    original.addMany(keys.slice(20_000));
    expect(copy.hasMany(keys).every(Boolean)).toBe(true);
    expect(copy.equals(original)).toBe(true);
    for (const filter of [original, copy, generic]) filter.free();
  });

  test('damaged bytes are CORRUPT, a prefix never reads', () => {
    const filter = new Growing({ initialCapacity: 50, seed: 2 });
    filter.addMany(asciiKeys(500, 'k-'));
    expect(filter.links).toBeGreaterThanOrEqual(3);
    const bytes = filter.serialize();
    for (const at of [6 + 1, 60, Math.floor(bytes.length / 2), bytes.length - 100]) {
      const damaged = bytes.slice();
      damaged[at] ^= 0x41;
      expectCode(() => Growing.deserialize(damaged), 'CORRUPT');
    }
    for (const length of [0, 63, 64, 120, bytes.length - 1]) expectCode(() => Growing.deserialize(bytes.subarray(0, length)), 'CORRUPT');
    expectCode(() => (Growing === ScalableBloomFilter ? BloomFilter : CuckooFilter).deserialize(bytes), 'WRONG_TYPE');
    filter.free();
  });

  test('reports count, capacity, links, byteLength and the two rates', () => {
    const filter = new Growing({ initialCapacity: 100, falsePositiveRate: 0.01 });
    expect([filter.count, filter.capacity, filter.links, filter.initialCapacity, filter.growth]).toEqual([0, 100, 1, 100, 2]);
    expect(filter.estimatedFalsePositiveRate).toBe(0);
    filter.addMany(asciiKeys(1000, 'p-'));
    expect(filter.links).toBe(4);
    expect(filter.capacity).toBe(1500);
    expect(filter.count).toBeGreaterThan(990);
    expect(filter.count).toBeLessThanOrEqual(1000);
    expect(filter.byteLength).toBeGreaterThan(0);
    expect(filter.estimatedFalsePositiveRate).toBeGreaterThan(0);
    expect(filter.estimatedFalsePositiveRate).toBeLessThan(0.01);
    filter.clear();
    expect([filter.count, filter.capacity, filter.links]).toEqual([0, 100, 1]);
    filter.free();
  });

  test('rejects impossible and contradictory options with INVALID_ARGUMENT', () => {
    for (const options of [
      { initialCapacity: 0 },
      { initialCapacity: 1.5 },
      { initialCapacity: 100, capacity: 200 },
      { growth: 0.5 },
      { growth: Number.NaN },
      { growth: '2' },
      { tightening: 0 },
      { tightening: 1 },
      { falsePositiveRate: 1 },
      { initialCapacity: 2 ** 40, falsePositiveRate: 1e-9 },
      { fpr: 0.01 },
      { fingerprintBits: 12 },
      'big',
    ]) {
      expectCode(() => new Growing(options), 'INVALID_ARGUMENT');
    }
    const defaults = new Growing();
    expect(defaults.initialCapacity).toBe(1000);
    defaults.free();
  });
});

test('a scalable cuckoo filter removes after growth and never makes a false negative', () => {
  const keys = asciiKeys(100_000, 'r-');
  const filter = new ScalableCuckooFilter({ initialCapacity: 100, falsePositiveRate: 0.01, seed: 8 });
  filter.addMany(keys);
  expect(filter.links).toBeGreaterThanOrEqual(10);
  const kept = [];
  let refused = 0;
  keys.forEach((key, i) => {
    if (i % 2 === 1) kept.push(key);
    else if (!filter.remove(key)) {
      refused += 1;
      kept.push(key);
      expect(filter.has(key)).toBe(true); // ambiguous: kept, still present
    }
  });
  expect(filter.hasMany(kept).every(Boolean)).toBe(true);
  expect(filter.count).toBe(kept.length);
  // Ambiguous only when a key falsely matches another link: < 1% of 50,000.
  expect(refused).toBeLessThan(500);
  expect(filter.remove('never-added')).toBe(false);
  expectCode(() => new ScalableCuckooFilter({ bucketSize: 3 }), 'INVALID_ARGUMENT');
  filter.free();
});

test('scalable Bloom filters of the same options and length union; others are refused', () => {
  const a = new ScalableBloomFilter({ initialCapacity: 100, seed: 4 });
  const b = new ScalableBloomFilter({ initialCapacity: 100, seed: 4 });
  a.addMany(asciiKeys(600, 'a-'));
  b.addMany(asciiKeys(600, 'b-'));
  a.union(b);
  expect(a.hasMany([...asciiKeys(600, 'a-'), ...asciiKeys(600, 'b-')]).every(Boolean)).toBe(true);
  const longer = new ScalableBloomFilter({ initialCapacity: 100, seed: 4 });
  longer.addMany(asciiKeys(5000, 'c-'));
  expectCode(() => a.union(longer), 'INVALID_ARGUMENT');
  expectCode(() => a.union(new BloomFilter({ capacity: 100 })), 'INVALID_ARGUMENT');
  for (const filter of [a, b, longer]) filter.free();
});

// RibbonFilter: the static filter at the information bound, built once from a
// key set. What a user relies on: every key found (repeats included), the rate
// at or under the target at any rate, the size on the wire near log2(1/rate)
// bits per key, the bytes (golden file shared with the C++ suite), and clear
// UNSUPPORTED errors for everything a static filter cannot do.
import { BinaryFuseFilter, RibbonFilter, init } from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';
import { expectCode } from '../helpers/filter-errors.mjs';
import { staticFilterContract } from '../helpers/static-filter-contract.mjs';

beforeAll(async () => {
  await init();
});

test('at a rate between two powers of two: measured within 1.1x of it, in under 1.08 log2(1/rate) bits per key', () => {
  // 0.006 lies between 2^-7 and 2^-8: blocks of 7 and 8 columns mixed. 600k
  // probes expect 3600 false positives (sd 60): 1.1x is 6 sd above.
  const keys = asciiKeys(100000, 'in-');
  const filter = RibbonFilter.from(keys, { falsePositiveRate: 0.006 });
  expect(filter.lowerColumns).toBe(7);
  expect(filter.upperStartBlock).toBeLessThan(filter.blockCount);
  expect(filter.estimatedFalsePositiveRate).toBeLessThanOrEqual(0.006);
  const probes = asciiKeys(600000, 'out-');
  const rate = filter.hasMany(probes).filter(Boolean).length / probes.length;
  expect(rate).toBeLessThanOrEqual(1.1 * 0.006);
  expect(rate).toBeGreaterThanOrEqual(0.006 / 1.2);
  const bitsPerKey = (filter.serialize().length * 8) / keys.length;
  expect(bitsPerKey).toBeLessThanOrEqual(1.08 * Math.log2(1 / 0.006));
  // Smaller than a binary fuse filter at the same rate (which rounds up to 8 bits).
  const fuse = BinaryFuseFilter.from(keys, { falsePositiveRate: 0.006, arity: 4 });
  expect(bitsPerKey).toBeLessThan((fuse.serialize().length * 8) / keys.length);
  fuse.free();
  filter.free();
});

test('options: the rate (0.01 by default) and the seed; bad options are INVALID_ARGUMENT', () => {
  const keys = asciiKeys(100, 'o-');
  const byRate = RibbonFilter.from(keys, { falsePositiveRate: 0.001, seed: 9 });
  expect(byRate.falsePositiveRate).toBe(0.001);
  expect(byRate.lowerColumns).toBe(9);
  expect(byRate.seed).toBe(9);
  const byDefault = RibbonFilter.from(keys);
  expect(byDefault.falsePositiveRate).toBe(0.01);
  expect(byDefault.lowerColumns).toBe(6);
  for (const f of [byRate, byDefault]) f.free();
  for (const bad of [
    { falsePositiveRate: 0 },
    { falsePositiveRate: 1 },
    { falsePositiveRate: 1e-12 }, // below 2^-32
    { falsePositiveRate: '0.01' },
    { seed: -1 },
    { capacity: 100 },
    { fingerprintBits: 8 },
    { arity: 4 },
  ]) {
    expectCode(() => RibbonFilter.from(keys, bad), 'INVALID_ARGUMENT');
  }
  expectCode(() => RibbonFilter.from(keys, null), 'INVALID_ARGUMENT');
  expectCode(() => RibbonFilter.from('not-an-array', {}), 'INVALID_ARGUMENT');
});

staticFilterContract({
  Class: RibbonFilter,
  typeName: 'ribbon',
  repeats: [{ falsePositiveRate: 0.001 }],
  smallSets: { falsePositiveRate: 2 ** -16 },
  alias: 'ribbon',
  roundTrip: [{ falsePositiveRate: 0.3 }, { falsePositiveRate: 3.3e-5, seed: 123 }],
  golden: { typeId: 7, check: (read) => expect(read.lowerColumns).toBe(6) },
});

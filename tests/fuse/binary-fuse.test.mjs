// BinaryFuseFilter: the static filter, built once from a key set. What a user
// relies on: every key found (repeats included), the rate 2^-f, the size on
// the wire, the bytes (golden file shared with the C++ suite), and clear
// UNSUPPORTED errors for everything a static filter cannot do.
import { BinaryFuseFilter, init } from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';
import { expectCode } from '../helpers/filter-errors.mjs';
import { staticFilterContract } from '../helpers/static-filter-contract.mjs';

beforeAll(async () => {
  await init();
});

test('the measured false-positive rate is within 1.1x of 2^-f', () => {
  // f = 8: 2^-8. 600k probes expect 2344 false positives (sd ~48): 1.1x is
  // 4.8 sd above, 1/1.1 is 4.4 sd below.
  const filter = BinaryFuseFilter.from(asciiKeys(50000, 'in-'), { falsePositiveRate: 1 / 256 });
  expect(filter.fingerprintBits).toBe(8);
  expect(filter.estimatedFalsePositiveRate).toBe(1 / 256);
  const probes = asciiKeys(600000, 'out-');
  const found = filter.hasMany(probes).filter(Boolean).length;
  const rate = found / probes.length;
  expect(rate).toBeLessThanOrEqual(1.1 / 256);
  expect(rate).toBeGreaterThanOrEqual(1 / 256 / 1.1);
  filter.free();
});

test('bits per key on the wire at 100k keys: at most 1.15 f + 0.5, and 4-wise smaller', () => {
  const keys = asciiKeys(100000, 'wire-');
  for (const fingerprintBits of [8, 12, 16]) {
    const three = BinaryFuseFilter.from(keys, { fingerprintBits });
    const four = BinaryFuseFilter.from(keys, { fingerprintBits, arity: 4 });
    const bitsThree = (three.serialize().length * 8) / keys.length;
    const bitsFour = (four.serialize().length * 8) / keys.length;
    expect(bitsThree).toBeLessThanOrEqual(1.15 * fingerprintBits + 0.5);
    expect(bitsFour).toBeLessThan(bitsThree);
    three.free();
    four.free();
  }
});

test('options: the rate sets f, or f is given; arity 3 by default; bad options are INVALID_ARGUMENT', () => {
  const keys = asciiKeys(100, 'o-');
  const byRate = BinaryFuseFilter.from(keys, { falsePositiveRate: 0.001 });
  expect(byRate.fingerprintBits).toBe(10);
  expect(byRate.falsePositiveRate).toBe(0.001);
  expect(byRate.arity).toBe(3);
  const byDefault = BinaryFuseFilter.from(keys);
  expect(byDefault.fingerprintBits).toBe(7); // 0.01
  const byBits = BinaryFuseFilter.from(keys, { fingerprintBits: 12, seed: 9 });
  expect(byBits.falsePositiveRate).toBe(2 ** -12);
  expect(byBits.seed).toBe(9);
  for (const f of [byRate, byDefault, byBits]) f.free();
  for (const bad of [
    { falsePositiveRate: 0 },
    { falsePositiveRate: 1 },
    { falsePositiveRate: 1e-12 }, // needs more than 32 bits
    { fingerprintBits: 3 },
    { fingerprintBits: 33 },
    { fingerprintBits: 8.5 },
    { arity: 2 },
    { arity: '3' },
    { seed: -1 },
    { capacity: 100 },
    { fpr: 0.01 },
    { bucketSize: 4 },
  ]) {
    expectCode(() => BinaryFuseFilter.from(keys, bad), 'INVALID_ARGUMENT');
  }
  expectCode(() => BinaryFuseFilter.from('not-an-array', {}), 'INVALID_ARGUMENT');
  expectCode(() => BinaryFuseFilter.from([1, 2], {}), 'INVALID_ARGUMENT');
});

staticFilterContract({
  Class: BinaryFuseFilter,
  typeName: 'binary-fuse',
  repeats: [{ falsePositiveRate: 0.001, arity: 3 }, { falsePositiveRate: 0.001, arity: 4 }],
  smallSets: { fingerprintBits: 16 },
  alias: 'fuse',
  roundTrip: [{ fingerprintBits: 5 }, { fingerprintBits: 32, arity: 4, seed: 123 }],
  golden: { typeId: 5, check: (read) => expect(read.fingerprintBits).toBe(7) },
});

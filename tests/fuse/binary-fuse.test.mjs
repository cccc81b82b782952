// BinaryFuseFilter: the static filter, built once from a key set. What a user
// relies on: every key found (repeats included), the rate 2^-f, the size on
// the wire, the bytes (golden file shared with the C++ suite), and clear
// UNSUPPORTED errors for everything a static filter cannot do.
import { readFileSync } from 'node:fs';
import { BinaryFuseFilter, FilterError, UrlBlocklist, deserialize, filterType, init, serializedType } from 'cuckoo-bloom-wasm';
import { asciiKeys, firstDifference, header, prng, randomInt, thrown, utf8 } from '../helpers/keys.mjs';
import { expectCode } from '../helpers/filter-errors.mjs';

beforeAll(async () => {
  await init();
});

test('every key is found, with half of the input repeated and shuffled', () => {
  const distinct = asciiKeys(20000, 'in-');
  const random = prng(7);
  const input = [...distinct, ...distinct.slice(0, 10000)];
  for (let i = input.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    [input[i], input[j]] = [input[j], input[i]];
  }
  for (const arity of [3, 4]) {
    const filter = BinaryFuseFilter.from(input, { falsePositiveRate: 0.001, arity });
    expect(filter.count).toBe(distinct.length);
    expect(filter.arity).toBe(arity);
    expect(filter.hasMany(distinct).every(Boolean)).toBe(true);
    for (const key of distinct.slice(0, 500)) expect(filter.has(key)).toBe(true);
    // The set decides the bytes, not its order or repeats.
    const again = BinaryFuseFilter.from(distinct, { falsePositiveRate: 0.001, arity });
    expect(firstDifference(again.serialize(), filter.serialize())).toBeNull();
    again.free();
    filter.free();
  }
});

test('small sets, the empty set included, find every key and only them', () => {
  for (let n = 0; n <= 40; n++) {
    const keys = asciiKeys(n, 'small-');
    const filter = BinaryFuseFilter.from(keys, { fingerprintBits: 16 });
    expect(filter.count).toBe(n);
    expect(filter.hasMany(keys).every(Boolean)).toBe(true);
    if (n === 0) expect(filter.hasMany(asciiKeys(1000, 'out-')).some(Boolean)).toBe(false);
    filter.free();
  }
});

test('string and Uint8Array keys are the same keys', () => {
  const keys = asciiKeys(1000, 'bytes-');
  const filter = BinaryFuseFilter.from(keys.map((key) => utf8.encode(key)), {});
  expect(filter.hasMany(keys).every(Boolean)).toBe(true);
  const fromStrings = BinaryFuseFilter.from(keys, {});
  expect(firstDifference(fromStrings.serialize(), filter.serialize())).toBeNull();
  filter.free();
  fromStrings.free();
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

test('static: no constructor, add or remove, each UNSUPPORTED saying to rebuild', () => {
  const error = expectCode(() => new BinaryFuseFilter({ capacity: 10 }), 'UNSUPPORTED');
  expect(error.message).toMatch(/BinaryFuseFilter\.from/);
  const filter = BinaryFuseFilter.from(['a', 'b'], {});
  const before = filter.serialize();
  for (const change of [() => filter.add('c'), () => filter.addMany(['c']), () => filter.addIfNew('c'), () => filter.remove('a')]) {
    expect(expectCode(change, 'UNSUPPORTED').message).toMatch(/static.*BinaryFuseFilter\.from/);
  }
  expect(firstDifference(filter.serialize(), before)).toBeNull();
  expectCode(() => filterType('fuse').create({ capacity: 10 }), 'UNSUPPORTED');
  filter.free();
});

test('serialize, deserialize and clone give the same filter', () => {
  const keys = asciiKeys(3000, 'rt-');
  for (const options of [{ fingerprintBits: 5 }, { fingerprintBits: 32, arity: 4, seed: 123 }]) {
    const filter = BinaryFuseFilter.from(keys, options);
    const bytes = filter.serialize();
    expect(serializedType(bytes)).toBe('binary-fuse');
    for (const read of [BinaryFuseFilter.deserialize(bytes), deserialize(bytes), filter.clone()]) {
      expect(read).toBeInstanceOf(BinaryFuseFilter);
      expect(firstDifference(read.serialize(), bytes)).toBeNull();
      expect(read.hasMany(keys).every(Boolean)).toBe(true);
      expect(read.parameters).toEqual(filter.parameters);
      expect(read.equals(filter)).toBe(true);
      read.free();
    }
    filter.free();
  }
});

test('damaged bytes are rejected, never read as a filter', () => {
  const bytes = BinaryFuseFilter.from(asciiKeys(500, 'd-'), {}).serialize();
  for (let i = 0; i < bytes.length - 8; i += 7) {
    const damaged = bytes.slice();
    damaged[i] ^= 0x20;
    const caught = thrown(() => BinaryFuseFilter.deserialize(damaged));
    expect(caught).toBeInstanceOf(FilterError);
    expect(['CORRUPT', 'UNSUPPORTED_VERSION', 'WRONG_TYPE']).toContain(caught.code);
  }
  expectCode(() => BinaryFuseFilter.deserialize(bytes.subarray(0, bytes.length - 1)), 'CORRUPT');
});

test('the golden file: rebuilt byte for byte from "key-0" .. "key-49" (rate 0.01, seed 42), and read back', () => {
  const golden = new Uint8Array(readFileSync(new URL('../golden/binary-fuse.cbf', import.meta.url)));
  const keys = asciiKeys(50, 'key-');
  const built = BinaryFuseFilter.from(keys, { falsePositiveRate: 0.01, seed: 42 });
  expect(firstDifference(built.serialize(), golden)).toBeNull();
  expect(header(golden)).toMatchObject({ magic: 'CBWF', version: 2, type: 5, seed: 42, itemCount: 50, capacity: 50, falsePositiveRate: 0.01 });
  const read = deserialize(golden);
  expect(read.type).toBe('binary-fuse');
  expect(read.fingerprintBits).toBe(7);
  expect(read.hasMany(keys).every(Boolean)).toBe(true);
  built.free();
  read.free();
});

test('a URL blocklist built on it: every entry matches, and it cannot be created empty', () => {
  const list = UrlBlocklist.build('||evil.example^\nbad.example/dl/x.exe\n# comment', { type: 'fuse' });
  expect(list.type).toBe('binary-fuse');
  expect(list.entryCount).toBe(2);
  expect(list.match('https://www.evil.example/a')).toBe('evil.example/');
  const read = UrlBlocklist.deserialize(list.serialize());
  expect(read.match('http://bad.example/dl/x.exe?q=1')).toBe('bad.example/dl/x.exe');
  expectCode(() => list.addLine('more.example'), 'UNSUPPORTED');
  expectCode(() => UrlBlocklist.create({ type: 'binary-fuse', capacity: 10 }), 'UNSUPPORTED');
  expectCode(() => UrlBlocklist.build('a.example', { type: 'binary-fuse', capacity: 10 }), 'INVALID_ARGUMENT');
  list.free();
  read.free();
});

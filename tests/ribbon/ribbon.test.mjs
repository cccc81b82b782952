// RibbonFilter: the static filter at the information bound, built once from a
// key set. What a user relies on: every key found (repeats included), the rate
// at or under the target at any rate, the size on the wire near log2(1/rate)
// bits per key, the bytes (golden file shared with the C++ suite), and clear
// UNSUPPORTED errors for everything a static filter cannot do.
import { readFileSync } from 'node:fs';
import { BinaryFuseFilter, FilterError, RibbonFilter, UrlBlocklist, deserialize, filterType, init, serializedType } from 'cuckoo-bloom-wasm';
import { asciiKeys, firstDifference, header, prng, randomInt, thrown, utf8 } from '../helpers/keys.mjs';
import { expectCode } from '../helpers/filter-errors.mjs';

beforeAll(async () => {
  await init();
});

test('every key is found, with half of the input repeated and shuffled; the set decides the bytes', () => {
  const distinct = asciiKeys(20000, 'in-');
  const random = prng(7);
  const input = [...distinct, ...distinct.slice(0, 10000)];
  for (let i = input.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    [input[i], input[j]] = [input[j], input[i]];
  }
  const filter = RibbonFilter.from(input, { falsePositiveRate: 0.001 });
  expect(filter.count).toBe(distinct.length);
  expect(filter.hasMany(distinct).every(Boolean)).toBe(true);
  for (const key of distinct.slice(0, 500)) expect(filter.has(key)).toBe(true);
  const again = RibbonFilter.from(distinct, { falsePositiveRate: 0.001 });
  expect(firstDifference(again.serialize(), filter.serialize())).toBeNull();
  again.free();
  filter.free();
});

test('small sets, the empty set included, find every key', () => {
  for (let n = 0; n <= 40; n++) {
    const keys = asciiKeys(n, 'small-');
    const filter = RibbonFilter.from(keys, { falsePositiveRate: 2 ** -16 });
    expect(filter.count).toBe(n);
    expect(filter.hasMany(keys).every(Boolean)).toBe(true);
    if (n === 0) expect(filter.hasMany(asciiKeys(1000, 'out-')).some(Boolean)).toBe(false);
    filter.free();
  }
});

test('string and Uint8Array keys are the same keys', () => {
  const keys = asciiKeys(1000, 'bytes-');
  const filter = RibbonFilter.from(keys.map((key) => utf8.encode(key)), {});
  expect(filter.hasMany(keys).every(Boolean)).toBe(true);
  const fromStrings = RibbonFilter.from(keys, {});
  expect(firstDifference(fromStrings.serialize(), filter.serialize())).toBeNull();
  filter.free();
  fromStrings.free();
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

test('static: no constructor, add or remove, each UNSUPPORTED saying to rebuild', () => {
  const error = expectCode(() => new RibbonFilter({ capacity: 10 }), 'UNSUPPORTED');
  expect(error.message).toMatch(/RibbonFilter\.from/);
  const filter = RibbonFilter.from(['a', 'b'], {});
  const before = filter.serialize();
  for (const change of [() => filter.add('c'), () => filter.addMany(['c']), () => filter.addIfNew('c'), () => filter.remove('a')]) {
    expect(expectCode(change, 'UNSUPPORTED').message).toMatch(/static.*RibbonFilter\.from/);
  }
  expect(firstDifference(filter.serialize(), before)).toBeNull();
  expectCode(() => filterType('ribbon').create({ capacity: 10 }), 'UNSUPPORTED');
  filter.free();
});

test('serialize, deserialize and clone give the same filter', () => {
  const keys = asciiKeys(3000, 'rt-');
  for (const options of [{ falsePositiveRate: 0.3 }, { falsePositiveRate: 3.3e-5, seed: 123 }]) {
    const filter = RibbonFilter.from(keys, options);
    const bytes = filter.serialize();
    expect(serializedType(bytes)).toBe('ribbon');
    for (const read of [RibbonFilter.deserialize(bytes), deserialize(bytes), filter.clone()]) {
      expect(read).toBeInstanceOf(RibbonFilter);
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
  const bytes = RibbonFilter.from(asciiKeys(500, 'd-'), {}).serialize();
  for (let i = 0; i < bytes.length - 8; i += 7) {
    const damaged = bytes.slice();
    damaged[i] ^= 0x20;
    const caught = thrown(() => RibbonFilter.deserialize(damaged));
    expect(caught).toBeInstanceOf(FilterError);
    expect(['CORRUPT', 'UNSUPPORTED_VERSION', 'WRONG_TYPE']).toContain(caught.code);
  }
  expectCode(() => RibbonFilter.deserialize(bytes.subarray(0, bytes.length - 1)), 'CORRUPT');
});

test('the golden file: rebuilt byte for byte from "key-0" .. "key-49" (rate 0.01, seed 42), and read back', () => {
  const golden = new Uint8Array(readFileSync(new URL('../golden/ribbon.cbf', import.meta.url)));
  const keys = asciiKeys(50, 'key-');
  const built = RibbonFilter.from(keys, { falsePositiveRate: 0.01, seed: 42 });
  expect(firstDifference(built.serialize(), golden)).toBeNull();
  expect(header(golden)).toMatchObject({ magic: 'CBWF', version: 2, type: 7, seed: 42, itemCount: 50, capacity: 50, falsePositiveRate: 0.01 });
  const read = deserialize(golden);
  expect(read.type).toBe('ribbon');
  expect(read.lowerColumns).toBe(6);
  expect(read.hasMany(keys).every(Boolean)).toBe(true);
  built.free();
  read.free();
});

test('a URL blocklist built on it: every entry matches, and it cannot be created empty', () => {
  const list = UrlBlocklist.build('||evil.example^\nbad.example/dl/x.exe\n# comment', { type: 'ribbon' });
  expect(list.type).toBe('ribbon');
  expect(list.entryCount).toBe(2);
  expect(list.match('https://www.evil.example/a')).toBe('evil.example/');
  const read = UrlBlocklist.deserialize(list.serialize());
  expect(read.match('http://bad.example/dl/x.exe?q=1')).toBe('bad.example/dl/x.exe');
  expect(read.match('https://good.example/')).toBeNull();
  expectCode(() => list.addLine('more.example'), 'UNSUPPORTED');
  expectCode(() => UrlBlocklist.create({ type: 'ribbon', capacity: 10 }), 'UNSUPPORTED');
  list.free();
  read.free();
});

// SplitBlockBloomFilter, the registry type (main entry): its golden file rebuilt through the
// wasm byte for byte, its raw spec bitset both ways (parquet-mr's fixture, the spec's bits
// by hand from the reference XXH64), its typed errors, union, and that it is a registry type
// like any other (FILTER_TYPES, deserialize, the byteCount option).
import { readFileSync } from 'node:fs';
import { init, deserialize, FILTER_TYPES, FilterError, SplitBlockBloomFilter, BlockedBloomFilter } from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';
import { codeOf } from '../helpers/filter-errors.mjs';
import { xxhash64, specBitset } from './spec-reference.mjs';

const hex = (bytes) => Buffer.from(bytes).toString('hex');
// parquet-mr's 32-byte bitset (through Spark) for "a0".."a9": arrow-rs's test_with_fixture.
const PARQUET_MR = Uint8Array.of(200, 1, 80, 20, 64, 68, 8, 109, 6, 37, 4, 67, 144, 80, 96, 32, 8, 132, 43, 33, 0, 5, 99, 65, 2, 0, 224, 44, 64, 78, 96, 4);
const TEN = Array.from({ length: 10 }, (_, i) => `a${i}`);

beforeAll(async () => {
  await init();
});

test('the golden file (registered_golden_test.cpp wrote it) is what the wasm builds from the 50 golden keys', () => {
  const golden = new Uint8Array(readFileSync(new URL('../golden/split-block-bloom.cbf', import.meta.url)));
  const built = new SplitBlockBloomFilter({ capacity: 100, falsePositiveRate: 0.01, seed: 42 });
  built.addMany(asciiKeys(50, 'key-'));
  expect(hex(built.serialize())).toBe(hex(golden));
  const read = deserialize(golden);
  expect(read).toBeInstanceOf(SplitBlockBloomFilter);
  expect(asciiKeys(50, 'key-').every((key) => read.has(key))).toBe(true);
  expect([read.blockCount, read.bitCount, read.byteLength]).toEqual([4, 1024, 128]);
});

test("a bitset another writer made reads and is rebuilt byte for byte; the spec's bits by hand are the wasm's", () => {
  const read = SplitBlockBloomFilter.fromBitset(PARQUET_MR);
  expect(TEN.every((key) => read.has(key))).toBe(true);
  expect(hex(read.toBitset())).toBe(hex(PARQUET_MR));
  const built = SplitBlockBloomFilter.withByteCount(32);
  for (const key of TEN) built.add(key);
  expect(hex(built.toBitset())).toBe(hex(PARQUET_MR));
  // 500 keys of every UTF-8 length class in 1 KiB: the reference XXH64 and the spec's rule by hand.
  const keys = Array.from({ length: 500 }, (_, i) => `k${i}-${'é'.repeat(i % 40)}${'日'.repeat(i % 7)}`);
  const wasm = SplitBlockBloomFilter.withByteCount(1024);
  wasm.addMany(keys);
  expect(hex(wasm.toBitset())).toBe(hex(specBitset(1024, keys.map((key) => xxhash64(new TextEncoder().encode(key))))));
  // The envelope's payload is the bitset itself.
  const envelope = wasm.serialize();
  expect(hex(envelope.subarray(64, 64 + 1024))).toBe(hex(wasm.toBitset()));
});

test('sizes: the spec formula, or exactly byteCount; bad sizes and bitsets are typed errors', () => {
  expect(new SplitBlockBloomFilter({ capacity: 122880, falsePositiveRate: 0.01 }).byteLength).toBe(262144);
  expect(new SplitBlockBloomFilter({ capacity: 10, falsePositiveRate: 0.01, byteCount: 4096 }).byteLength).toBe(4096);
  for (const byteCount of [0, 16, 48, 1000, 2 ** 28, 1.5]) {
    expect([byteCount, codeOf(() => new SplitBlockBloomFilter({ capacity: 10, falsePositiveRate: 0.01, byteCount }))]).toEqual([byteCount, 'INVALID_ARGUMENT']);
    expect([byteCount, codeOf(() => SplitBlockBloomFilter.withByteCount(byteCount))]).toEqual([byteCount, 'INVALID_ARGUMENT']);
  }
  for (const length of [0, 1, 31, 33, 96]) {
    expect([length, codeOf(() => SplitBlockBloomFilter.fromBitset(new Uint8Array(length)))]).toEqual([length, 'CORRUPT']);
  }
  expect(codeOf(() => SplitBlockBloomFilter.fromBitset([1, 2]))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new SplitBlockBloomFilter({ capacity: 0, falsePositiveRate: 0.01 }))).toBe('INVALID_ARGUMENT');
  // Bytes of another type are WRONG_TYPE for this class, and this type's for another.
  const blocked = new BlockedBloomFilter({ capacity: 10, falsePositiveRate: 0.01 });
  expect(codeOf(() => SplitBlockBloomFilter.deserialize(blocked.serialize()))).toBe('WRONG_TYPE');
  expect(codeOf(() => BlockedBloomFilter.deserialize(SplitBlockBloomFilter.withByteCount(32).serialize()))).toBe('WRONG_TYPE');
});

test('a registry type: FILTER_TYPES lists it with union and its option, and union needs the same size and seed', () => {
  const entry = FILTER_TYPES.find((type) => type.name === 'split-block-bloom');
  expect(entry).toMatchObject({ supportsUnion: true, supportsRemove: false, isStatic: false });
  expect(entry.extraOptions).toContain('byteCount');
  const a = SplitBlockBloomFilter.withByteCount(1024).add('x');
  const b = SplitBlockBloomFilter.withByteCount(1024).add('y');
  a.union(b);
  expect([a.has('x'), a.has('y')]).toEqual([true, true]);
  const error = (() => {
    try {
      a.union(SplitBlockBloomFilter.withByteCount(2048));
    } catch (thrown) {
      return thrown;
    }
  })();
  expect(error).toBeInstanceOf(FilterError);
  expect(error.code).toBe('INVALID_ARGUMENT');
  // A seed other than the spec's 0 hashes otherwise: not a Parquet filter, but a filter.
  const seeded = new SplitBlockBloomFilter({ capacity: 10, falsePositiveRate: 0.01, byteCount: 32, seed: 7 });
  for (const key of TEN) seeded.add(key);
  expect(TEN.every((key) => seeded.has(key))).toBe(true);
  expect(hex(seeded.toBitset())).not.toBe(hex(PARQUET_MR));
});

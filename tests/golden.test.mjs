// Cross-reading with the native C++ library: tests/golden/*.cbf are written by
// the C++ suite (cpp/tests/format_test.cpp, FormatGolden.*; how, in
// tests/golden/README.md). The wasm build must produce the same bytes from the
// same filters, and read the native bytes back.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  init,
  deserialize,
  BloomFilter,
  BlockedBloomFilter,
  CountingBloomFilter,
  CuckooFilter,
} from 'cuckoo-bloom-wasm';
import { asciiKeys, utf8, header, firstDifference, HEADER_BYTES, CHECKSUM_BYTES } from './helpers/keys.mjs';

const GOLDEN = new URL('golden/', import.meta.url);
const KEYS = asciiKeys(50, 'key-'); // "key-0" ... "key-49", in that order
const OPTIONS = { capacity: 100, falsePositiveRate: 0.01, seed: 42 };

// What tests/golden/README.md says each file holds.
const GOLDEN_FILES = [
  {
    file: 'bloom.cbf',
    name: 'bloom',
    Class: BloomFilter,
    typeId: 1,
    options: OPTIONS,
    removed: [],
    size: 200,
    shape: (f) => ({ bitCount: f.bitCount, hashCount: f.hashCount }),
    expectedShape: { bitCount: 959, hashCount: 7 },
  },
  {
    file: 'blocked-bloom.cbf',
    name: 'blocked-bloom',
    Class: BlockedBloomFilter,
    typeId: 2,
    options: OPTIONS,
    removed: [],
    size: 264,
    shape: (f) => ({ blockCount: f.blockCount }),
    expectedShape: { blockCount: 3 },
  },
  {
    file: 'counting-bloom.cbf',
    name: 'counting-bloom',
    Class: CountingBloomFilter,
    typeId: 3,
    options: OPTIONS,
    removed: ['key-0'],
    size: 560,
    shape: (f) => ({ counterCount: f.counterCount, hashCount: f.hashCount }),
    expectedShape: { counterCount: 959, hashCount: 7 },
  },
  {
    file: 'cuckoo.cbf',
    name: 'cuckoo',
    Class: CuckooFilter,
    typeId: 4,
    options: { ...OPTIONS, bucketSize: 4, maxKicks: 500 },
    removed: [],
    size: 224,
    shape: (f) => ({
      bucketCount: f.bucketCount,
      bucketSize: f.bucketSize,
      fingerprintBits: f.fingerprintBits,
      maxKicks: f.maxKicks,
    }),
    expectedShape: { bucketCount: 30, bucketSize: 4, fingerprintBits: 10, maxKicks: 500 },
  },
];

const xxhsumAvailable = (() => {
  try {
    execFileSync('xxhsum', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** XXH3-64 (seed 0) by the reference xxhsum tool, as a little-endian u64 hex string. */
function referenceXxh3(bytes) {
  const output = execFileSync('xxhsum', ['-H3', '-'], { input: bytes, encoding: 'utf8' });
  return /([0-9a-f]{16})/.exec(output)[1];
}
function storedChecksum(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getBigUint64(bytes.length - CHECKSUM_BYTES, true).toString(16).padStart(16, '0');
}

beforeAll(async () => {
  await init();
});

test('the four golden files exist', () => {
  for (const { file } of GOLDEN_FILES) expect(existsSync(new URL(file, GOLDEN))).toBe(true);
});

describe.each(GOLDEN_FILES)('$file', (golden) => {
  const { Class, name, typeId, options, removed } = golden;
  const read = () => new Uint8Array(readFileSync(new URL(golden.file, GOLDEN)));

  function rebuild(add) {
    const filter = new Class(options);
    add(filter);
    for (const key of removed) expect(filter.remove(key)).toBe(true);
    const bytes = filter.serialize();
    filter.free();
    return bytes;
  }

  test('the header says what the README says', () => {
    const bytes = read();
    expect(bytes.length).toBe(golden.size);
    const h = header(bytes);
    expect(h).toMatchObject({
      magic: 'CBWF',
      version: 2,
      type: typeId,
      flags: 0,
      seed: 42,
      capacity: 100,
      falsePositiveRate: 0.01,
      itemCount: 50 - removed.length,
    });
    expect(bytes.length).toBe(HEADER_BYTES + h.paramsLength + h.payloadLength + CHECKSUM_BYTES);
  });

  test('JS rebuilds it byte for byte (single add, in order)', () => {
    const bytes = rebuild((filter) => {
      for (const key of KEYS) filter.add(key);
    });
    expect(firstDifference(bytes, read())).toBeNull();
  });

  test('JS rebuilds it byte for byte (addMany, and with Uint8Array keys)', () => {
    expect(firstDifference(rebuild((filter) => filter.addMany(KEYS)), read())).toBeNull();
    expect(firstDifference(rebuild((filter) => filter.addMany(KEYS.map((k) => utf8.encode(k)))), read())).toBeNull();
  });

  test('JS reads it: the right class, shape and keys', () => {
    const bytes = read();
    for (const filter of [Class.deserialize(bytes), deserialize(bytes)]) {
      expect(filter).toBeInstanceOf(Class);
      expect(filter.type).toBe(name);
      expect(filter.capacity).toBe(100);
      expect(filter.seed).toBe(42);
      expect(filter.falsePositiveRate).toBe(0.01);
      expect(filter.count).toBe(50 - removed.length);
      expect(golden.shape(filter)).toEqual(golden.expectedShape);
      const present = KEYS.filter((key) => !removed.includes(key));
      for (const key of present) expect([key, filter.has(key)]).toEqual([key, true]);
      expect(filter.hasMany(present).every(Boolean)).toBe(true);
      // README: "key-0" was removed from the counting filter and, with this
      // seed, is not a false positive either.
      for (const key of removed) expect(filter.has(key)).toBe(false);
      filter.free();
    }
  });

  test('serialize(deserialize(golden)) is the golden file', () => {
    const bytes = read();
    const filter = Class.deserialize(bytes);
    expect(firstDifference(filter.serialize(), bytes)).toBeNull();
    filter.free();
  });

  test('the filter read from native bytes keeps working like a JS-built one', () => {
    const native = Class.deserialize(read());
    const built = new Class(options);
    built.addMany(KEYS);
    for (const key of removed) built.remove(key);
    const more = asciiKeys(30, 'more-');
    native.addMany(more);
    built.addMany(more);
    expect(firstDifference(native.serialize(), built.serialize())).toBeNull();
    native.free();
    built.free();
  });

  (xxhsumAvailable ? test : test.skip)('its checksum is XXH3-64 of the rest (reference xxhsum)', () => {
    const bytes = read();
    expect(storedChecksum(bytes)).toBe(referenceXxh3(bytes.subarray(0, bytes.length - CHECKSUM_BYTES)));
  });
});

(xxhsumAvailable ? test : test.skip)('checksums the wasm build writes agree with the reference xxhsum', () => {
  for (const { Class } of GOLDEN_FILES) {
    const filter = new Class({ capacity: 5000, falsePositiveRate: 0.001, seed: 7 });
    filter.addMany(asciiKeys(3000, 'sum-'));
    const bytes = filter.serialize();
    expect(storedChecksum(bytes)).toBe(referenceXxh3(bytes.subarray(0, bytes.length - CHECKSUM_BYTES)));
    filter.free();
  }
});

// tests/golden/v1/: the same filters as written by format version 1. They
// must always read, find their keys, and be written back as version 2: for the
// Bloom family that is exactly this build's golden file; a version 1 cuckoo
// filter keeps its power-of-two table (its fingerprints cannot move without
// their keys).
describe.each(GOLDEN_FILES)('v1/$file', (golden) => {
  const { Class, removed } = golden;
  const readV1 = () => new Uint8Array(readFileSync(new URL(`v1/${golden.file}`, GOLDEN)));

  test('reads, finds every key, and is written back as version 2', () => {
    const bytes = readV1();
    expect(header(bytes).version).toBe(1);
    const filter = deserialize(bytes);
    expect(filter).toBeInstanceOf(Class);
    const present = KEYS.filter((key) => !removed.includes(key));
    expect(filter.hasMany(present).every(Boolean)).toBe(true);
    const rewritten = filter.serialize();
    expect(header(rewritten).version).toBe(2);
    if (golden.name === 'cuckoo') {
      expect(filter.bucketCount).toBe(32);
      const again = Class.deserialize(rewritten);
      expect(again.hasMany(present).every(Boolean)).toBe(true);
      expect(firstDifference(again.serialize(), rewritten)).toBeNull();
      again.free();
    } else {
      expect(firstDifference(rewritten, new Uint8Array(readFileSync(new URL(golden.file, GOLDEN))))).toBeNull();
    }
    filter.free();
  });
});

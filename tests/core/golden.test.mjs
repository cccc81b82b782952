// Cross-reading with the native C++ library: tests/golden/*.cbf are written by
// the C++ suite (cpp/tests/core/format_test.cpp, FormatGolden.*; how, in
// tests/golden/README.md). The wasm build must produce the same bytes from the
// same filters, and read the native bytes back.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  init, deserialize, BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter,
  ExpiringBloomFilter, ScalableBloomFilter, ScalableCuckooFilter,
} from 'cuckoo-bloom-wasm';
import { asciiKeys, utf8, header, firstDifference, HEADER_BYTES, CHECKSUM_BYTES } from '../helpers/keys.mjs';

const GOLDEN = new URL('../golden/', import.meta.url);
const KEYS = asciiKeys(50, 'key-'); // "key-0" ... "key-49", in that order
const OPTIONS = { capacity: 100, falsePositiveRate: 0.01, seed: 42 };

/**
 * One golden file, `<name>.cbf`: built from OPTIONS (unless `more.options`) with no key removed
 * (unless `more.removed`); `shape` reads back the properties `expectedShape` names.
 */
function goldenFile(name, Class, typeId, size, expectedShape, more = {}) {
  const shape = (f) => Object.fromEntries(Object.keys(expectedShape).map((property) => [property, f[property]]));
  return { file: `${name}.cbf`, name, Class, typeId, size, shape, expectedShape, options: OPTIONS, removed: [], ...more };
}

// What tests/golden/README.md says each file holds.
const GOLDEN_FILES = [
  goldenFile('bloom', BloomFilter, 1, 208, { bitCount: 971, hashCount: 7 }, { textbookSized: true }),
  goldenFile('blocked-bloom', BlockedBloomFilter, 2, 264, { blockCount: 3 }),
  goldenFile('counting-bloom', CountingBloomFilter, 3, 568, { counterCount: 971, hashCount: 7 }, {
    removed: ['key-0'],
    textbookSized: true,
  }),
  goldenFile('cuckoo', CuckooFilter, 4, 232, { bucketCount: 32, bucketSize: 4, fingerprintBits: 10, maxKicks: 500 }, {
    options: { ...OPTIONS, bucketSize: 4, maxKicks: 500 },
  }),
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
      // Bloom and counting Bloom: the version 2 bytes of the same table, as
      // this build wrote them before the exact sizing (textbook-sizing/).
      const expected = golden.textbookSized ? `textbook-sizing/${golden.file}` : golden.file;
      expect(firstDifference(rewritten, new Uint8Array(readFileSync(new URL(expected, GOLDEN))))).toBeNull();
    }
    filter.free();
  });
});

// tests/golden/textbook-sizing/: Bloom and counting Bloom filters as created
// before the exact sizing (959 bits for these options, the textbook m). New
// filters are sized differently; these must read and answer exactly as before.
describe.each(GOLDEN_FILES.filter((golden) => golden.textbookSized))('textbook-sizing/$file', (golden) => {
  test('reads, finds every key, keeps its 959-entry table and writes back the same bytes', () => {
    const bytes = new Uint8Array(readFileSync(new URL(`textbook-sizing/${golden.file}`, GOLDEN)));
    const filter = deserialize(bytes);
    expect(filter).toBeInstanceOf(golden.Class);
    expect(golden.shape(filter)).toEqual({ ...golden.expectedShape, [Object.keys(golden.expectedShape)[0]]: 959 });
    expect(filter.hasMany(KEYS.filter((key) => !golden.removed.includes(key))).every(Boolean)).toBe(true);
    for (const key of golden.removed) expect(filter.has(key)).toBe(false);
    expect(firstDifference(filter.serialize(), bytes)).toBeNull();
    filter.free();
  });
});

// Composite types (17, 18, 19): cpp/tests/registry/composite_golden_test.cpp writes
// them from the recipes in tests/golden/README.md; the wasm build makes the
// same bytes from the same recipe and reads the native bytes back.
/** `filter` after add(key) of every key, in order. */
function withKeys(filter, keys) {
  for (const key of keys) filter.add(key);
  return filter;
}

const COMPOSITE_FILES = [
  {
    file: 'scalable-bloom.cbf',
    Class: ScalableBloomFilter,
    build: () => withKeys(new ScalableBloomFilter({ initialCapacity: 20, falsePositiveRate: 0.01, seed: 42 }), KEYS),
  },
  {
    file: 'scalable-cuckoo.cbf',
    Class: ScalableCuckooFilter,
    build: () => withKeys(new ScalableCuckooFilter({ initialCapacity: 20, falsePositiveRate: 0.01, seed: 42 }), KEYS),
  },
  {
    file: 'expiring-bloom.cbf',
    Class: ExpiringBloomFilter,
    build: () => {
      const filter = new ExpiringBloomFilter({ capacity: 100, falsePositiveRate: 0.01, seed: 42, window: 60, generations: 4, clock: () => 0 });
      for (const key of KEYS.slice(0, 25)) filter.add(key);
      expect(filter.advance(25)).toBe(1);
      // Its clock still reads 0, before the new start: the adds rotate nothing.
      for (const key of KEYS.slice(25)) filter.add(key);
      return filter;
    },
  },
];

describe.each(COMPOSITE_FILES)('$file', ({ file, Class, build }) => {
  test('the wasm build makes the same bytes, and reads them back with every key', () => {
    const stored = new Uint8Array(readFileSync(new URL(file, GOLDEN)));
    const made = build();
    expect(firstDifference(made.serialize(), stored)).toBeNull();
    made.free();
    // Read with a clock at the recipe's last time, so an expiring filter drops nothing.
    const read = Class === ExpiringBloomFilter ? ExpiringBloomFilter.deserialize(stored, { clock: () => 25 }) : deserialize(stored);
    expect(read).toBeInstanceOf(Class);
    expect(read.count).toBe(KEYS.length);
    expect(read.hasMany(KEYS).every(Boolean)).toBe(true);
    expect(firstDifference(read.serialize(), stored)).toBeNull();
    read.free();
  });
});

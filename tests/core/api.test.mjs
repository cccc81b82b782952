// The API contract of cuckoo-bloom-wasm, run against the built package (dist/).
// Every filter type goes through the same table-driven checks; the
// type-specific parts (Bloom bits and union, counting counters, cuckoo
// buckets, slots and eviction walks) follow.
import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import {
  init, isInitialized, deserialize, Filter, FilterError, BloomFilter, BlockedBloomFilter,
  CountingBloomFilter, CuckooFilter,
} from 'cuckoo-bloom-wasm';
import {
  asciiKeys, nonAsciiKeys, utf8, longKey, popcount, header, payloadOf, firstDifference, HEADER_BYTES,
  CHECKSUM_BYTES,
} from '../helpers/keys.mjs';
import { BASE_TYPES as TYPES } from '../helpers/base-types.mjs';

const WASM_PATH = new URL('../../dist/core.wasm', import.meta.url);

beforeAll(async () => {
  await init();
});

function expectSameBytes(actual, expected) {
  expect(firstDifference(actual, expected)).toBeNull();
}

/**
 * positions(key) of a Bloom or counting Bloom filter: hashCount whole-number indexes below
 * `size` (its bits or counters), the same for the key's UTF-8 bytes. Returns them.
 */
function expectPositions(filter, key, size) {
  const positions = filter.positions(key);
  expect(positions).toHaveLength(filter.hashCount);
  for (const p of positions) expect(Number.isInteger(p) && p >= 0 && p < size).toBe(true);
  expect(filter.positions(utf8.encode(key))).toEqual(positions);
  return positions;
}

/**
 * A new `Class` of capacity 1000 given all of `keys`, then remove(key) of one
 * of them: it says true, the key is gone and every other key stays. Returns
 * the filter (the caller frees it).
 */
function filterWithOneKeyRemoved(Class, keys, key) {
  const filter = new Class({ capacity: 1000 });
  filter.addMany(keys);
  expect(filter.remove(key)).toBe(true);
  expect(filter.has(key)).toBe(false);
  expect(filter.hasMany(keys.filter((k) => k !== key)).every(Boolean)).toBe(true);
  return filter;
}

/** A key added twice is still there after one remove and gone after the second (`again`: the key as the second remove spells it). */
function expectTwoRemoves(filter, key, again = key) {
  expect(filter.remove(key)).toBe(true);
  expect(filter.has(key)).toBe(true);
  expect(filter.remove(again)).toBe(true);
  expect(filter.has(key)).toBe(false);
}

/** Keys that the short-key ASCII loop, TextEncoder, and the key arena's growth all see. */
const AWKWARD_KEYS = [
  '',
  'a',
  'héllo',
  '日本',
  '😀',
  'family 👩‍👩‍👧 emoji',
  'nul\u0000inside',
  'x'.repeat(32), // the longest key the short ASCII loop handles
  'x'.repeat(31) + 'é', // short key that leaves the ASCII loop at its last unit
  'y'.repeat(33), // first length past the short loop
  'lone \ud800 high', // lone surrogates: TextEncoder writes U+FFFD for each
  '\udc00 lone low',
  'é'.repeat(40),
  // In Node a long string after one that was not ASCII goes to the core as
  // UTF-16 units: lone surrogates and pairs there too, then an ASCII one.
  'é'.repeat(40) + '\ud83d',
  '\ude00' + 'é'.repeat(40) + '\ud83d\ude00',
  longKey(70 * 1024, 'a', 'ascii-long:'), // > 64 KiB: the arena must grow
  longKey(70 * 1024, '日', 'cjk-long:'), // ~210 KB of UTF-8
  longKey(100 * 1024, '😀', 'emoji-long:'), // surrogate pairs, ~200 KB of UTF-8
];

describe.each(TYPES)('$name: common API', ({ name, Class, typeId }) => {
  const make = (options = {}) => new Class({ capacity: 1000, ...options });
  /** `filter` is a live `Class` of this type with the options `options` and `count` keys. */
  const expectFilterWith = (filter, { capacity, falsePositiveRate, seed }, count) => {
    expect(filter).toBeInstanceOf(Class);
    expect(filter).toBeInstanceOf(Filter);
    expect(filter.type).toBe(name);
    expect(filter.capacity).toBe(capacity);
    expect(filter.falsePositiveRate).toBe(falsePositiveRate);
    expect(filter.seed).toBe(seed);
    expect(filter.count).toBe(count);
  };

  test('constructor options are reflected by the getters', () => {
    const options = { capacity: 1234, falsePositiveRate: 0.001, seed: 77 };
    const filter = new Class(options);
    expectFilterWith(filter, options, 0);
    expect(filter.freed).toBe(false);
    expect(filter.byteLength).toBeGreaterThan(0);
    expect(filter.byteLength % 8).toBe(0);
    filter.free();
  });

  test('defaults: falsePositiveRate 0.01, seed 0', () => {
    const filter = new Class({ capacity: 10 });
    expect(filter.falsePositiveRate).toBe(0.01);
    expect(filter.seed).toBe(0);
    filter.free();
  });

  test('the largest safe-integer seed survives the trip to wasm and back', () => {
    const filter = make({ seed: Number.MAX_SAFE_INTEGER });
    expect(filter.seed).toBe(Number.MAX_SAFE_INTEGER);
    expect(header(filter.serialize()).seed).toBe(Number.MAX_SAFE_INTEGER);
    filter.add('k');
    expect(filter.has('k')).toBe(true);
    filter.free();
  });

  test('more bits per key for a lower target rate', () => {
    const loose = make({ falsePositiveRate: 0.05 });
    const tight = make({ falsePositiveRate: 0.0001 });
    expect(tight.byteLength).toBeGreaterThan(loose.byteLength);
    loose.free();
    tight.free();
  });

  test('add returns the filter (chainable); has finds added keys; empty filter finds nothing', () => {
    const filter = make();
    const absent = asciiKeys(500, 'absent-');
    expect(absent.some((key) => filter.has(key))).toBe(false);
    expect(filter.add('a')).toBe(filter);
    expect(filter.add('b').add('c')).toBe(filter);
    for (const key of ['a', 'b', 'c']) expect(filter.has(key)).toBe(true);
    filter.free();
  });

  test('count is keys added, a repeated add included', () => {
    const filter = make();
    const keys = asciiKeys(100, 'count-');
    keys.forEach((key, i) => {
      filter.add(key);
      expect(filter.count).toBe(i + 1);
    });
    filter.add(keys[0]);
    // count is keys added: a repeat counts in every type (addIfNew skips it).
    expect(filter.count).toBe(101);
    expect(filter.addIfNew(keys[1])).toBe(false);
    expect(filter.count).toBe(101);
    filter.free();
  });

  test('bitsPerKey is byteLength * 8 / count (Infinity when empty)', () => {
    const filter = make();
    expect(filter.bitsPerKey).toBe(Infinity);
    filter.addMany(asciiKeys(250, 'bpk-'));
    expect(filter.bitsPerKey).toBeCloseTo((filter.byteLength * 8) / filter.count, 10);
    filter.free();
  });

  test('estimatedFalsePositiveRate: 0 when empty, grows with the keys, near the target when full', () => {
    const filter = make();
    expect(filter.estimatedFalsePositiveRate).toBe(0);
    let previous = 0;
    for (let chunk = 0; chunk < 10; chunk++) {
      filter.addMany(asciiKeys(100, 'est-', chunk * 100));
      const estimate = filter.estimatedFalsePositiveRate;
      expect(estimate).toBeGreaterThanOrEqual(previous);
      previous = estimate;
    }
    // At capacity every type is sized to stay near (or under) its target.
    expect(previous).toBeGreaterThan(0);
    expect(previous).toBeLessThan(1.5 * filter.falsePositiveRate);
    filter.free();
  });

  test('serialize() writes the documented header, and the payload is byteLength long', () => {
    const filter = new Class({ capacity: 500, falsePositiveRate: 0.02, seed: 9 });
    filter.addMany(asciiKeys(40, 'hdr-'));
    const bytes = filter.serialize();
    expect(bytes).toBeInstanceOf(Uint8Array);
    const h = header(bytes);
    expect(h.magic).toBe('CBWF');
    expect(h.version).toBe(2);
    expect(h.type).toBe(typeId);
    expect(h.flags).toBe(0);
    expect(h.seed).toBe(9);
    expect(h.capacity).toBe(500);
    expect(h.falsePositiveRate).toBe(0.02);
    expect(h.itemCount).toBe(filter.count);
    expect(h.payloadLength).toBe(filter.byteLength);
    expect(bytes.length).toBe(HEADER_BYTES + h.paramsLength + h.payloadLength + CHECKSUM_BYTES);
    filter.free();
  });

  test('serialize() returns an independent copy each time', () => {
    const filter = make();
    filter.add('one');
    const first = filter.serialize();
    const snapshot = first.slice();
    first.fill(0);
    expectSameBytes(filter.serialize(), snapshot);
    filter.add('two');
    expect(firstDifference(filter.serialize(), snapshot)).not.toBeNull();
    filter.free();
  });

  test('clear() empties the filter and keeps its sizing and seed', () => {
    const filter = new Class({ capacity: 1000, falsePositiveRate: 0.01, seed: 5 });
    const keys = asciiKeys(100, 'clear-');
    filter.addMany(keys);
    filter.clear();
    expect(filter.count).toBe(0);
    expect(filter.capacity).toBe(1000);
    expect(filter.seed).toBe(5);
    expect(filter.falsePositiveRate).toBe(0.01);
    expect(filter.hasMany(keys).some(Boolean)).toBe(false);
    expect(payloadOf(filter.serialize()).every((b) => b === 0)).toBe(true);
    filter.addMany(keys);
    expect(filter.hasMany(keys).every(Boolean)).toBe(true);
    filter.free();
  });

  test('has(bytes) ≡ has(string): non-ASCII, empty, NUL and > 64 KiB keys', () => {
    const asStrings = make();
    const asBytes = make();
    for (const key of AWKWARD_KEYS) {
      asStrings.add(key);
      asBytes.add(utf8.encode(key));
    }
    for (const key of AWKWARD_KEYS) {
      expect(asStrings.has(utf8.encode(key))).toBe(true);
      expect(asBytes.has(key)).toBe(true);
    }
    // Identical hashing means identical tables, byte for byte.
    expectSameBytes(asStrings.serialize(), asBytes.serialize());
    // After the arena grew for the long keys, short keys still work.
    asStrings.add('after-growth');
    expect(asStrings.has('after-growth')).toBe(true);
    expect(asStrings.has(utf8.encode('after-growth'))).toBe(true);
    asStrings.free();
    asBytes.free();
  });

  test('has(bytes) ≡ has(string) also for absent keys (same false positives)', () => {
    // A loose filter so that about a fifth of the absent keys answer true:
    // any difference between the two encodings would show up.
    const filter = new Class({ capacity: 1000, falsePositiveRate: 0.2 });
    filter.addMany(asciiKeys(1000, 'fp-'));
    const probes = [...asciiKeys(1500, 'probe-'), ...nonAsciiKeys(1500, 'プローブ-')];
    let trues = 0;
    for (const key of probes) {
      const answer = filter.has(key);
      expect(filter.has(utf8.encode(key))).toBe(answer);
      trues += answer;
    }
    expect(trues).toBeGreaterThan(0);
    expect(trues).toBeLessThan(probes.length);
    filter.free();
  });

  test('Uint8Array keys: subarray views, Buffers and copies hash alike', () => {
    const filter = make();
    const key = 'view-key-é';
    const encoded = utf8.encode(key);
    const padded = new Uint8Array(encoded.length + 10);
    padded.set(encoded, 5);
    filter.add(padded.subarray(5, 5 + encoded.length));
    expect(filter.has(key)).toBe(true);
    expect(filter.has(Buffer.from(key, 'utf8'))).toBe(true);
    expect(filter.has(new Uint8Array(encoded))).toBe(true);
    filter.free();
  });

  test('keys still encode correctly after wasm memory grew', () => {
    const filter = make();
    filter.add('before-growth');
    // ~12 MB of tables forces the wasm memory to grow, which replaces the
    // ArrayBuffer that every view of it (including the key arena's) used.
    const big = new BloomFilter({ capacity: 10_000_000, falsePositiveRate: 0.01 });
    expect(filter.has('before-growth')).toBe(true);
    expect(filter.has(utf8.encode('before-growth'))).toBe(true);
    expect(filter.hasMany(['before-growth', utf8.encode('before-growth')])).toEqual([true, true]);
    filter.add('after-growth');
    expect(filter.has('after-growth')).toBe(true);
    big.free();
    filter.free();
  });

  test('free() releases, sets freed, and is idempotent; Symbol.dispose frees too', () => {
    const filter = make();
    filter.free();
    expect(filter.freed).toBe(true);
    expect(() => filter.free()).not.toThrow();
    expect(filter.freed).toBe(true);

    expect(typeof Symbol.dispose).toBe('symbol');
    const disposable = make();
    expect(typeof disposable[Symbol.dispose]).toBe('function');
    // What `using filter = new X(...)` compiles to: dispose at the end of the block.
    {
      const scoped = disposable;
      try {
        scoped.add('scoped');
        expect(scoped.has('scoped')).toBe(true);
      } finally {
        scoped[Symbol.dispose]();
      }
    }
    expect(disposable.freed).toBe(true);
    expect(() => disposable[Symbol.dispose]()).not.toThrow();
  });

  test('deserialize (static and free function) returns the right class with the same state', () => {
    const options = { capacity: 2000, falsePositiveRate: 0.005, seed: 1234 };
    const original = new Class(options);
    const keys = asciiKeys(700, 'rt-');
    original.addMany(keys);
    const bytes = original.serialize();
    for (const copy of [Class.deserialize(bytes), deserialize(bytes)]) {
      expectFilterWith(copy, options, original.count);
      expect(copy.byteLength).toBe(original.byteLength);
      expect(copy.estimatedFalsePositiveRate).toBe(original.estimatedFalsePositiveRate);
      expect(copy.hasMany(keys).every(Boolean)).toBe(true);
      expectSameBytes(copy.serialize(), bytes);
      // The copy is independent of the original.
      copy.add('only-in-copy');
      expect(copy.has('only-in-copy')).toBe(true);
      copy.free();
    }
    expect(original.has('only-in-copy')).toBe(false);
    original.free();
  });

  test('deserialize accepts a Uint8Array view at an offset into a larger buffer', () => {
    const filter = make();
    filter.add('offset');
    const bytes = filter.serialize();
    const host = new Uint8Array(bytes.length + 13);
    host.set(bytes, 7);
    const copy = Class.deserialize(host.subarray(7, 7 + bytes.length));
    expect(copy.has('offset')).toBe(true);
    copy.free();
    filter.free();
  });
});

describe.each(TYPES)('$name: addMany / hasMany equal per-key add / has', ({ Class }) => {
  function checkBatch(keys, queries, capacity = 1000) {
    const batched = new Class({ capacity, falsePositiveRate: 0.01, seed: 3 });
    const single = new Class({ capacity, falsePositiveRate: 0.01, seed: 3 });
    batched.addMany(keys);
    for (const key of keys) single.add(key);
    expectSameBytes(batched.serialize(), single.serialize());
    expect(batched.count).toBe(single.count);

    const answers = batched.hasMany(queries);
    expect(Array.isArray(answers)).toBe(true);
    expect(answers).toHaveLength(queries.length);
    const expected = queries.map((query) => batched.has(query));
    // Compare by index to report the first mismatch, not two huge arrays.
    const mismatch = answers.findIndex((answer, i) => answer !== expected[i]);
    expect(mismatch).toBe(-1);
    expect(answers.every((answer) => typeof answer === 'boolean')).toBe(true);
    batched.free();
    single.free();
    return answers;
  }

  test('all-ASCII batch', () => {
    const keys = asciiKeys(800, 'batch-');
    const answers = checkBatch(keys, [...keys, ...asciiKeys(800, 'nope-')]);
    expect(answers.slice(0, 800).every(Boolean)).toBe(true);
    expect(answers.slice(800).some((a) => !a)).toBe(true);
  });

  test('non-ASCII batch', () => {
    const keys = nonAsciiKeys(800, 'ключ-');
    const answers = checkBatch(keys, [...nonAsciiKeys(800, 'nein-'), ...keys]);
    expect(answers.slice(800).every(Boolean)).toBe(true);
    expect(answers.slice(0, 800).some((a) => !a)).toBe(true);
  });

  test('one non-ASCII key among ASCII keys', () => {
    const keys = asciiKeys(500, 'mostly-');
    keys[250] = 'naïve';
    checkBatch(keys, [...keys, ...asciiKeys(300, 'other-')]);
  });

  test('mixed string / Uint8Array batch, ASCII and not', () => {
    const strings = [...asciiKeys(300, 'mix-'), ...nonAsciiKeys(300, 'mixé-'), '', '😀'];
    const mixed = strings.map((key, i) => (i % 3 === 0 ? utf8.encode(key) : key));
    const answers = checkBatch(mixed, [...mixed, ...strings, ...asciiKeys(300, 'absent-')]);
    expect(answers.slice(0, mixed.length * 2).every(Boolean)).toBe(true);
  });

  test('hasMany of byte keys equals hasMany of the same strings', () => {
    const filter = new Class({ capacity: 1000, falsePositiveRate: 0.2 });
    filter.addMany(nonAsciiKeys(1000, 'eq-'));
    const queries = [...nonAsciiKeys(1000, 'eq-', 500), ...asciiKeys(500, 'q-')];
    const asStrings = filter.hasMany(queries);
    const asBytes = filter.hasMany(queries.map((key) => utf8.encode(key)));
    expect(asBytes.findIndex((answer, i) => answer !== asStrings[i])).toBe(-1);
    expect(asStrings.some((a) => !a)).toBe(true);
    filter.free();
  });

  test('a batch holding a > 64 KiB key', () => {
    const keys = [...asciiKeys(100, 'around-'), longKey(80 * 1024, 'ж', 'big:'), ...nonAsciiKeys(100, 'after-')];
    checkBatch(keys, [...keys, 'absent']);
  });

  test('empty arrays: addMany([]) changes nothing, hasMany([]) is []', () => {
    const filter = new Class({ capacity: 100 });
    filter.add('x');
    const before = filter.serialize();
    expect(filter.addMany([])).toBeUndefined();
    expectSameBytes(filter.serialize(), before);
    expect(filter.hasMany([])).toEqual([]);
    filter.free();
  });

  test('batches larger than 16,384 keys (several boundary crossings)', () => {
    const keys = asciiKeys(40_000, 'large-');
    const present = keys;
    const absent = asciiKeys(40_000, 'gone-');
    // Interleave present and absent so every internal batch holds both answers.
    const queries = [];
    for (let i = 0; i < 40_000; i++) queries.push(present[i], absent[i]);
    const answers = checkBatch(keys, queries, 100_000);
    for (let i = 0; i < queries.length; i += 2) {
      if (!answers[i]) throw new Error(`false negative for ${queries[i]} at ${i}`);
    }
    expect(answers.filter((a, i) => i % 2 === 1 && !a).length).toBeGreaterThan(39_000);
  });

  test('a non-ASCII batch larger than 16,384 keys', () => {
    const keys = nonAsciiKeys(20_000, 'grand-');
    const answers = checkBatch(keys, [...keys, ...nonAsciiKeys(20_000, 'klein-')], 50_000);
    expect(answers.slice(0, 20_000).every(Boolean)).toBe(true);
  });
});

// The key arena (64 KiB at first) moves when a longer key arrives. In a module
// that is already warm the arena may be large, so each check here runs in a
// fresh module instance where the long key is the first to need more room.
describe.each(TYPES)('$name: single-key calls at the moment the key arena grows', ({ name }) => {
  const LONG = longKey(100 * 1024, 'a', `${name}-grow:`); // 100 K units: needs > 64 KiB

  async function freshModule() {
    let fresh;
    await jest.isolateModulesAsync(async () => {
      fresh = await import('cuckoo-bloom-wasm');
    });
    await fresh.init();
    return fresh;
  }
  const classOf = (module) =>
    ({
      bloom: module.BloomFilter,
      'blocked-bloom': module.BlockedBloomFilter,
      'counting-bloom': module.CountingBloomFilter,
      cuckoo: module.CuckooFilter,
    })[name];

  // The same filter built in the warm module (its arena is already large).
  function reference() {
    const filter = new (classOf({ BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter }))({
      capacity: 100,
    });
    filter.addMany([LONG]);
    return filter;
  }

  test('add(long key) stores that key', async () => {
    const fresh = await freshModule();
    const filter = new (classOf(fresh))({ capacity: 100 });
    filter.add(LONG);
    expect(filter.has(LONG)).toBe(true);
    const expected = reference();
    expectSameBytes(filter.serialize(), expected.serialize());
    expected.free();
    filter.free();
  });

  const referenceBytes = () => {
    const filter = reference();
    const bytes = filter.serialize();
    filter.free();
    return bytes;
  };

  test('has(long key) reads that key', async () => {
    const bytes = referenceBytes();
    const fresh = await freshModule();
    const filter = fresh.deserialize(bytes);
    expect(filter.has(LONG)).toBe(true);
    filter.free();
  });

  if (name !== 'cuckoo') {
    test('positions(long key) are that key\'s positions', async () => {
      const warm = reference();
      const expected = warm.positions(LONG);
      warm.free();
      const fresh = await freshModule();
      const filter = new (classOf(fresh))({ capacity: 100 });
      expect(filter.positions(LONG)).toEqual(expected);
      filter.free();
    });
  }

  if (name === 'counting-bloom' || name === 'cuckoo') {
    test('remove(long key) removes that key', async () => {
      const bytes = referenceBytes();
      const fresh = await freshModule();
      const filter = fresh.deserialize(bytes);
      expect(filter.remove(LONG)).toBe(true);
      expect(filter.has(LONG)).toBe(false);
      expect(filter.count).toBe(0);
      filter.free();
    });
  }

  if (name === 'cuckoo') {
    test('tryAdd(long key) stores that key', async () => {
      const fresh = await freshModule();
      const filter = new fresh.CuckooFilter({ capacity: 100 });
      expect(filter.tryAdd(LONG)).toBe(true);
      expect(filter.has(LONG)).toBe(true);
      filter.free();
    });

    test('locate(long key) locates that key', async () => {
      const warm = reference();
      const expected = warm.locate(LONG);
      warm.free();
      const fresh = await freshModule();
      const filter = new fresh.CuckooFilter({ capacity: 100 });
      expect(filter.locate(LONG)).toEqual(expected);
      filter.free();
    });
  }
});

describe('init()', () => {
  test('is idempotent: repeated calls resolve, the module stays initialized', async () => {
    const first = init();
    const second = init();
    expect(typeof first.then).toBe('function');
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toBeUndefined();
    expect(isInitialized()).toBe(true);
    const filter = new BloomFilter({ capacity: 10 });
    expect(filter.add('z').has('z')).toBe(true);
    filter.free();
  });

  // Each source in a fresh module registry, so init() really loads again.
  const sources = {
    'Uint8Array bytes': () => new Uint8Array(readFileSync(WASM_PATH)),
    'ArrayBuffer': () => {
      const bytes = readFileSync(WASM_PATH);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
    'file path string': () => WASM_PATH.pathname,
    'file: URL': () => WASM_PATH,
    'file: URL string': () => WASM_PATH.href,
  };
  test.each(Object.keys(sources))('init({ wasm: %s }) loads the module', async (label) => {
    let fresh;
    await jest.isolateModulesAsync(async () => {
      fresh = await import('cuckoo-bloom-wasm');
    });
    expect(fresh.isInitialized()).toBe(false);
    await fresh.init({ wasm: sources[label]() });
    expect(fresh.isInitialized()).toBe(true);
    const filter = new fresh.BloomFilter({ capacity: 100, seed: 8 });
    filter.addMany(['a', 'b', 'c']);
    expect(filter.hasMany(['a', 'b', 'c'])).toEqual([true, true, true]);
    // Same binary, same bytes as the already-initialized module.
    const reference = new BloomFilter({ capacity: 100, seed: 8 });
    reference.addMany(['a', 'b', 'c']);
    expectSameBytes(filter.serialize(), reference.serialize());
    filter.free();
    reference.free();
  });

  test('calls made while loading share the load', async () => {
    let fresh;
    await jest.isolateModulesAsync(async () => {
      fresh = await import('cuckoo-bloom-wasm');
    });
    const results = await Promise.all([fresh.init(), fresh.init(), fresh.init({ wasm: WASM_PATH })]);
    expect(results).toEqual([undefined, undefined, undefined]);
    expect(fresh.isInitialized()).toBe(true);
  });
});

describe('BloomFilter specifics', () => {
  test('bitCount is the smallest table meeting the target: near m = -n ln ε / (ln 2)² for large n, larger for tiny n', () => {
    for (const [n, eps] of [
      [1000, 0.01],
      [1000, 0.001],
      [123_457, 0.02],
      [1, 0.5],
    ]) {
      const filter = new BloomFilter({ capacity: n, falsePositiveRate: eps });
      const m = Math.ceil((-n * Math.log(eps)) / Math.LN2 ** 2);
      // Never below the textbook m; at most a few percent above it from 1,000 keys up.
      expect(filter.bitCount).toBeGreaterThanOrEqual(m);
      if (n >= 1000) expect(filter.bitCount).toBeLessThanOrEqual(m * 1.01);
      expect(Math.abs(filter.hashCount - (filter.bitCount / n) * Math.LN2)).toBeLessThanOrEqual(3);
      expect(filter.byteLength).toBe(Math.ceil(filter.bitCount / 64) * 8);
      // Sized for the target: the estimate at capacity stays under it.
      filter.addMany(asciiKeys(n, 'cap-'));
      expect(filter.estimatedFalsePositiveRate).toBeLessThanOrEqual(eps * 1.25);
      filter.free();
    }
    // The case: one key at 0.1% needs far more than the textbook 15 bits.
    const one = new BloomFilter({ capacity: 1, falsePositiveRate: 0.001 });
    expect(one.bitCount).toBe(51);
    expect(one.hashCount).toBe(7);
    one.free();
  });

  test('bits() is a copy of the bit array; setBitCount counts its ones', () => {
    const filter = new BloomFilter({ capacity: 1000 });
    expect(filter.setBitCount).toBe(0);
    expect(popcount(filter.bits())).toBe(0);
    filter.add('one');
    // One key sets at most hashCount bits (fewer only if two probes coincide).
    expect(filter.setBitCount).toBeGreaterThan(0);
    expect(filter.setBitCount).toBeLessThanOrEqual(filter.hashCount);
    filter.addMany(asciiKeys(300, 'bits-'));
    const bits = filter.bits();
    expect(bits).toBeInstanceOf(Uint8Array);
    expect(bits.length).toBe(filter.byteLength);
    expect(popcount(bits)).toBe(filter.setBitCount);
    // The bit array is the serialized payload (little-endian words).
    expectSameBytes(bits, payloadOf(filter.serialize()));
    // No bit beyond bitCount is set.
    for (let i = filter.bitCount; i < bits.length * 8; i++) expect((bits[i >> 3] >> (i & 7)) & 1).toBe(0);
    // A copy: scribbling on it changes nothing.
    bits.fill(0xff);
    expect(popcount(filter.bits())).toBe(filter.setBitCount);
    expect(filter.has('definitely-not-added')).toBe(false);
    filter.free();
  });

  test('positions(key): hashCount indexes below bitCount, exactly the bits add() sets', () => {
    const filter = new BloomFilter({ capacity: 1000, seed: 5 });
    const key = 'positions-é';
    const positions = expectPositions(filter, key, filter.bitCount);
    expect(filter.setBitCount).toBe(0); // positions() changes nothing
    filter.add(key);
    const bits = filter.bits();
    const set = [];
    for (let i = 0; i < filter.bitCount; i++) if ((bits[i >> 3] >> (i & 7)) & 1) set.push(i);
    expect(set).toEqual([...new Set(positions)].sort((a, b) => a - b));
    // Another seed, other positions.
    const other = new BloomFilter({ capacity: 1000, seed: 6 });
    expect(other.positions(key)).not.toEqual(positions);
    other.free();
    filter.free();
  });

  test('estimatedFalsePositiveRate is (set bits / m)^k plus the double-hashing term 2 n / m² (1 + 2 fill)', () => {
    const filter = new BloomFilter({ capacity: 5000, falsePositiveRate: 0.01 });
    filter.addMany(asciiKeys(3000, 'est-'));
    const fill = popcount(filter.bits()) / filter.bitCount;
    const expected = fill ** filter.hashCount + ((2 * filter.count) / filter.bitCount ** 2) * (1 + 2 * fill);
    expect(filter.estimatedFalsePositiveRate).toBeCloseTo(expected, 12);
    filter.free();
  });

  test('union: finds the keys of both, ORs the bits, returns this, leaves the other alone', () => {
    const options = { capacity: 2000, falsePositiveRate: 0.01, seed: 21 };
    const a = new BloomFilter(options);
    const b = new BloomFilter(options);
    const keysA = asciiKeys(600, 'left-');
    const keysB = nonAsciiKeys(600, 'right-');
    a.addMany(keysA);
    b.addMany(keysB);
    const bitsA = a.bits();
    const bitsB = b.bits();
    const bBefore = b.serialize();
    expect(a.union(b)).toBe(a);
    const union = a.bits();
    for (let i = 0; i < union.length; i++) expect(union[i]).toBe(bitsA[i] | bitsB[i]);
    expect(a.hasMany([...keysA, ...keysB]).every(Boolean)).toBe(true);
    expect(a.count).toBeGreaterThanOrEqual(600);
    expect(a.count).toBeLessThanOrEqual(1200);
    expect(a.setBitCount).toBe(popcount(union));
    expectSameBytes(b.serialize(), bBefore);
    // The union's bytes read back.
    const copy = BloomFilter.deserialize(a.serialize());
    expect(copy.hasMany([...keysA, ...keysB]).every(Boolean)).toBe(true);
    copy.free();
    a.free();
    b.free();
  });
});

describe('BlockedBloomFilter specifics', () => {
  test('blockCount 512-bit blocks make up byteLength', () => {
    const filter = new BlockedBloomFilter({ capacity: 10_000, falsePositiveRate: 0.01 });
    expect(Number.isInteger(filter.blockCount)).toBe(true);
    expect(filter.byteLength).toBe(filter.blockCount * 64);
    // Never smaller than the classic filter of the same target.
    const classic = new BloomFilter({ capacity: 10_000, falsePositiveRate: 0.01 });
    expect(filter.byteLength * 8).toBeGreaterThanOrEqual(classic.bitCount);
    classic.free();
    filter.free();
  });

  test('a key sets bits in exactly one 64-byte block', () => {
    const filter = new BlockedBloomFilter({ capacity: 10_000 });
    filter.add('single');
    const payload = payloadOf(filter.serialize());
    const touched = [];
    for (let block = 0; block < filter.blockCount; block++) {
      if (popcount(payload.subarray(block * 64, block * 64 + 64)) > 0) touched.push(block);
    }
    expect(touched).toHaveLength(1);
    filter.free();
  });

  test('positions(key): one bit in each of the 8 words of one block, exactly the bits add() sets', () => {
    const filter = new BlockedBloomFilter({ capacity: 10_000, seed: 5 });
    const key = 'block-positions';
    const positions = filter.positions(key);
    expect(positions).toHaveLength(8);
    const block = Math.floor(positions[0] / 512);
    expect(block).toBeLessThan(filter.blockCount);
    positions.forEach((p, word) => {
      expect(p).toBeGreaterThanOrEqual(block * 512 + word * 64);
      expect(p).toBeLessThan(block * 512 + word * 64 + 64);
    });
    expect(filter.positions(utf8.encode(key))).toEqual(positions);
    filter.add(key);
    const payload = payloadOf(filter.serialize());
    const set = [];
    for (let i = 0; i < payload.length * 8; i++) if ((payload[i >> 3] >> (i & 7)) & 1) set.push(i);
    expect(set).toEqual(positions);
    filter.free();
  });

  test('union finds the keys of both and ORs the tables', () => {
    const options = { capacity: 2000, falsePositiveRate: 0.01, seed: 4 };
    const a = new BlockedBloomFilter(options);
    const b = new BlockedBloomFilter(options);
    a.addMany(asciiKeys(500, 'a-'));
    b.addMany(asciiKeys(500, 'b-'));
    const pa = payloadOf(a.serialize()).slice();
    const pb = payloadOf(b.serialize()).slice();
    expect(a.union(b)).toBe(a);
    const pu = payloadOf(a.serialize());
    for (let i = 0; i < pu.length; i++) expect(pu[i]).toBe(pa[i] | pb[i]);
    expect(a.hasMany([...asciiKeys(500, 'a-'), ...asciiKeys(500, 'b-')]).every(Boolean)).toBe(true);
    a.free();
    b.free();
  });
});

describe('CountingBloomFilter specifics', () => {
  test('same counters and probes as the classic filter has bits', () => {
    const counting = new CountingBloomFilter({ capacity: 5000, falsePositiveRate: 0.001 });
    const classic = new BloomFilter({ capacity: 5000, falsePositiveRate: 0.001 });
    expect(counting.counterCount).toBe(classic.bitCount);
    expect(counting.hashCount).toBe(classic.hashCount);
    // 4-bit counters: four times the classic filter's memory (rounded to words).
    expect(counting.byteLength).toBe(Math.ceil(counting.counterCount / 16) * 8);
    counting.free();
    classic.free();
  });

  test('counters sum to count × hashCount, and remove() takes them back', () => {
    const filter = new CountingBloomFilter({ capacity: 5000 });
    const sum = () => {
      let total = 0;
      for (let i = 0; i < filter.counterCount; i++) total += filter.counterAt(i);
      return total;
    };
    const keys = asciiKeys(200, 'ctr-');
    filter.addMany(keys);
    expect(sum()).toBe(200 * filter.hashCount);
    expect(filter.remove(keys[0])).toBe(true);
    expect(filter.count).toBe(199);
    expect(sum()).toBe(199 * filter.hashCount);
    for (let i = 0; i < filter.counterCount; i++) {
      const value = filter.counterAt(i);
      expect(value >= 0 && value <= 15).toBe(true);
    }
    filter.free();
  });

  test('positions(key): the counters add() increments and remove() decrements', () => {
    const filter = new CountingBloomFilter({ capacity: 1000, seed: 5 });
    const key = 'counter-positions';
    const positions = expectPositions(filter, key, filter.counterCount);
    filter.add(key).add(key);
    const multiplicity = new Map();
    for (const p of positions) multiplicity.set(p, (multiplicity.get(p) ?? 0) + 1);
    let total = 0;
    for (let i = 0; i < filter.counterCount; i++) {
      total += filter.counterAt(i);
      expect(filter.counterAt(i)).toBe(2 * (multiplicity.get(i) ?? 0));
    }
    expect(total).toBe(2 * filter.hashCount);
    filter.remove(key);
    for (const p of positions) expect(filter.counterAt(p)).toBe(multiplicity.get(p));
    filter.free();
  });

  test('remove: a removed key is gone, the others stay; adding twice needs two removes', () => {
    const filter = filterWithOneKeyRemoved(CountingBloomFilter, asciiKeys(300, 'rm-'), 'rm-7');

    filter.add('twice').add('twice');
    expectTwoRemoves(filter, 'twice', utf8.encode('twice'));
    filter.free();
  });

  test('remove of an absent key returns false and changes nothing', () => {
    const filter = new CountingBloomFilter({ capacity: 1000 });
    filter.addMany(asciiKeys(100, 'keep-'));
    const before = filter.serialize();
    expect(filter.remove('never-added')).toBe(false);
    expectSameBytes(filter.serialize(), before);
    expect(filter.count).toBe(100);
    filter.free();
  });
});

describe('CuckooFilter specifics', () => {
  test('geometry: defaults bucketSize 4, maxKicks 500, fingerprintBits = ceil(log2(2b/ε))', () => {
    const filter = new CuckooFilter({ capacity: 10_000 });
    expect(filter.bucketSize).toBe(4);
    expect(filter.maxKicks).toBe(500);
    expect(filter.fingerprintBits).toBe(Math.ceil(Math.log2((2 * 4) / 0.01)));
    expect(filter.bucketCount % 2).toBe(0); // any even count (format version 2)
    expect(filter.slotCount).toBe(filter.bucketCount * filter.bucketSize);
    expect(filter.slotCount).toBeGreaterThanOrEqual(10_000);
    expect(filter.loadFactor).toBe(0);
    filter.free();
  });

  test.each([2, 4, 8])('bucketSize %i with explicit fingerprintBits and maxKicks', (bucketSize) => {
    const filter = new CuckooFilter({ capacity: 1000, bucketSize, fingerprintBits: 16, maxKicks: 77 });
    expect(filter.bucketSize).toBe(bucketSize);
    expect(filter.fingerprintBits).toBe(16);
    expect(filter.maxKicks).toBe(77);
    // Without a rate, the target follows from the geometry: ε ≈ 2b / 2^f.
    expect(filter.falsePositiveRate).toBeCloseTo((2 * bucketSize) / 2 ** 16, 12);
    const keys = asciiKeys(500, 'bs-');
    filter.addMany(keys);
    expect(filter.hasMany(keys).every(Boolean)).toBe(true);
    expect(filter.loadFactor).toBeCloseTo(500 / filter.slotCount, 12);
    const copy = CuckooFilter.deserialize(filter.serialize());
    expect([copy.bucketSize, copy.fingerprintBits, copy.maxKicks, copy.bucketCount]).toEqual([
      bucketSize,
      16,
      77,
      filter.bucketCount,
    ]);
    copy.free();
    filter.free();
  });

  test('locate() names the buckets and fingerprint; slot() shows where the key went', () => {
    const filter = new CuckooFilter({ capacity: 1000 });
    const key = 'locate-me';
    const { buckets, fingerprint } = filter.locate(key);
    expect(buckets).toHaveLength(2);
    for (const bucket of buckets) {
      expect(Number.isInteger(bucket) && bucket >= 0 && bucket < filter.bucketCount).toBe(true);
    }
    expect(fingerprint).toBeGreaterThan(0); // 0 marks an empty slot
    expect(fingerprint).toBeLessThan(2 ** filter.fingerprintBits);
    expect(filter.locate(utf8.encode(key))).toEqual({ buckets, fingerprint });
    const snapshot = filter.serialize();
    filter.locate(key);
    expectSameBytes(filter.serialize(), snapshot); // locate changes nothing

    filter.add(key);
    const holders = [];
    for (const bucket of buckets) {
      for (let s = 0; s < filter.bucketSize; s++) if (filter.slot(bucket, s) === fingerprint) holders.push([bucket, s]);
    }
    expect(holders).toHaveLength(1);
    // Every other slot of the table is still empty.
    let occupied = 0;
    for (let b = 0; b < filter.bucketCount; b++) {
      for (let s = 0; s < filter.bucketSize; s++) occupied += filter.slot(b, s) !== 0;
    }
    expect(occupied).toBe(1);
    filter.free();
  });

  test('remove: true and gone for an added key, false and unchanged for an absent one', () => {
    const filter = filterWithOneKeyRemoved(CuckooFilter, asciiKeys(200, 'crm-'), 'crm-3');
    expect(filter.count).toBe(199);
    const before = filter.serialize();
    expect(filter.remove('crm-3')).toBe(false);
    expect(filter.remove('never-added')).toBe(false);
    expectSameBytes(filter.serialize(), before);

    filter.add('dup').add('dup');
    expect(filter.count).toBe(201);
    expectTwoRemoves(filter, 'dup');
    filter.free();
  });

  test('tryAdd: true while there is room, false (and table unchanged) when full', () => {
    const filter = new CuckooFilter({ capacity: 8, bucketSize: 2, maxKicks: 50 });
    const stored = [];
    let i = 0;
    for (; i < 10_000; i++) {
      const key = `try-${i}`;
      const before = filter.serialize();
      const countBefore = filter.count;
      if (filter.tryAdd(key)) {
        stored.push(key);
        continue;
      }
      // Full: the table, the count and every stored key are as they were.
      // (The eviction walk's random state, also serialized, has moved on.)
      expectSameBytes(payloadOf(filter.serialize()), payloadOf(before));
      expect(filter.count).toBe(countBefore);
      expect(filter.hasMany(stored).every(Boolean)).toBe(true);
      break;
    }
    expect(i).toBeLessThan(10_000);
    expect(stored.length).toBeGreaterThanOrEqual(8);
    expect(stored.length).toBeLessThanOrEqual(filter.slotCount);
    filter.free();
  });

  test('lastKickPath: empty for a direct insert, a valid walk after an eviction', () => {
    const filter = new CuckooFilter({ capacity: 16, bucketSize: 2 });
    filter.add('first');
    expect(filter.lastKickPath()).toEqual([]);
    let kicked = null;
    for (let i = 0; i < 1000 && kicked === null; i++) {
      const key = `kick-${i}`;
      const located = filter.locate(key);
      if (!filter.tryAdd(key)) break;
      const path = filter.lastKickPath();
      if (path.length > 0) kicked = { key, located, path };
    }
    expect(kicked).not.toBeNull();
    const { key, located, path } = kicked;
    for (const step of path) {
      expect(Number.isInteger(step.bucket) && step.bucket >= 0 && step.bucket < filter.bucketCount).toBe(true);
      expect(Number.isInteger(step.slot) && step.slot >= 0 && step.slot < filter.bucketSize).toBe(true);
      expect(step.fingerprint).toBeGreaterThan(0);
    }
    // The walk starts by placing the new key's fingerprint in one of its buckets...
    expect(path[0].fingerprint).toBe(located.fingerprint);
    expect(located.buckets).toContain(path[0].bucket);
    // ...and ends in the free slot where the last evicted fingerprint now lives.
    const end = path[path.length - 1];
    expect(filter.slot(end.bucket, end.slot)).toBe(end.fingerprint);
    expect(path.length).toBeGreaterThanOrEqual(2);
    expect(path.length).toBeLessThanOrEqual(filter.maxKicks + 1);
    expect(filter.has(key)).toBe(true);
    // The next direct insert clears the path again.
    filter.clear();
    filter.add('direct');
    expect(filter.lastKickPath()).toEqual([]);
    filter.free();
  });

  test('a serialized cuckoo filter continues the same eviction walk', () => {
    // The walk's random state is part of the bytes, so original and copy
    // stay identical even while evicting.
    const original = new CuckooFilter({ capacity: 64, bucketSize: 2, seed: 11 });
    original.addMany(asciiKeys(40, 'walk-'));
    const copy = CuckooFilter.deserialize(original.serialize());
    for (let i = 0; i < 200; i++) {
      const key = `more-${i}`;
      const a = original.tryAdd(key);
      const b = copy.tryAdd(key);
      expect(b).toBe(a);
      expect(copy.lastKickPath()).toEqual(original.lastKickPath());
      if (!a) break;
    }
    expectSameBytes(copy.serialize(), original.serialize());
    original.free();
    copy.free();
  });
});

describe('FilterError', () => {
  test('is an Error subclass with name FilterError and a code', () => {
    const error = new FilterError('CORRUPT', 'message');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(FilterError);
    expect(error.name).toBe('FilterError');
    expect(error.code).toBe('CORRUPT');
    expect(error.message).toBe('message');
  });
});

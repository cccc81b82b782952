// Every FilterError code, each reached by a real bad input. Each test checks
// `instanceof FilterError` and the exact `code`; after every test the module
// must still work (afterEach builds and uses a filter).
import { execFileSync } from 'node:child_process';
import { jest } from '@jest/globals';
import { init, deserialize, FilterError, BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter } from 'cuckoo-bloom-wasm';
import { asciiKeys, prng, randomInt, randomBytes, thrown, rejected, utf8, payloadOf } from '../helpers/keys.mjs';
import { BASE_TYPES as TYPES } from '../helpers/base-types.mjs';
import { expectCode } from '../helpers/filter-errors.mjs';

const DIST = new URL('../../dist/', import.meta.url);

beforeAll(async () => {
  await init();
});

afterEach(() => {
  // Whatever a test threw, the module keeps working.
  const filter = new BloomFilter({ capacity: 100 });
  filter.addMany(['still', 'works']);
  expect(filter.add('fine').has('fine')).toBe(true);
  expect(filter.hasMany(['still', 'works'])).toEqual([true, true]);
  filter.free();
});

function smallFilter(Class, keys = asciiKeys(10, 'small-')) {
  const filter = new Class({ capacity: 10, falsePositiveRate: 0.01, seed: 1 });
  filter.addMany(keys);
  return filter;
}

function serialized(Class, keys) {
  const filter = smallFilter(Class, keys);
  const bytes = filter.serialize();
  filter.free();
  return bytes;
}

async function freshModule() {
  let fresh;
  await jest.isolateModulesAsync(async () => {
    fresh = await import('cuckoo-bloom-wasm');
  });
  return fresh;
}

describe('INVALID_ARGUMENT: options', () => {
  const badOptions = [
    ['capacity 0', { capacity: 0 }],
    ['capacity -1', { capacity: -1 }],
    ['capacity 1.5', { capacity: 1.5 }],
    ['capacity NaN', { capacity: NaN }],
    ['capacity Infinity', { capacity: Infinity }],
    ["capacity '100' (a string)", { capacity: '100' }],
    ['capacity above 2^40', { capacity: 2 ** 40 + 1 }],
    ['no capacity', {}],
    ['falsePositiveRate 0', { capacity: 100, falsePositiveRate: 0 }],
    ['falsePositiveRate 1', { capacity: 100, falsePositiveRate: 1 }],
    ['falsePositiveRate -0.1', { capacity: 100, falsePositiveRate: -0.1 }],
    ['falsePositiveRate 2', { capacity: 100, falsePositiveRate: 2 }],
    ['falsePositiveRate NaN', { capacity: 100, falsePositiveRate: NaN }],
    ["falsePositiveRate '0.01' (a string)", { capacity: 100, falsePositiveRate: '0.01' }],
    ['seed -1', { capacity: 100, seed: -1 }],
    ['seed 1.5', { capacity: 100, seed: 1.5 }],
    ['seed above 2^53 - 1', { capacity: 100, seed: 2 ** 53 }],
    ["unknown option 'fpr'", { capacity: 100, fpr: 0.01 }],
    ["unknown option 'size'", { size: 100 }],
  ];
  const badArguments = [
    ['missing options', undefined],
    ['null options', null],
    ['a number instead of options', 100],
    ['an array instead of options', [100]],
  ];

  describe.each(TYPES)('$name', ({ Class }) => {
    test.each(badOptions)('%s', (_label, options) => {
      expectCode(() => new Class(options), 'INVALID_ARGUMENT');
    });
    test.each(badArguments)('%s', (_label, options) => {
      expectCode(() => new Class(options), 'INVALID_ARGUMENT');
    });
  });

  test('the message names the offending option', () => {
    expect(expectCode(() => new BloomFilter({ capacity: 100, fpr: 0.01 }), 'INVALID_ARGUMENT').message).toMatch(
      /fpr/,
    );
    expect(expectCode(() => new BloomFilter({ capacity: 0 }), 'INVALID_ARGUMENT').message).toMatch(/capacity/);
  });

  describe('cuckoo-only options', () => {
    test.each([
      ['bucketSize 3', { bucketSize: 3 }],
      ['bucketSize 16', { bucketSize: 16 }],
      ["bucketSize '4'", { bucketSize: '4' }],
      ['fingerprintBits 3', { fingerprintBits: 3 }],
      ['fingerprintBits 33', { fingerprintBits: 33 }],
      ['fingerprintBits 8.5', { fingerprintBits: 8.5 }],
      ['maxKicks -1', { maxKicks: -1 }],
      ['maxKicks 1.5', { maxKicks: 1.5 }],
      ['maxKicks above 2^20', { maxKicks: 2 ** 20 + 1 }],
    ])('%s', (_label, extra) => {
      expectCode(() => new CuckooFilter({ capacity: 100, ...extra }), 'INVALID_ARGUMENT');
    });

    test.each(['bucketSize', 'fingerprintBits', 'maxKicks'])('%s is unknown to the Bloom family', (option) => {
      for (const Class of [BloomFilter, BlockedBloomFilter, CountingBloomFilter]) {
        expectCode(() => new Class({ capacity: 100, [option]: 4 }), 'INVALID_ARGUMENT');
      }
    });
  });
});

describe('INVALID_ARGUMENT: keys', () => {
  const badKeys = [
    ['a number', 42],
    ['an object', { key: 'a' }],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
    ['an array', ['a']],
    ['an ArrayBuffer', new ArrayBuffer(4)],
    ['a Uint16Array', new Uint16Array([1, 2])],
    ['a symbol', Symbol('k')],
  ];

  describe.each(TYPES)('$name', ({ name, Class }) => {
    const methods = ['add', 'has', 'addMany', 'hasMany'];
    if (name === 'counting-bloom' || name === 'cuckoo') methods.push('remove');
    if (name === 'cuckoo') methods.push('tryAdd', 'locate');
    else methods.push('positions');

    test.each(methods)('%s rejects every non-key', (method) => {
      const filter = smallFilter(Class);
      const before = filter.serialize();
      for (const [label, key] of badKeys) {
        const call = method.endsWith('Many') ? () => filter[method](['ok', key, 'ok2']) : () => filter[method](key);
        const error = thrown(call);
        expect({ label, error: error instanceof FilterError, code: error.code }).toEqual({
          label,
          error: true,
          code: 'INVALID_ARGUMENT',
        });
      }
      // Single-key calls with a bad key change nothing.
      if (!method.endsWith('Many')) expect(filter.serialize()).toEqual(before);
      filter.free();
    });

    test.each(['addMany', 'hasMany'])('%s rejects a keys argument that is not an iterable of keys', (method) => {
      const filter = smallFilter(Class);
      for (const keys of ['abc', undefined, null, 5, { length: 1, 0: 'a' }, utf8.encode('abc'), new Set([5])]) {
        expectCode(() => filter[method](keys), 'INVALID_ARGUMENT');
      }
      filter.free();
    });

    test('hasMany / addMany reject an array with a hole', () => {
      const filter = smallFilter(Class);
      // eslint-disable-next-line no-sparse-arrays
      const sparse = ['a', , 'c'];
      expectCode(() => filter.hasMany(sparse), 'INVALID_ARGUMENT');
      expectCode(() => filter.addMany(sparse), 'INVALID_ARGUMENT');
      filter.free();
    });

    test('a bad key deep in a batch larger than 16,384 keys', () => {
      const filter = new Class({ capacity: 50_000 });
      const keys = asciiKeys(30_000, 'deep-');
      keys[20_000] = 20_000;
      expectCode(() => filter.addMany(keys), 'INVALID_ARGUMENT');
      expectCode(() => filter.hasMany(keys), 'INVALID_ARGUMENT');
      filter.free();
    });
  });
});

describe('INVALID_ARGUMENT: other arguments', () => {
  const notBytes = [
    ['a string', 'CBWF'],
    ['a number', 1],
    ['null', null],
    ['undefined', undefined],
    ['a plain array of bytes', [67, 66, 87, 70]],
    ['a Uint16Array', new Uint16Array(64)],
    ['a DataView', new DataView(new ArrayBuffer(64))],
  ];
  test.each(notBytes)('deserialize(%s)', (_label, value) => {
    expectCode(() => deserialize(value), 'INVALID_ARGUMENT');
    for (const { Class } of TYPES) expectCode(() => Class.deserialize(value), 'INVALID_ARGUMENT');
  });

  test.each([
    ['BloomFilter', BloomFilter],
    ['BlockedBloomFilter', BlockedBloomFilter],
  ])('%s.union with mismatched options or another type', (_label, Class) => {
    const a = new Class({ capacity: 1000, seed: 1 });
    const otherSeed = new Class({ capacity: 1000, seed: 2 });
    const otherSize = new Class({ capacity: 5000, seed: 1 });
    const otherType = new CountingBloomFilter({ capacity: 1000, seed: 1 });
    a.add('a');
    const before = a.serialize();
    expectCode(() => a.union(otherSeed), 'INVALID_ARGUMENT');
    expectCode(() => a.union(otherSize), 'INVALID_ARGUMENT');
    expectCode(() => a.union(otherType), 'INVALID_ARGUMENT');
    expectCode(() => a.union(null), 'INVALID_ARGUMENT');
    expectCode(() => a.union(before), 'INVALID_ARGUMENT');
    expect(a.serialize()).toEqual(before);
    for (const f of [a, otherSeed, otherSize, otherType]) f.free();
  });

  test('BloomFilter.union(BlockedBloomFilter) and the reverse', () => {
    const bloom = new BloomFilter({ capacity: 1000 });
    const blocked = new BlockedBloomFilter({ capacity: 1000 });
    expectCode(() => bloom.union(blocked), 'INVALID_ARGUMENT');
    expectCode(() => blocked.union(bloom), 'INVALID_ARGUMENT');
    bloom.free();
    blocked.free();
  });

  test('CuckooFilter.slot out of range', () => {
    const filter = new CuckooFilter({ capacity: 100 });
    for (const [bucket, slot] of [
      [-1, 0],
      [filter.bucketCount, 0],
      [1.5, 0],
      [NaN, 0],
      ['0', 0],
      [0, -1],
      [0, filter.bucketSize],
      [0, 0.5],
    ]) {
      expectCode(() => filter.slot(bucket, slot), 'INVALID_ARGUMENT');
    }
    expect(filter.slot(filter.bucketCount - 1, filter.bucketSize - 1)).toBe(0);
    filter.free();
  });
});

describe('FULL (cuckoo)', () => {
  test('add throws FULL; every key stored before is still found; the filter stays usable', () => {
    const filter = new CuckooFilter({ capacity: 100, bucketSize: 4 });
    const stored = [];
    let error = null;
    for (let i = 0; i < 100_000 && error === null; i++) {
      const key = `full-${i}`;
      try {
        filter.add(key);
        stored.push(key);
      } catch (e) {
        error = e;
      }
    }
    expect(error).toBeInstanceOf(FilterError);
    expect(error.code).toBe('FULL');
    expect(stored.length).toBeGreaterThanOrEqual(100);
    expect(filter.count).toBe(stored.length);
    expect(filter.hasMany(stored).every(Boolean)).toBe(true);
    for (const key of stored) expect(filter.has(key)).toBe(true);
    // Still usable: after a remove there is room again.
    expect(filter.remove(stored[0])).toBe(true);
    expect(() => filter.add(stored[0])).not.toThrow();
    expect(filter.hasMany(stored).every(Boolean)).toBe(true);
    // And it still serializes and reads back.
    const copy = CuckooFilter.deserialize(filter.serialize());
    expect(copy.hasMany(stored).every(Boolean)).toBe(true);
    copy.free();
    filter.free();
  });

  test('maxKicks 0: FULL as soon as both buckets are full', () => {
    const filter = new CuckooFilter({ capacity: 8, bucketSize: 2, maxKicks: 0 });
    const stored = [];
    let error = null;
    for (let i = 0; i < 1000 && error === null; i++) {
      try {
        filter.add(`k0-${i}`);
        stored.push(`k0-${i}`);
      } catch (e) {
        error = e;
      }
    }
    expect(error).toBeInstanceOf(FilterError);
    expect(error.code).toBe('FULL');
    expect(filter.hasMany(stored).every(Boolean)).toBe(true);
    filter.free();
  });

  // The reference: the same filter filled one key at a time with tryAdd.
  function referenceFill(options, keys) {
    const reference = new CuckooFilter(options);
    let failedAt = -1;
    for (let i = 0; i < keys.length; i++) {
      if (!reference.tryAdd(keys[i])) {
        failedAt = i;
        break;
      }
    }
    return { reference, failedAt };
  }

  test.each([
    ['within the first batch', { capacity: 500, bucketSize: 4, seed: 3 }, 2_000],
    ['in a later batch (> 16,384 keys)', { capacity: 20_000, bucketSize: 4, seed: 3 }, 60_000],
  ])('addMany throws FULL %s and keeps the prefix stored', (_label, options, keyCount) => {
    const keys = asciiKeys(keyCount, 'prefix-');
    const { reference, failedAt } = referenceFill(options, keys);
    expect(failedAt).toBeGreaterThan(0);
    if (keyCount > 16_384) expect(failedAt).toBeGreaterThan(16_384);

    const filter = new CuckooFilter(options);
    const error = expectCode(() => filter.addMany(keys), 'FULL');
    expect(error.message).toContain(String(failedAt));
    const prefix = keys.slice(0, failedAt);
    expect(filter.count).toBe(failedAt);
    expect(filter.hasMany(prefix).every(Boolean)).toBe(true);
    // Exactly the state one-at-a-time adds reach: the prefix stored, nothing after it.
    expect(payloadOf(filter.serialize())).toEqual(payloadOf(reference.serialize()));
    filter.free();
    reference.free();
  });
});

describe('CORRUPT', () => {
  describe.each(TYPES)('$name', ({ Class }) => {
    test('truncated at every length 0 .. len-1', () => {
      const bytes = serialized(Class);
      for (let length = 0; length < bytes.length; length++) {
        const cut = bytes.slice(0, length);
        const viaClass = thrown(() => Class.deserialize(cut));
        const viaAny = thrown(() => deserialize(cut));
        for (const error of [viaClass, viaAny]) {
          expect({ length, isFilterError: error instanceof FilterError, code: error.code }).toEqual({
            length,
            isFilterError: true,
            code: 'CORRUPT',
          });
        }
      }
    });

    test('one byte too many', () => {
      const bytes = serialized(Class);
      const longer = new Uint8Array(bytes.length + 1);
      longer.set(bytes);
      expectCode(() => Class.deserialize(longer), 'CORRUPT');
      expectCode(() => deserialize(longer), 'CORRUPT');
    });

    test('bad magic, bad checksum', () => {
      const bytes = serialized(Class);
      const badMagic = bytes.slice();
      badMagic[0] = 'X'.charCodeAt(0);
      expectCode(() => Class.deserialize(badMagic), 'CORRUPT');
      expectCode(() => deserialize(badMagic), 'CORRUPT');
      const badChecksum = bytes.slice();
      badChecksum[badChecksum.length - 1] ^= 0xff;
      expectCode(() => Class.deserialize(badChecksum), 'CORRUPT');
      expectCode(() => deserialize(badChecksum), 'CORRUPT');
    });

    // A flip in the version field is UNSUPPORTED_VERSION (checked before the
    // checksum, docs/FORMAT.md); any other single flip breaks the checksum
    // or the lengths, which is CORRUPT. Never a crash, never a filter.
    test('600 random single-bit flips: never a filter, always the documented code', () => {
      const bytes = serialized(Class, asciiKeys(10, 'flip-'));
      const random = prng(0xf11b);
      const codes = {};
      for (let trial = 0; trial < 600; trial++) {
        const position = randomInt(random, bytes.length);
        const damaged = bytes.slice();
        damaged[position] ^= 1 << randomInt(random, 8);
        const expected = position === 4 || position === 5 ? 'UNSUPPORTED_VERSION' : 'CORRUPT';
        for (const read of [() => Class.deserialize(damaged), () => deserialize(damaged)]) {
          let outcome;
          try {
            const filter = read();
            filter.free();
            outcome = 'returned a filter';
          } catch (error) {
            outcome = error instanceof FilterError ? error.code : `non-FilterError: ${error}`;
          }
          codes[outcome] = (codes[outcome] ?? 0) + 1;
          if (outcome !== expected) throw new Error(`flip at byte ${position}: expected ${expected}, got ${outcome}`);
        }
      }
      expect(Object.keys(codes).every((code) => ['CORRUPT', 'UNSUPPORTED_VERSION'].includes(code))).toBe(true);
    });

    test('500 random multi-bit damages: an error with a format code, never a filter or a crash', () => {
      const bytes = serialized(Class, asciiKeys(10, 'multi-'));
      const random = prng(0xbad + bytes.length);
      for (let trial = 0; trial < 500; trial++) {
        const damaged = bytes.slice();
        const flips = 2 + randomInt(random, 15);
        for (let f = 0; f < flips; f++) damaged[randomInt(random, damaged.length)] ^= 1 << randomInt(random, 8);
        if (damaged.every((b, i) => b === bytes[i])) continue; // flips cancelled out
        for (const read of [() => Class.deserialize(damaged), () => deserialize(damaged)]) {
          const error = thrown(read);
          if (!(error instanceof FilterError) || !['CORRUPT', 'UNSUPPORTED_VERSION', 'WRONG_TYPE'].includes(error.code)) {
            throw new Error(`trial ${trial}: unexpected ${error}`);
          }
        }
      }
    });
  });

  test('random garbage of many lengths is CORRUPT', () => {
    const random = prng(0x6a7ba6e);
    for (const length of [0, 1, 7, 8, 55, 56, 63, 64, 65, 100, 128, 1000, 4096, 100_000]) {
      for (let trial = 0; trial < 5; trial++) {
        const garbage = randomBytes(random, length);
        expectCode(() => deserialize(garbage), 'CORRUPT');
        for (const { Class } of TYPES) expectCode(() => Class.deserialize(garbage), 'CORRUPT');
      }
    }
  });

  test('garbage behind a valid magic and version is CORRUPT', () => {
    const random = prng(0xcbf);
    for (let trial = 0; trial < 200; trial++) {
      const garbage = randomBytes(random, 64 + randomInt(random, 300));
      garbage.set([0x43, 0x42, 0x57, 0x46, 1, 0]); // "CBWF", version 1
      garbage[6] = 1 + randomInt(random, 4); // a known type
      expectCode(() => deserialize(garbage), 'CORRUPT');
    }
  });
});

describe('UNSUPPORTED_VERSION', () => {
  test.each(TYPES)('$name bytes with version 3 (and 0, 0xffff)', ({ Class }) => {
    const bytes = serialized(Class);
    for (const [low, high] of [
      [3, 0],
      [0, 0],
      [0xff, 0xff],
    ]) {
      const other = bytes.slice();
      other[4] = low;
      other[5] = high;
      expectCode(() => Class.deserialize(other), 'UNSUPPORTED_VERSION');
      expectCode(() => deserialize(other), 'UNSUPPORTED_VERSION');
    }
  });
});

describe('WRONG_TYPE', () => {
  const pairs = [];
  for (const from of TYPES) for (const to of TYPES) if (from !== to) pairs.push([from.name, to.name, from, to]);
  test.each(pairs)('%s bytes given to the %s reader', (_from, _to, from, to) => {
    const bytes = serialized(from.Class);
    expectCode(() => to.Class.deserialize(bytes), 'WRONG_TYPE');
    // The free function reads them as their own type.
    const filter = deserialize(bytes);
    expect(filter).toBeInstanceOf(from.Class);
    filter.free();
  });
});

describe('FREED', () => {
  // Every method and getter a freed filter must refuse, by name: `calls` invokes each with
  // `args`, `reads` reads each getter (both in the order the tests are named).
  const calls = (names, ...args) => Object.fromEntries(names.map((name) => [name, (f) => f[name](...args)]));
  const reads = (names) => Object.fromEntries(names.map((name) => [name, (f) => f[name]]));
  const unionWith = (Class) => ({ 'union (as target)': (f) => f.union(new Class({ capacity: 10, seed: 1 })) });
  const common = {
    ...calls(['add', 'has', 'addIfNew'], 'k'),
    ...calls(['addMany', 'hasMany'], ['k']),
    ...calls(['serialize', 'clear']),
    ...reads(['count', 'capacity', 'seed', 'byteLength', 'falsePositiveRate', 'estimatedFalsePositiveRate', 'bitsPerKey']),
  };
  const specific = {
    bloom: { ...reads(['bitCount', 'hashCount', 'setBitCount']), ...calls(['bits']), ...calls(['positions'], 'k'), ...unionWith(BloomFilter) },
    'blocked-bloom': { ...reads(['blockCount']), ...calls(['positions'], 'k'), ...unionWith(BlockedBloomFilter) },
    'counting-bloom': {
      ...calls(['remove'], 'k'), ...reads(['counterCount', 'hashCount']), ...calls(['counterAt'], 0), ...calls(['positions'], 'k'),
    },
    cuckoo: {
      ...calls(['remove', 'tryAdd'], 'k'), ...calls(['slot'], 0, 0), ...calls(['locate'], 'k'), ...calls(['lastKickPath']),
      ...reads(['bucketCount', 'bucketSize', 'fingerprintBits', 'maxKicks', 'slotCount', 'loadFactor']),
    },
  };

  describe.each(TYPES)('$name', ({ name, Class }) => {
    const methods = { ...common, ...specific[name] };
    test.each(Object.keys(methods))('%s after free()', (method) => {
      const filter = smallFilter(Class);
      filter.free();
      expectCode(() => methods[method](filter), 'FREED');
    });

    test('free() twice is fine; freed and type still answer', () => {
      const filter = smallFilter(Class);
      filter.free();
      expect(() => filter.free()).not.toThrow();
      expect(() => filter[Symbol.dispose]()).not.toThrow();
      expect(filter.freed).toBe(true);
      expect(filter.type).toBe(name);
    });

    test('a filter disposed with Symbol.dispose throws FREED', () => {
      const filter = smallFilter(Class);
      filter[Symbol.dispose]();
      expectCode(() => filter.has('k'), 'FREED');
    });
  });

  test.each([
    ['BloomFilter', BloomFilter],
    ['BlockedBloomFilter', BlockedBloomFilter],
  ])('%s.union(a freed filter)', (_label, Class) => {
    const live = new Class({ capacity: 10 });
    const freed = new Class({ capacity: 10 });
    freed.free();
    expectCode(() => live.union(freed), 'FREED');
    live.free();
  });
});

describe('NOT_INITIALIZED', () => {
  test('creating or reading filters before init() resolves, in a fresh module', async () => {
    const fresh = await freshModule();
    expect(fresh.isInitialized()).toBe(false);
    const bytes = serialized(BloomFilter);
    const attempts = [
      () => new fresh.BloomFilter({ capacity: 10 }),
      () => new fresh.BlockedBloomFilter({ capacity: 10 }),
      () => new fresh.CountingBloomFilter({ capacity: 10 }),
      () => new fresh.CuckooFilter({ capacity: 10 }),
      () => fresh.deserialize(bytes),
      () => fresh.BloomFilter.deserialize(bytes),
      () => fresh.CuckooFilter.deserialize(bytes),
    ];
    for (const attempt of attempts) {
      const error = thrown(attempt);
      expect(error).toBeInstanceOf(fresh.FilterError);
      expect(error.code).toBe('NOT_INITIALIZED');
    }
    // Started but not yet resolved is still "not initialized".
    const loading = fresh.init();
    expect(thrown(() => new fresh.BloomFilter({ capacity: 10 })).code).toBe('NOT_INITIALIZED');
    await loading;
    const filter = new fresh.BloomFilter({ capacity: 10 });
    expect(filter.add('now').has('now')).toBe(true);
    filter.free();
  });

  test.each([
    ['ESM', 'index.js', '--input-type=module', "import * as m from 'DIST';"],
    ['CommonJS', 'index.cjs', '--input-type=commonjs', "const m = require('DIST');"],
  ])('%s build before init(), in a child process', (_label, file, inputType, load) => {
    const script = `${load.replace('DIST', new URL(file, DIST).pathname)}
      try { new m.BloomFilter({ capacity: 10 }); console.log('no error'); }
      catch (e) { console.log(JSON.stringify({ filterError: e instanceof m.FilterError, code: e.code })); }`;
    const output = execFileSync(process.execPath, [inputType, '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output.trim())).toEqual({ filterError: true, code: 'NOT_INITIALIZED' });
  });
});

describe('LOAD_FAILED', () => {
  let warn;
  beforeEach(() => {
    // Emscripten reports a failed compile on console.warn as well.
    warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => warn.mockRestore());

  test.each([
    ['bytes that are not wasm', () => new Uint8Array([1, 2, 3, 4, 5])],
    ['a truncated wasm header', () => new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 9])],
    ['an empty ArrayBuffer', () => new ArrayBuffer(0)],
    ['a missing file path', () => '/nonexistent/dir/core.wasm'],
    ['a missing file: URL', () => new URL('file:///nonexistent/dir/core.wasm')],
  ])('init({ wasm: %s }) rejects with LOAD_FAILED, and a retry can succeed', async (_label, source) => {
    const fresh = await freshModule();
    const error = await rejected(() => fresh.init({ wasm: source() }));
    expect(error).toBeInstanceOf(fresh.FilterError);
    expect(error.code).toBe('LOAD_FAILED');
    expect(fresh.isInitialized()).toBe(false);
    expect(thrown(() => new fresh.BloomFilter({ capacity: 10 })).code).toBe('NOT_INITIALIZED');
    // "A failed load may be retried with another call."
    await fresh.init();
    expect(fresh.isInitialized()).toBe(true);
    const filter = new fresh.BloomFilter({ capacity: 10 });
    expect(filter.add('retry').has('retry')).toBe(true);
    filter.free();
  });
});

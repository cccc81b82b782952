// hasMany of `cuckoo-bloom-wasm/shared` (issue #47): `{ as: 'Uint8Array' }`
// gives one byte per key, the same answers as the boolean[] form, as the main
// entry's hasMany does; bad options are FilterError INVALID_ARGUMENT. The
// shared cuckoo filter's batch lookup (ConcurrentCuckooFilter::tryHasMany:
// one SWAR test a bucket, no call per key) answers exactly what the main
// entry's CuckooFilter answers on the same bytes, for every bucket layout
// (a bucket in one 64-bit window or not), present and absent keys alike, and
// it misses no key while another thread adds and moves fingerprints.
import * as normal from 'cuckoo-bloom-wasm';
import { asciiKeys, nonAsciiKeys, prng, randomInt } from '../helpers/keys.mjs';
import { useWorkerPool } from './lib/use-pool.mjs';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);

const workers = useWorkerPool(1, async () => {
  await normal.init();
  await shared.init({ maximumMemory: 64 * 2 ** 20 });
});

/**
 * `count` keys drawn at random (fixed seed): ASCII of 8-80 characters, some
 * non-ASCII, some bytes. At least 8 characters: short keys repeat, and a cuckoo
 * filter holds at most 2 x bucketSize copies of one key.
 */
function randomKeys(count, seed) {
  const random = prng(seed);
  const wide = nonAsciiKeys(count, `w${seed}-`);
  const keys = new Array(count);
  for (let i = 0; i < count; i++) {
    const kind = randomInt(random, 10);
    if (kind === 0) keys[i] = wide[i];
    else if (kind === 1) keys[i] = Uint8Array.from({ length: 8 + randomInt(random, 33) }, () => randomInt(random, 256));
    else {
      const length = 8 + randomInt(random, 73);
      let key = '';
      while (key.length < length) key += String.fromCharCode(0x21 + randomInt(random, 94));
      keys[i] = key;
    }
  }
  return keys;
}

const TYPES = [
  ['bloom', shared.SharedBloomFilter, { capacity: 30_000 }],
  ['blocked-bloom', shared.SharedBlockedBloomFilter, { capacity: 30_000 }],
  ['counting-bloom', shared.SharedCountingBloomFilter, { capacity: 30_000 }],
  ['cuckoo', shared.SharedCuckooFilter, { capacity: 40_000 }],
];

describe.each(TYPES)("%s: hasMany(keys, { as: 'Uint8Array' })", (type, SharedClass, options) => {
  test('one byte per key, equal to the boolean[] answers, on random present and absent keys over several batches', () => {
    const filter = new SharedClass({ ...options, falsePositiveRate: 0.01, seed: 5 });
    try {
      const present = randomKeys(30_000, 101);
      filter.addMany(present);
      // 40,000 keys: three batches of at most 16,384 (the second and third start past 0).
      const queried = [...present.slice(0, 20_000), ...randomKeys(20_000, 202)];
      const bytes = filter.hasMany(queried, { as: 'Uint8Array' });
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(bytes.length).toBe(queried.length);
      const booleans = filter.hasMany(queried);
      expect(Array.isArray(booleans)).toBe(true);
      expect(Array.from(bytes, (byte) => byte === 1)).toEqual(booleans);
      expect(bytes.every((byte) => byte === 0 || byte === 1)).toBe(true);
      // No false negative; the absent half is mostly 0 (1% false positives).
      expect(bytes.subarray(0, 20_000).every((byte) => byte === 1)).toBe(true);
      const falsePositives = bytes.subarray(20_000).reduce((sum, byte) => sum + byte, 0);
      expect(falsePositives).toBeLessThan(20_000 * 0.03);
      expect(filter.hasMany(queried, { as: 'boolean[]' })).toEqual(booleans);
      // An iterable, and no keys.
      expect(filter.hasMany(new Set(queried.slice(0, 10)), { as: 'Uint8Array' })).toEqual(bytes.subarray(0, 10));
      expect(filter.hasMany([], { as: 'Uint8Array' })).toEqual(new Uint8Array(0));
    } finally {
      filter.free();
    }
  });

  test('bad options and keys are FilterError INVALID_ARGUMENT; a freed filter is FREED', () => {
    const filter = new SharedClass({ ...options, falsePositiveRate: 0.01 });
    filter.add('k');
    for (const [bad, shown] of [
      [null, /got null$/],
      ['Uint8Array', /got a string \("Uint8Array"\)$/],
      [{ as: 'Int8Array' }, /got as: a string \("Int8Array"\)$/],
      [{ as: 1 }, /got as: a number \(1\)$/],
    ]) {
      let error;
      try {
        filter.hasMany(['k'], bad);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(shared.FilterError);
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(/hasMany options: expected \{ as: 'boolean\[\]' \| 'Uint8Array' \}/);
      expect(error.message).toMatch(shown);
    }
    expect(() => filter.hasMany(['k', 42], { as: 'Uint8Array' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', index: 1 }));
    expect(() => filter.hasMany(42, { as: 'Uint8Array' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    filter.free();
    expect(() => filter.hasMany(['k'], { as: 'Uint8Array' })).toThrow(expect.objectContaining({ code: 'FREED' }));
  });
});

describe('cuckoo: the batch lookup answers what the main entry answers on the same bytes', () => {
  // Buckets of 2x6 .. 2x32 bits fit one 64-bit window (one SWAR test); 8x12, 4x20 and 8x32 do not.
  const LAYOUTS = [
    [2, 6],
    [4, 7],
    [4, 16],
    [8, 8],
    [8, 12],
    [4, 20],
    [2, 32],
    [8, 32],
  ];
  test.each(LAYOUTS)('bucketSize %i, fingerprintBits %i: every answer of hasMany and has equals CuckooFilter.hasMany', (bucketSize, fingerprintBits) => {
    const filter = new shared.SharedCuckooFilter({ capacity: 20_000, bucketSize, fingerprintBits, seed: bucketSize * 100 + fingerprintBits });
    try {
      filter.addMany(randomKeys(15_000, fingerprintBits));
      const copy = normal.CuckooFilter.deserialize(filter.serialize());
      try {
        const queried = [...randomKeys(5_000, fingerprintBits), ...randomKeys(20_000, 7_000 + fingerprintBits)];
        const expected = copy.hasMany(queried, { as: 'Uint8Array' });
        expect(expected.subarray(0, 5_000).every((byte) => byte === 1)).toBe(true);
        // Narrow fingerprints: some absent keys match, so the comparison covers false positives too.
        if (fingerprintBits <= 7) expect(expected.subarray(5_000).some((byte) => byte === 1)).toBe(true);
        expect(filter.hasMany(queried, { as: 'Uint8Array' })).toEqual(expected);
        expect(Uint8Array.from(queried.slice(0, 2_000), (key) => (filter.has(key) ? 1 : 0))).toEqual(expected.subarray(0, 2_000));
        expect(Uint8Array.from(queried.slice(-2_000), (key) => (filter.has(key) ? 1 : 0))).toEqual(expected.subarray(-2_000));
      } finally {
        copy.free();
      }
    } finally {
      filter.free();
    }
  });

  test('no key is missed while a worker fills the table to 90% (kicks move fingerprints between buckets)', async () => {
    const filter = new shared.SharedCuckooFilter({ capacity: 100_000, seed: 3 });
    try {
      const present = asciiKeys(30_000, 'present-');
      filter.addMany(present);
      await workers.pool.call(0, 'attach', { name: 'filling', handle: filter.handle() });
      let filled = false;
      const fill = workers.pool.call(0, 'addRange', { name: 'filling', prefix: 'more-', from: 0, to: 60_000 }).then((added) => {
        filled = true;
        return added;
      });
      let rounds = 0;
      let missed = 0;
      while (!filled) {
        const bytes = filter.hasMany(present, { as: 'Uint8Array' });
        missed += bytes.length - bytes.reduce((sum, byte) => sum + byte, 0);
        rounds += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await fill).toBe(60_000);
      expect(rounds).toBeGreaterThan(0);
      expect(missed).toBe(0);
      expect(filter.hasMany(asciiKeys(60_000, 'more-'), { as: 'Uint8Array' }).every((byte) => byte === 1)).toBe(true);
    } finally {
      filter.free();
    }
  });
});

// Batch calls (hasMany, addMany, removeMany) and pre-encoded KeyBatch input:
// every route a key can take into a batch stores and answers exactly like the
// single calls, batch limits and odd strings included, and bad input is a
// FilterError.
import {
  init,
  FilterError,
  KeyBatch,
  BloomFilter,
  BlockedBloomFilter,
  CountingBloomFilter,
  CuckooFilter,
} from 'cuckoo-bloom-wasm';
import { asciiKeys, nonAsciiKeys, prng, randomInt, utf8 } from '../helpers/keys.mjs';
import { expectCode } from '../helpers/filter-errors.mjs';

beforeAll(() => init());

const TYPES = [
  { name: 'bloom', Class: BloomFilter },
  { name: 'blocked-bloom', Class: BlockedBloomFilter },
  { name: 'counting-bloom', Class: CountingBloomFilter },
  { name: 'cuckoo', Class: CuckooFilter },
];
const REMOVABLE = TYPES.filter(({ Class }) => typeof Class.prototype.removeMany === 'function');

/** Keys that cross every batch limit: long and short, ASCII and not, empty, bytes. */
function awkwardKeys(count, seed) {
  const random = prng(seed);
  const keys = [];
  for (let i = 0; i < count; i++) {
    const kind = randomInt(random, 6);
    const base = `k${seed}-${i}-`;
    if (kind === 0) keys.push(base + 'x'.repeat(randomInt(random, 300)));
    else if (kind === 1) keys.push(base + 'é€😀'.repeat(1 + randomInt(random, 20)));
    else if (kind === 2) keys.push(utf8.encode(base + 'bytes'));
    else if (kind === 3) keys.push(i === 7 ? '' : base);
    else keys.push(base + 'y'.repeat(randomInt(random, 40)));
  }
  return keys;
}

describe.each(TYPES)('$name batches', ({ Class }) => {
  test('addMany, from arrays and KeyBatches, stores exactly what add() does; hasMany answers like has()', () => {
    // 40k keys of up to ~300 characters: several batches by count and by length.
    const keys = awkwardKeys(40000, 11);
    const single = new Class({ capacity: 50000, falsePositiveRate: 0.01, seed: 5 });
    const fromArray = new Class({ capacity: 50000, falsePositiveRate: 0.01, seed: 5 });
    const fromBatch = new Class({ capacity: 50000, falsePositiveRate: 0.01, seed: 5 });
    for (const key of keys) single.add(key);
    fromArray.addMany(keys);
    fromBatch.addMany(KeyBatch.from(keys));
    expect(fromArray.equals(single)).toBe(true);
    expect(fromBatch.equals(single)).toBe(true);

    const queries = [...keys.slice(0, 5000), ...awkwardKeys(20000, 12)];
    const expected = queries.map((key) => single.has(key));
    expect(expected.slice(0, 5000).every(Boolean)).toBe(true);
    expect(fromArray.hasMany(queries)).toEqual(expected);
    expect(fromArray.hasMany(KeyBatch.from(queries))).toEqual(expected);
    const bytes = fromArray.hasMany(queries, { as: 'Uint8Array' });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(bytes, (b) => b === 1)).toEqual(expected);
    expect(fromArray.hasMany(new Set(queries), { as: 'boolean[]' })).toEqual([...new Set(queries)].map((k) => single.has(k)));
    for (const filter of [single, fromArray, fromBatch]) filter.free();
  });

  test('a surrogate pair split between two keys is two lone surrogates, as has() sees them', () => {
    const filter = new Class({ capacity: 1000, falsePositiveRate: 0.001 });
    const pair = '😀';
    const keys = [`a${pair[0]}`, `${pair[1]}b`, `c${pair}`, pair[0], pair[1]];
    filter.addMany(keys);
    for (const key of keys) expect(filter.has(key)).toBe(true);
    // Joined, the halves would read as one 4-byte character: not what was stored.
    expect(filter.hasMany(keys)).toEqual(keys.map(() => true));
    expect(filter.has(`a${pair}b`)).toBe(filter.hasMany([`a${pair}b`])[0]);
    filter.free();
  });

  test('batches of strings only, ASCII and not, with lone and split surrogates, store what add() does', () => {
    // Many batches of strings alone: in Node the batch after one that is not
    // ASCII goes to the core as UTF-16 units, and an ASCII batch sends the
    // next back to TextEncoder; every route must give each key's own UTF-8.
    const random = prng(21);
    const units = ['a', 'b', 'é', 'Ж', '€', '日', '😀', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', '\ude00'];
    const phase = (count, wide) =>
      Array.from({ length: count }, (_, i) => {
        let key = `${i}:`;
        for (let n = randomInt(random, 40); n > 0; n--) key += units[randomInt(random, wide ? units.length : 2)];
        return key;
      });
    const keys = [...phase(3000, true), ...phase(3000, false), ...phase(3000, true), ...phase(20, false), ...phase(3000, true)];
    const single = new Class({ capacity: 20000, falsePositiveRate: 0.01, seed: 9 });
    const batched = new Class({ capacity: 20000, falsePositiveRate: 0.01, seed: 9 });
    for (const key of keys) single.add(key);
    batched.addMany(keys);
    expect(batched.equals(single)).toBe(true);
    expect(batched.count).toBe(single.count);
    expect(batched.hasMany(keys).every(Boolean)).toBe(true);
    const queries = [...phase(2000, true), ...keys.slice(0, 2000), ...phase(2000, false)];
    expect(batched.hasMany(queries)).toEqual(queries.map((key) => single.has(key)));
    single.free();
    batched.free();
  });

  test('one key longer than a whole batch goes alone, in arrays and KeyBatches', () => {
    const filter = new Class({ capacity: 100, falsePositiveRate: 0.001 });
    const long = 'L'.repeat(200000) + 'é';
    const keys = ['a', long, 'b', utf8.encode(long + 'x')];
    filter.addMany(keys);
    expect(filter.hasMany(keys)).toEqual([true, true, true, true]);
    expect(filter.hasMany(KeyBatch.from([long]))).toEqual([true]);
    expect(filter.has(long)).toBe(true);
    filter.free();
  });
});

describe.each(REMOVABLE)('$name removeMany', ({ Class }) => {
  test('removes each key once and leaves every other key found', () => {
    const keys = [...asciiKeys(6000, 'rm-'), ...nonAsciiKeys(2000, 'rmü-')];
    const filter = new Class({ capacity: 10000, falsePositiveRate: 0.001, seed: 9 });
    filter.addMany(keys);
    const random = prng(77);
    const removing = keys.filter(() => random() < 0.3);
    const staying = keys.filter((key) => !removing.includes(key));
    expect(filter.removeMany(KeyBatch.from(removing.slice(0, 500)))).toBe(500);
    expect(filter.removeMany(removing.slice(500))).toBe(removing.length - 500);
    expect(filter.hasMany(staying).every(Boolean)).toBe(true);
    expect(filter.count).toBe(keys.length - removing.length);
    filter.free();
  });

  test('a key not present counts as not removed', () => {
    const filter = new Class({ capacity: 100, falsePositiveRate: 0.001 });
    filter.add('here');
    expect(filter.removeMany(['here', 'never-added-1', 'never-added-2'])).toBe(1);
    filter.free();
  });
});

describe('KeyBatch', () => {
  test('from() encodes strings as UTF-8 and copies bytes; fromBytes() wraps bytes', () => {
    const batch = KeyBatch.from(['ab', 'é', utf8.encode('xyz'), '']);
    expect(batch.count).toBe(4);
    expect(batch.byteLength).toBe(2 + 2 + 3);
    expect(Array.from(batch.key(1))).toEqual(Array.from(utf8.encode('é')));
    expect(batch.key(3).length).toBe(0);
    const wrapped = KeyBatch.fromBytes(utf8.encode('abcdef'), [0, 2, 2, 6]);
    expect(wrapped.count).toBe(3);
    expect(new TextDecoder().decode(wrapped.key(2))).toBe('cdef');
    const filter = new BloomFilter({ capacity: 10, falsePositiveRate: 0.001 });
    filter.addMany(wrapped);
    expect(filter.hasMany(['ab', '', 'cdef', 'nope'])).toEqual([true, true, true, false]);
    filter.free();
  });

  test('from() holds each key as TextEncoder encodes it alone, across batches (ASCII runs, other text, bytes, split surrogate pairs)', () => {
    // 60,000 keys: several of the arena's batches (16,384 keys or 65,472 units each): strings
    // mixed with bytes, all ASCII (offsets taken from the joined string), all strings but not
    // ASCII; and the two halves of one emoji as two keys (each alone encodes to U+FFFD).
    const keys = [...awkwardKeys(20_000, 11), ...asciiKeys(20_000, 'ascii-'), ...nonAsciiKeys(20_000), '\ud83d', '\ude00', '😀'];
    const batch = KeyBatch.from(keys);
    expect(batch.count).toBe(keys.length);
    let expectedBytes = 0;
    keys.forEach((key, i) => {
      const expected = typeof key === 'string' ? utf8.encode(key) : key;
      expectedBytes += expected.length;
      const got = batch.key(i);
      if (got.length !== expected.length || got.some((byte, j) => byte !== expected[j])) {
        throw new Error(`key ${i} (${JSON.stringify(String(key).slice(0, 40))}): got ${Array.from(got.subarray(0, 16))}`);
      }
    });
    expect(batch.byteLength).toBe(expectedBytes);
  });

  test('offsets that do not describe the bytes are INVALID_ARGUMENT with the index', () => {
    const bytes = utf8.encode('abc');
    for (const [offsets, index] of [
      [[0, 4], 1],
      [[0, 2, 1], 2],
      [[0, 1.5], 1],
      [[-1, 2], 0],
    ]) {
      const error = expectCode(() => KeyBatch.fromBytes(bytes, offsets), 'INVALID_ARGUMENT');
      expect(error.index).toBe(index);
    }
    expect(() => KeyBatch.fromBytes(bytes, [])).toThrow(FilterError);
    expect(() => KeyBatch.fromBytes('abc', [0, 3])).toThrow(FilterError);
    expect(() => KeyBatch.from([1])).toThrow(FilterError);
  });
});

describe('batch input errors are FilterErrors, and the filter is intact after them', () => {
  test('a bad key names its index; keys before it in that call may be stored, none after', () => {
    const filter = new BloomFilter({ capacity: 100, falsePositiveRate: 0.01 });
    const error = expectCode(() => filter.addMany(['a', 'b', 42, 'c']), 'INVALID_ARGUMENT');
    expect(error.index).toBe(2);
    expect(filter.has('c')).toBe(false);
    filter.free();
  });

  test('a detached Uint8Array key or batch input is INVALID_ARGUMENT, not a TypeError', () => {
    const filter = new CuckooFilter({ capacity: 100 });
    const key = new Uint8Array([1, 2, 3]);
    structuredClone(key.buffer, { transfer: [key.buffer] });
    for (const call of [
      () => filter.has(key),
      () => filter.add(key),
      () => filter.hasMany(['x', key]),
      () => filter.addMany([key]),
      () => KeyBatch.from([key]),
      () => KeyBatch.fromBytes(key, [0]),
    ]) {
      expect(call).toThrow(FilterError);
      try {
        call();
      } catch (error) {
        expect(error.code).toBe('INVALID_ARGUMENT');
      }
    }
    filter.add('still-works');
    expect(filter.has('still-works')).toBe(true);
    filter.free();
  });

  test('hasMany options other than { as } are INVALID_ARGUMENT', () => {
    const filter = new BloomFilter({ capacity: 10 });
    expect(() => filter.hasMany(['a'], { as: 'Int8Array' })).toThrow(FilterError);
    expect(() => filter.hasMany(['a'], 'Uint8Array')).toThrow(FilterError);
    filter.free();
  });

  test('a batch of more than 4 GiB of key bytes is cut into calls that cannot wrap a 32-bit size', () => {
    // The same 16 MiB string 260 times: 4.36e9 bytes, past 2^32, with only
    // 16 MiB of string memory. A size summed over the call and passed as
    // 32 bits would wrap to a small allocation and overwrite the heap.
    const big = 'w'.repeat(16 * 1024 * 1024);
    const keys = new Array(260).fill(big);
    const filter = new BlockedBloomFilter({ capacity: 1000, falsePositiveRate: 0.001, seed: 3 });
    filter.add('before');
    const before = filter.serialize();
    expect(filter.hasMany(keys, { as: 'Uint8Array' }).every((b) => b === 0)).toBe(true);
    expect(filter.serialize()).toEqual(before);
    filter.addMany(keys);
    expect(filter.has(big)).toBe(true);
    expect(filter.has('before')).toBe(true);
    expect(filter.hasMany(['before', 'never'])).toEqual([true, false]);
    filter.free();
  }, 120000);
});

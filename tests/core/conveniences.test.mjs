// What users of other filter packages reach for: from(iterable), batches over
// any iterable, a one-hash dedupe step, ArrayBuffer input, clone and equals,
// and the index of the first key a batch could not store.
import { BloomFilter, CuckooFilter, FILTER_TYPES, FilterError, UrlBlocklist, deserialize, init } from 'cuckoo-bloom-wasm';
import { asciiKeys, thrown } from '../helpers/keys.mjs';

beforeAll(async () => {
  await init();
});

/** The class behind a registry entry (made once to ask it; a static type is built from a key). */
function classOf(entry) {
  const probe = entry.isStatic ? entry.from(['probe'], {}) : entry.create({ capacity: 1 });
  probe.free();
  return probe.constructor;
}

/**
 * A filter of the type holding `keys`: created and filled with addMany, or,
 * for a static type (binary fuse, which has no add), built from them.
 */
function holding(entry, keys, options) {
  if (entry.isStatic) return entry.from(keys, options);
  const filter = entry.create({ capacity: 1000, ...options });
  filter.addMany(keys);
  return filter;
}

describe.each(FILTER_TYPES.map((entry) => [entry.name, entry]))('%s', (name, entry) => {

  test('from(iterable) sizes for the keys and holds them all', () => {
    const keys = asciiKeys(3000, `from-${name}-`);
    const Class = classOf(entry);
    const filter = Class.from(new Set(keys), { falsePositiveRate: 0.001 });
    expect(filter).toBeInstanceOf(Class);
    expect(filter.capacity).toBe(3000);
    expect(filter.falsePositiveRate).toBe(0.001);
    expect(filter.hasMany(keys).every(Boolean)).toBe(true);
    filter.free();
  });

  test('addMany (or a static type\'s from) and hasMany take any iterable; a string is refused as a batch', () => {
    function* generated() {
      for (let i = 0; i < 100; i++) yield `gen-${i}`;
    }
    const filter = holding(entry, generated(), {});
    expect(filter.hasMany(generated()).every(Boolean)).toBe(true);
    expect(filter.hasMany(new Set(['gen-1', 'gen-2']))).toEqual([true, true]);
    const caught = thrown(() => filter.hasMany('gen-1'));
    expect(caught).toBeInstanceOf(FilterError);
    expect(caught.message).toMatch(/one key: use add\/has/);
    filter.free();
  });

  // A static type has no add of any kind (its addIfNew is UNSUPPORTED: tests/fuse/binary-fuse.test.mjs).
  // Asked inside the test: capabilities are read from the core, after init().
  test('addIfNew says whether the key was new, in one call (a dynamic type)', () => {
    if (entry.isStatic) return;
    const filter = entry.create({ capacity: 10_000, falsePositiveRate: 0.001 });
    const keys = asciiKeys(5000, `dedupe-${name}-`);
    const firstPass = keys.map((key) => filter.addIfNew(key));
    // New keys come back true except for false positives (~0.1% at most here).
    expect(firstPass.filter((added) => !added).length).toBeLessThan(25);
    expect(keys.every((key) => filter.has(key) || !firstPass[keys.indexOf(key)])).toBe(true);
    const countAfterFirst = filter.count;
    expect(keys.map((key) => filter.addIfNew(key)).some(Boolean)).toBe(false);
    expect(filter.count).toBe(countAfterFirst);
    filter.free();
  });

  test('clone is independent; equals compares type and bytes', () => {
    const filter = holding(entry, ['a', 'b'], { seed: 5 });
    const copy = filter.clone();
    expect(copy).toBeInstanceOf(classOf(entry));
    expect(copy.equals(filter)).toBe(true);
    if (entry.isStatic) {
      // A static filter does not change: another key set is another filter.
      const other = holding(entry, ['a', 'b', 'c'], { seed: 5 });
      expect(other.equals(filter)).toBe(false);
      copy.free();
      filter.free();
      other.free();
      return;
    }
    copy.add('c');
    expect(copy.has('c')).toBe(true);
    expect(filter.has('c')).toBe(false); // fixed seed: not a false positive here
    expect(copy.equals(filter)).toBe(false);
    expect(filter.equals('a filter')).toBe(false);
    filter.free();
    copy.free();
  });

  test('deserialize takes an ArrayBuffer too', () => {
    const filter = holding(entry, ['x'], {});
    const bytes = filter.serialize();
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    for (const read of [deserialize(buffer), classOf(entry).deserialize(buffer)]) {
      expect(read.has('x')).toBe(true);
      read.free();
    }
    filter.free();
  });
});

test('a cuckoo batch that runs out of room says where it stopped (index), and nothing before it is lost', () => {
  const filter = new CuckooFilter({ capacity: 100 });
  const keys = asciiKeys(1000, 'overflow-');
  const caught = thrown(() => filter.addMany(keys));
  expect(caught).toBeInstanceOf(FilterError);
  expect(caught.code).toBe('FULL');
  expect(caught.index).toBeGreaterThanOrEqual(100);
  expect(filter.hasMany(keys.slice(0, caught.index)).every(Boolean)).toBe(true);
  expect(filter.count).toBe(caught.index);
  filter.free();
});

test('UrlBlocklist.deserialize takes an ArrayBuffer', () => {
  const list = UrlBlocklist.build('evil.example');
  const bytes = list.serialize();
  expect(UrlBlocklist.deserialize(bytes.buffer).match('http://evil.example/')).toBe('evil.example/');
  list.free();
});

test('from() with no options sizes for the keys at the default rate', () => {
  const filter = BloomFilter.from(['a', 'b']);
  expect([filter.capacity, filter.falsePositiveRate, filter.has('a')]).toEqual([2, 0.01, true]);
  filter.free();
});

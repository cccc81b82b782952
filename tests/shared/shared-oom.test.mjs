// Filling the shared memory (issue #47): every failure is OUT_OF_MEMORY (it
// was LOAD_FAILED "called abort" where an allocation inside the C++ library
// failed), no lock outlives the failed call, and afterwards has, add,
// serialize and free work on the filters that were there.
const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);

const fails = (code, pattern) => expect.objectContaining({ name: 'FilterError', code, message: expect.stringMatching(pattern) });
const keys = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

// Makes filters of `options` until the memory refuses one; the errors seen.
function fillWith(Filter, options, made, limit) {
  const errors = [];
  while (made.length < limit) {
    try {
      made.push(new Filter(options));
    } catch (error) {
      errors.push(error);
      break;
    }
  }
  return errors;
}

describe('a shared memory filled to the last byte', () => {
  beforeAll(() => shared.init({ maximumMemory: 8 * 2 ** 20 }));

  test('OUT_OF_MEMORY from new and serialize(); then has, add, serialize and free work', () => {
    const cuckoo = new shared.SharedCuckooFilter({ capacity: 600_000, falsePositiveRate: 0.01 });
    const bloom = new shared.SharedBloomFilter({ capacity: 600_000, falsePositiveRate: 0.01 });
    const added = keys('kept-', 20_000);
    cuckoo.addMany(added);
    bloom.addMany(added);
    expect(cuckoo.byteLength + bloom.byteLength).toBeGreaterThan(1.4 * 2 ** 20);

    // Large fillers first, then ever smaller ones: the last refusals come from
    // the small allocations of a filter's making, which used to abort.
    const fillers = [];
    const refusals = [];
    for (const capacity of [100_000, 10_000, 1_000, 10]) {
      refusals.push(...fillWith(shared.SharedBlockedBloomFilter, { capacity }, fillers, 10_000));
      refusals.push(...fillWith(shared.SharedCuckooFilter, { capacity }, fillers, 10_000));
    }
    expect(fillers.length).toBeGreaterThan(10);
    expect(fillers.length).toBeLessThan(10_000);
    expect(refusals.length).toBe(8);
    for (const error of refusals) expect(error).toEqual(fails('OUT_OF_MEMORY', /./));

    // The bytes of either big filter do not fit now.
    expect(() => cuckoo.serialize()).toThrow(fails('OUT_OF_MEMORY', /serialize/));
    expect(() => bloom.serialize()).toThrow(fails('OUT_OF_MEMORY', /serialize/));

    // No lock was kept: lookups, adds and a free finish (each used to spin for ever).
    expect(cuckoo.hasMany(added).every(Boolean)).toBe(true);
    expect(bloom.hasMany(added).every(Boolean)).toBe(true);
    cuckoo.add('after');
    bloom.add('after');
    expect(cuckoo.has('after') && bloom.has('after')).toBe(true);
    const last = fillers.pop();
    last.add('x');
    last.free();
    expect(() => last.has('x')).toThrow(fails('FREED', /after free/));

    // With the fillers gone the bytes fit again, and hold every key.
    for (const filler of fillers) filler.free();
    const cuckooBytes = cuckoo.serialize();
    const bloomBytes = bloom.serialize();
    expect(cuckooBytes.length).toBeGreaterThan(cuckoo.byteLength);
    expect(bloomBytes.length).toBeGreaterThan(bloom.byteLength);
    bloom.free();
    cuckoo.free();
    // The memory serves new filters again.
    const again = new shared.SharedCuckooFilter({ capacity: 600_000, falsePositiveRate: 0.01 });
    again.addMany(added);
    expect(again.hasMany(added).every(Boolean)).toBe(true);
    again.free();
  });
});

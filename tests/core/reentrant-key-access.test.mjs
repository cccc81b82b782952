// Found by an outside attack (shared/ADVERSARY.md) on the Ribbon build and the shared batch lookup (issue #47): a key list
// whose element access runs code (an array with a getter, as a Proxy or an
// observable array has) that calls into the library while the batch is being
// encoded. The outer call's keys are then overwritten in the per-thread key
// arena: a Ribbon filter is built without some keys (false negatives in the
// filter built), hasMany answers 0 for keys that are present, or the call traps
// with a raw RuntimeError. Either the answers must be right, or the call must be
// a typed FilterError; never a silent miss, never an untyped trap.
import { FilterError, RibbonFilter, BloomFilter, init } from 'cuckoo-bloom-wasm';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);

beforeAll(async () => {
  await init();
  await shared.init({ maximumMemory: 64 * 2 ** 20 });
});

const KEYS = Array.from({ length: 100 }, (_, i) => `key-${i}`);

/** KEYS, whose element 50 runs `reenter` when read (then gives 'key-50'). */
function listReentering(reenter) {
  const list = KEYS.slice();
  Object.defineProperty(list, 50, {
    get() {
      reenter();
      return 'key-50';
    },
  });
  return list;
}

/** The keys of KEYS a check reports absent; a thrown error must be a FilterError. */
function missedOrTyped(run) {
  let answers;
  try {
    answers = run();
  } catch (error) {
    expect(error).toBeInstanceOf(FilterError);
    return [];
  }
  return KEYS.filter((_, i) => !answers[i]);
}

describe.each([
  ['short', ['z']],
  ['long', ['z'.repeat(70)]],
])('a key getter that re-enters the library (%s inner key)', (_label, innerKeys) => {
  test('RibbonFilter.from: every key of the list is in the filter built (or a FilterError)', () => {
    let filter;
    const missed = missedOrTyped(() => {
      filter = RibbonFilter.from(listReentering(() => RibbonFilter.from(innerKeys).free()), { falsePositiveRate: 1e-6 });
      return KEYS.map((key) => filter.has(key));
    });
    filter?.free();
    expect(missed).toEqual([]);
  });

  test('main entry BloomFilter.hasMany: no key added is reported absent (or a FilterError)', () => {
    const filter = new BloomFilter({ capacity: 1000 });
    filter.addMany(KEYS);
    const missed = missedOrTyped(() => filter.hasMany(listReentering(() => filter.hasMany(innerKeys)), { as: 'Uint8Array' }));
    filter.free();
    expect(missed).toEqual([]);
  });

  test.each([
    ['SharedBloomFilter', { capacity: 1000 }],
    ['SharedCuckooFilter', { capacity: 1000 }],
  ])('shared %s.hasMany: no key added is reported absent (or a FilterError)', (className, options) => {
    const filter = new shared[className](options);
    filter.addMany(KEYS);
    const missed = missedOrTyped(() => filter.hasMany(listReentering(() => filter.hasMany(innerKeys)), { as: 'Uint8Array' }));
    // The filter works afterwards, whatever the call did.
    expect(filter.hasMany(KEYS).every(Boolean)).toBe(true);
    filter.free();
    expect(missed).toEqual([]);
  });
});

// `cuckoo-bloom-wasm/shared` refuses bad input with a typed FilterError naming
// what is wrong: bad init and filter options, keys that are not keys, and
// handles that are not (or no longer) handles to a live filter.
const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);
const { FilterError } = shared;

const fails = (code, pattern) => expect.objectContaining({ name: 'FilterError', code, message: expect.stringMatching(pattern) });

describe('before init()', () => {
  test('creating a filter is NOT_INITIALIZED, naming init and attach', () => {
    expect(shared.isInitialized()).toBe(false);
    expect(() => new shared.SharedBloomFilter({ capacity: 10 })).toThrow(fails('NOT_INITIALIZED', /SharedBloomFilter.*init\(\).*attach/));
  });

  test.each([
    [{ maximumMemory: 0 }, /maximumMemory.*got 0/],
    [{ maximumMemory: 2 ** 20 }, /maximumMemory.*from 2097152/],
    [{ maximumMemory: 3 * 2 ** 20 + 1 }, /64 KiB pages/],
    [{ maximumMemory: 2 ** 32 }, /2 GiB/],
    [{ maximumMemory: '64MB' }, /got string/],
    [{ maximumMemory: 64 * 2 ** 20, memory: 1 }, /unknown option 'memory'/],
  ])('init(%o) rejects with INVALID_ARGUMENT', async (options, pattern) => {
    await expect(shared.init(options)).rejects.toEqual(fails('INVALID_ARGUMENT', pattern));
    expect(shared.isInitialized()).toBe(false);
  });
});

describe('after init()', () => {
  beforeAll(() => shared.init({ maximumMemory: 8 * 2 ** 20 }));

  test.each([
    ['SharedBloomFilter', { capacity: 0 }, 'INVALID_ARGUMENT', /capacity must be an integer/],
    ['SharedBlockedBloomFilter', { capacity: 10, falsePositiveRate: 1.5 }, 'INVALID_ARGUMENT', /falsePositiveRate must be a number in \(0, 1\)/],
    ['SharedCountingBloomFilter', { capacity: 10, fpr: 0.1 }, 'INVALID_ARGUMENT', /unknown option 'fpr'/],
    ['SharedBloomFilter', null, 'INVALID_ARGUMENT', /options object/],
    ['SharedCuckooFilter', { capacity: 10, semiSorted: true }, 'INVALID_ARGUMENT', /semiSorted must be false/],
    ['SharedCuckooFilter', { capacity: 10, bucketSize: 3 }, 'INVALID_ARGUMENT', /bucketSize must be 2, 4 or 8/],
    ['SharedCuckooFilter', { capacity: 10, fingerprintBits: 40 }, 'INVALID_ARGUMENT', /fingerprintBits/],
    // Larger than the 8 MiB memory: refused by the core, nothing half-made.
    ['SharedBloomFilter', { capacity: 100_000_000 }, 'OUT_OF_MEMORY', /SharedBloomFilter: /],
  ])('new %s(%o) throws %s', (className, options, code, pattern) => {
    expect(() => new shared[className](options)).toThrow(fails(code, pattern));
  });

  test('keys that are neither strings nor Uint8Arrays are INVALID_ARGUMENT, batches naming the index', () => {
    const filter = new shared.SharedCountingBloomFilter({ capacity: 100 });
    expect(() => filter.add(42)).toThrow(fails('INVALID_ARGUMENT', /a key must be a string or a Uint8Array, got a number/));
    expect(() => filter.has(null)).toThrow(fails('INVALID_ARGUMENT', /got null/));
    expect(() => filter.remove({})).toThrow(fails('INVALID_ARGUMENT', /got an Object/));
    let error;
    try {
      filter.addMany(['a', 'b', 7]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toEqual(fails('INVALID_ARGUMENT', /key 2 must be/));
    expect(error.index).toBe(2);
    expect(() => filter.hasMany(5)).toThrow(fails('INVALID_ARGUMENT', /iterable of keys/));
    filter.free();
  });

  test('a full cuckoo filter is FULL with the index of the first key not stored; the keys before it stay', () => {
    const filter = new shared.SharedCuckooFilter({ capacity: 100, maxKicks: 20 });
    const keys = Array.from({ length: 1000 }, (_, i) => `k${i}`);
    let error;
    try {
      filter.addMany(keys);
    } catch (caught) {
      error = caught;
    }
    expect(error).toEqual(fails('FULL', /key \d+ of addMany/));
    expect(error.index).toBeGreaterThan(50);
    expect(filter.hasMany(keys.slice(0, error.index)).every(Boolean)).toBe(true);
    filter.free();
  });

  describe('attach() of something that is not a handle to a live filter', () => {
    let filter;
    let handle;
    beforeAll(() => {
      filter = new shared.SharedBlockedBloomFilter({ capacity: 100 });
      handle = filter.handle();
    });
    afterAll(() => filter.free());

    test.each([
      ['undefined', () => undefined, /needs a handle/],
      ['a string', () => 'handle', /needs a handle/],
      ['another kind', (h) => ({ ...h, kind: 'x' }), /not a handle from filter.handle\(\)/],
      ['an unknown type', (h) => ({ ...h, type: 'fuse' }), /unknown filter type/],
      ['no memory', (h) => ({ ...h, memory: new ArrayBuffer(8) }), /memory is an ArrayBuffer, not a WebAssembly.Memory/],
      ['an unshared memory', (h) => ({ ...h, memory: new WebAssembly.Memory({ initial: 1 }) }), /not shared/],
      ['no module', (h) => ({ ...h, module: {} }), /module is an Object, not a WebAssembly.Module/],
      ['a bad slot', (h) => ({ ...h, slot: -1 }), /slot is a number \(-1\), not a uint32/],
      ['a bad mark', (h) => ({ ...h, mark: [1] }), /mark is not two uint32 words/],
      ['a wrong mark', (h) => ({ ...h, mark: [(h.mark[0] ^ 1) >>> 0, h.mark[1]] }), /not the memory of a cuckoo-bloom-wasm\/shared runtime/],
      [
        'another shared memory',
        (h) => ({ ...h, memory: new WebAssembly.Memory({ initial: 32, maximum: 32, shared: true }) }),
        /not the memory of a cuckoo-bloom-wasm\/shared runtime/,
      ],
    ])('%s: INVALID_ARGUMENT', (_what, make, pattern) => {
      expect(() => shared.attach(make(handle))).toThrow(fails('INVALID_ARGUMENT', pattern));
    });

    test.each([
      ['a slot with no filter', (h) => ({ ...h, slot: 4000 })],
      ['a slot out of range', (h) => ({ ...h, slot: 1e6 })],
      ['a stale generation', (h) => ({ ...h, generation: h.generation + 1 })],
      ['the wrong type', (h) => ({ ...h, type: 'cuckoo' })],
    ])('%s: FREED (no live filter of that type there)', (_what, make) => {
      expect(() => shared.attach(make(handle))).toThrow(fails('FREED', /names no live/));
    });

    // Issue #40: every slot's first filter had generation 1, so a handle with
    // a neighbour's slot number attached that neighbour.
    test('a handle forged with another live filter\'s slot number is FREED: generations differ per filter', () => {
      const neighbours = Array.from({ length: 8 }, () => new shared.SharedBlockedBloomFilter({ capacity: 100 }));
      try {
        const slots = new Set([handle.slot, ...neighbours.map((other) => other.handle().slot)]);
        expect(slots.size).toBe(9);
        const generations = new Set([handle.generation, ...neighbours.map((other) => other.handle().generation)]);
        expect(generations.size).toBe(9);
        for (const other of neighbours) {
          expect(() => shared.attach({ ...handle, slot: other.handle().slot })).toThrow(fails('FREED', /names no live/));
          expect(() => shared.attach({ ...other.handle(), slot: handle.slot })).toThrow(fails('FREED', /names no live/));
        }
      } finally {
        for (const other of neighbours) other.free();
      }
    });

    test('a real handle attaches (on the creating thread: the same instance) and sees the same filter', () => {
      const again = shared.attach(handle);
      again.add('x');
      expect(filter.has('x')).toBe(true);
      expect(again).toBeInstanceOf(shared.SharedBlockedBloomFilter);
    });
  });

  test('every error is the entry\'s FilterError', () => {
    expect(() => new shared.SharedBloomFilter({ capacity: -1 })).toThrow(FilterError);
  });
});

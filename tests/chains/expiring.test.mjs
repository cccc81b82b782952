// The expiring filter from JavaScript, with a fake clock: property tests
// (fast-check, fixed seeds) that no key is ever missing inside its window,
// that every key is gone window + one generation after it was added, and that
// bytes taken mid-window read back into a filter that answers identically;
// then the options' errors and a clock that steps back.
import fc from 'fast-check';
import { ExpiringBloomFilter, deserialize, init } from 'cuckoo-bloom-wasm';
import { expectCode } from '../helpers/filter-errors.mjs';

const RUNS = Number(process.env.FC_RUNS ?? 150);

beforeAll(async () => {
  await init();
});

// A clock the test moves by hand.
function fakeClock(start) {
  const clock = { now: start };
  clock.read = () => clock.now;
  return clock;
}

// A rotation whose generation length is an integer, so every boundary is
// exact in binary64 (window = length * (generations - 1)).
const rotation = fc.record({
  generationLength: fc.integer({ min: 1, max: 40 }),
  generations: fc.integer({ min: 2, max: 6 }),
  start: fc.integer({ min: -1000, max: 1_000_000 }),
});
// Steps: time passes (0..3 generations' worth), then a key is added.
const steps = fc.array(fc.record({ wait: fc.nat({ max: 120 }), key: fc.nat({ max: 60 }) }), { minLength: 1, maxLength: 60 });

describe('ExpiringBloomFilter properties (fake clock)', () => {
  test('never a false negative inside the window; every key gone after window + one generation', () => {
    fc.assert(
      fc.property(rotation, steps, ({ generationLength, generations, start }, events) => {
        const window = generationLength * (generations - 1);
        const clock = fakeClock(start);
        const filter = new ExpiringBloomFilter({ capacity: 64, falsePositiveRate: 0.01, window, generations, clock: clock.read, seed: 5 });
        try {
          const lastAdded = new Map(); // key -> time of its latest add
          for (const { wait, key } of events) {
            clock.now += wait;
            // Before adding: every key added within the last `window` units is found.
            for (const [k, t] of lastAdded) {
              if (clock.now - t <= window) expect(filter.has(`k${k}`)).toBe(true);
            }
            filter.add(`k${key}`);
            lastAdded.set(key, clock.now);
          }
          // window + one generation after the last add, every key is gone:
          // every generation that held one was dropped (nothing is left to
          // answer even by a false positive).
          clock.now += window + generationLength;
          const answers = filter.hasMany([...lastAdded.keys()].map((k) => `k${k}`));
          expect(answers.every((found) => !found)).toBe(true);
          expect(filter.count).toBe(0);
        } finally {
          filter.free();
        }
      }),
      { seed: 14_2024, numRuns: RUNS },
    );
  });

  test('bytes taken mid-window read back (with the same clock) into a filter that answers identically', () => {
    fc.assert(
      fc.property(rotation, steps, steps, ({ generationLength, generations, start }, before, after) => {
        const window = generationLength * (generations - 1);
        const clock = fakeClock(start);
        const original = new ExpiringBloomFilter({ capacity: 32, falsePositiveRate: 0.05, window, generations, clock: clock.read });
        let copy;
        try {
          for (const { wait, key } of before) {
            clock.now += wait;
            original.add(`k${key}`);
          }
          const bytes = original.serialize();
          copy = ExpiringBloomFilter.deserialize(bytes, { clock: clock.read });
          expect(copy.generationStart).toBe(original.generationStart);
          expect(copy.count).toBe(original.count);
          expect(Array.from(copy.serialize())).toEqual(Array.from(bytes));
          // 0..60 are keys that were added or not (absent keys catch any
          // difference in false positives too).
          const probes = Array.from({ length: 61 }, (_, k) => `k${k}`);
          for (const { wait, key } of after) {
            clock.now += wait;
            expect(copy.hasMany(probes)).toEqual(original.hasMany(probes));
            original.add(`k${key}`);
            copy.add(`k${key}`);
          }
          expect(Array.from(copy.serialize())).toEqual(Array.from(original.serialize()));
        } finally {
          original.free();
          copy?.free();
        }
      }),
      { seed: 14_2025, numRuns: RUNS },
    );
  });
});

describe('ExpiringBloomFilter', () => {
  test('a key is found through its window and forgotten one generation later (window 60, 4 generations)', () => {
    const clock = fakeClock(0);
    const filter = new ExpiringBloomFilter({ capacity: 100, window: 60, generations: 4, clock: clock.read });
    expect(filter.generationLength).toBe(20);
    clock.now = 19;
    filter.add('late-in-generation-0');
    clock.now = 79; // 19 + 60: still inside the window
    expect(filter.has('late-in-generation-0')).toBe(true);
    clock.now = 80; // generation 0 (started at 0) is dropped at 0 + 4 * 20
    expect(filter.has('late-in-generation-0')).toBe(false);
    filter.free();
  });

  test('advance(now) rotates without a clock read and reports the generations dropped', () => {
    const filter = new ExpiringBloomFilter({ capacity: 100, window: 60, generations: 4, clock: () => 0 });
    filter.add('a');
    expect(filter.advance(45)).toBe(2);
    expect(filter.generationStart).toBe(40);
    expect(filter.advance(10_000)).toBe(4);
    expect(filter.count).toBe(0);
    filter.free();
  });

  test('a clock that steps back changes nothing and forgets nothing early', () => {
    const clock = fakeClock(1000);
    const filter = new ExpiringBloomFilter({ capacity: 100, window: 60, generations: 3, clock: clock.read });
    filter.add('a');
    const bytes = Array.from(filter.serialize());
    clock.now = -5;
    expect(filter.has('a')).toBe(true);
    expect(filter.advance(0)).toBe(0);
    expect(Array.from(filter.serialize())).toEqual(bytes);
    clock.now = 1060;
    expect(filter.has('a')).toBe(true);
    filter.free();
  });

  test('bad options and bad clock readings are INVALID_ARGUMENT', () => {
    const make = (options) => new ExpiringBloomFilter({ capacity: 100, clock: () => 0, ...options });
    for (const window of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '60']) expectCode(() => make({ window }), 'INVALID_ARGUMENT');
    for (const generations of [1, 0, -3, 2.5, 65, '4']) expectCode(() => make({ generations }), 'INVALID_ARGUMENT');
    expectCode(() => make({ clock: 42 }), 'INVALID_ARGUMENT');
    expectCode(() => make({ clock: () => Number.NaN }), 'INVALID_ARGUMENT');
    expectCode(() => make({ clock: () => 'noon' }), 'INVALID_ARGUMENT');
    expectCode(() => make({ startTime: 5 }), 'INVALID_ARGUMENT');
    expectCode(() => make({ bucketSize: 4 }), 'INVALID_ARGUMENT');
    // A generation below the clock's resolution at its reading.
    expectCode(() => make({ window: 1, clock: () => 1e20 }), 'INVALID_ARGUMENT');
    let now = 0;
    const filter = make({ window: 60, clock: () => now });
    now = Number.NaN;
    expectCode(() => filter.has('a'), 'INVALID_ARGUMENT');
    expectCode(() => filter.advance(Number.POSITIVE_INFINITY), 'INVALID_ARGUMENT');
    expectCode(() => filter.advance('5'), 'INVALID_ARGUMENT');
    now = 1;
    expect(filter.has('a')).toBe(false);
    filter.free();
  });

  test('defaults: Date.now, one hour, 4 generations; read back through deserialize() of any type', () => {
    const filter = new ExpiringBloomFilter({ capacity: 1000 });
    expect(filter.clock).toBe(Date.now);
    expect(filter.window).toBe(3_600_000);
    expect(filter.generations).toBe(4);
    expect(Math.abs(filter.generationStart - Date.now())).toBeLessThan(60_000);
    filter.addMany(['a', 'b']);
    const read = deserialize(filter.serialize());
    expect(read).toBeInstanceOf(ExpiringBloomFilter);
    expect(read.hasMany(['a', 'b', 'c'])).toEqual([true, true, false]);
    const clone = filter.clone();
    expect(clone.clock).toBe(filter.clock);
    expect(clone.has('a')).toBe(true);
    for (const f of [filter, read, clone]) f.free();
  });

  test('the compound rate at capacity stays at the target (generations sized at rate / G)', () => {
    const clock = fakeClock(0);
    const filter = new ExpiringBloomFilter({ capacity: 5000, falsePositiveRate: 0.01, window: 300, generations: 4, clock: clock.read });
    // 5,000 keys in each of the 4 live generations.
    for (let generation = 0; generation < 4; generation++) {
      clock.now = generation * 100;
      filter.addMany(Array.from({ length: 5000 }, (_, i) => `in-${generation}-${i}`));
    }
    const probes = 200_000;
    const found = filter.hasMany(Array.from({ length: probes }, (_, i) => `out-${i}`)).filter(Boolean).length;
    // The union bound makes the expected rate just under 1% (about 1,990 of
    // 200,000, sd ~45): the bound is 1.1x the target, 4.5 sd above it.
    expect(found / probes).toBeLessThanOrEqual(0.011);
    expect(filter.estimatedFalsePositiveRate).toBeLessThanOrEqual(0.01);
    expect(filter.overfilled).toBe(false);
    filter.free();
  });
});

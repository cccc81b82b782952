// The expandable filter from JavaScript: 100 -> 1,000,000 keys with the
// growth hint, 0 false negatives (removes included), the measured rate at the
// fullest point of every level at or below the target (an honest binomial
// bound), and the bytes round-tripping at several points; then its options.
import { ExpandableFilter, deserialize, init } from 'cuckoo-bloom-wasm';
import { expectCode } from '../helpers/filter-errors.mjs';
import { growCheckingEveryLevel, present } from './growth.mjs';

beforeAll(async () => {
  await init();
});


describe('ExpandableFilter growth', () => {
  test('100 -> 1,000,000 keys: no false negatives, removes included, the rate at or below the target after every doubling', () => {
    const target = 0.001;
    const end = 1_000_000;
    const filter = new ExpandableFilter({ initialCapacity: 100, expectedCapacity: end, falsePositiveRate: target, seed: 3 });
    try {
      const rates = [];
      growCheckingEveryLevel(filter, {
        end,
        target,
        probesAt: (added) => 20_000 + Math.min(200_000, added * 2),
        atLevel: ({ added, found, probes }) => {
          rates.push({ level: filter.level, keys: added, measured: found / probes });
          if (filter.level % 4 === 1 || added === end) {
            const copy = ExpandableFilter.deserialize(filter.serialize());
            try {
              expect(copy.serialize()).toEqual(filter.serialize());
              expect(copy.count).toBe(filter.count);
              expect(copy.has(present(0)) && copy.has(present(added - 1))).toBe(true);
            } finally {
              copy.free();
            }
          }
        },
      });
      expect(filter.level).toBe(13);
      const everyKey = Array.from({ length: end }, (_, i) => present(i));
      expect(filter.hasMany(everyKey, { as: 'Uint8Array' }).every((hit) => hit === 1)).toBe(true);
      // Remove every third key: the rest are still found, the count follows.
      const removed = everyKey.filter((_, i) => i % 3 === 0);
      expect(filter.removeMany(removed)).toBe(removed.length);
      expect(filter.count).toBe(end - removed.length);
      const kept = everyKey.filter((_, i) => i % 3 !== 0);
      expect(filter.hasMany(kept, { as: 'Uint8Array' }).every((hit) => hit === 1)).toBe(true);
      const bitsPerKey = (filter.serialize().length * 8) / end;
      console.log(`[measured] expandable 100 -> 1M at 0.1%: ${bitsPerKey.toFixed(2)} bits/key; per level ${JSON.stringify(rates)}`);
    } finally {
      filter.free();
    }
  }, 240_000);

  test('exhausted fingerprints (voids) are duplicated, found and removed through the registry', () => {
    // 6-bit fingerprints and 12 doublings: the first keys' fingerprints run out.
    const filter = new ExpandableFilter({ initialCapacity: 16, falsePositiveRate: 0.3, seed: 1 });
    try {
      const n = 40_000;
      for (let i = 0; i < n; i++) filter.add(present(i));
      expect(filter.level).toBeGreaterThan(filter.fingerprintBits);
      const copy = deserialize(filter.serialize());
      try {
        expect(copy.type).toBe('expandable');
        for (let i = 0; i < n; i++) expect(copy.has(present(i))).toBe(true);
      } finally {
        copy.free();
      }
      for (let i = 0; i < n; i += 2) expect(filter.remove(present(i))).toBe(true);
      for (let i = 1; i < n; i += 2) expect(filter.has(present(i))).toBe(true);
      expect(filter.count).toBe(n / 2);
    } finally {
      filter.free();
    }
  });
});

describe('ExpandableFilter options', () => {
  test('takes the growing filters’ names and the hint; refuses impossible values', () => {
    const filter = new ExpandableFilter({ capacity: 1000, expectedCapacity: 64_000 });
    try {
      expect(filter.expectedCapacity).toBe(64_000);
      expect(filter.level).toBe(0);
      expect(filter.fingerprintBits).toBeGreaterThanOrEqual(6);
    } finally {
      filter.free();
    }
    expect(expectCode(() => new ExpandableFilter({ initialCapacity: 1000, expectedCapacity: 10 }), 'INVALID_ARGUMENT').message).toMatch(/expectedCapacity/);
    expect(expectCode(() => new ExpandableFilter({ initialCapacity: 10, capacity: 20 }), 'INVALID_ARGUMENT').message).toMatch(/initialCapacity/);
    expect(expectCode(() => new ExpandableFilter({ initialCapacity: 10, falsePositiveRate: 1e-12 }), 'INVALID_ARGUMENT').message).toMatch(/falsePositiveRate/);
    expect(expectCode(() => new ExpandableFilter({ initialCapacity: 10, growth: 2 }), 'INVALID_ARGUMENT').message).toMatch(/growth/);
  });
});

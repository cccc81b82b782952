// Attack on the expandable filter's growth in eighths from JavaScript: the
// batch paths (addMany, hasMany, removeMany) and the bytes at every growth
// step, duplicates added twice and removed twice, clear() mid-level then
// growth again, the getters' arithmetic (slotCount = quotientCount plus
// growthSteps eighths of it), and hostile growthSteps bytes as a typed
// CORRUPT FilterError. The suites before walk one key at a time and
// round-trip at a few levels only.
import { ExpandableFilter, deserialize, init } from 'cuckoo-bloom-wasm';
import { expectCode } from '../helpers/filter-errors.mjs';

beforeAll(async () => {
  await init();
});

const key = (i) => `https://host${i % 977}.example/path/${i}`;
const keys = (from, to) => Array.from({ length: to - from }, (_, i) => key(from + i));
const position = (filter) => filter.level * 8 + filter.growthSteps;

// Every key found through hasMany, and through has on a deserialized copy.
function expectAllFound(filter, list, what) {
  const hits = filter.hasMany(list, { as: 'Uint8Array' });
  const missing = list.filter((_, i) => hits[i] !== 1);
  expect({ what, missing: missing.slice(0, 3), count: missing.length }).toEqual({ what, missing: [], count: 0 });
}

describe('ExpandableFilter growth in eighths through the batch paths', () => {
  test('addMany in small batches with duplicates, removeMany, bytes round-tripped at every growth step: no key lost', () => {
    let filter = new ExpandableFilter({ initialCapacity: 16, falsePositiveRate: 0.3, seed: 9 });
    try {
      const held = new Map(); // key index -> copies
      let next = 0;
      let last = position(filter);
      let steps = 0;
      let sawStepWithVoids = false;
      while (filter.level < 10) {
        // 40 new keys, 4 of the last batch again (stored twice), then remove 10
        // held keys once (some of them the duplicates).
        const fresh = keys(next, next + 40);
        const again = keys(Math.max(0, next - 4), next);
        filter.addMany([...fresh, ...again]);
        for (let i = next; i < next + 40; i++) held.set(i, 1);
        for (let i = Math.max(0, next - 4); i < next; i++) held.set(i, (held.get(i) ?? 0) + 1);
        next += 40;
        // The first levels' keys stay (their entries become voids after ~6
        // doublings); later ones are removed in part.
        const removable = [...held.keys()].filter((i) => i >= 300 && i % 7 === 3).slice(0, 10);
        expect(filter.removeMany(removable.map(key))).toBe(removable.length);
        for (const i of removable) {
          if (held.get(i) === 1) held.delete(i);
          else held.set(i, held.get(i) - 1);
        }
        expect(filter.count).toBe([...held.values()].reduce((a, b) => a + b, 0));
        if (position(filter) !== last) {
          last = position(filter);
          steps++;
          // The getters: slots are the quotients plus growthSteps eighths of them.
          expect(filter.slotCount).toBe(filter.quotientCount + Math.floor((filter.quotientCount * filter.growthSteps) / 8));
          expect(filter.growthSteps).toBeGreaterThanOrEqual(0);
          expect(filter.growthSteps).toBeLessThan(8);
          const bytes = filter.serialize();
          const copy = ExpandableFilter.deserialize(bytes);
          expect(copy.serialize()).toEqual(bytes);
          expect(copy.growthSteps).toBe(filter.growthSteps);
          filter.free();
          filter = copy;
          expectAllFound(filter, [...held.keys()].map(key), `level ${filter.level} step ${filter.growthSteps}`);
          if (filter.growthSteps > 0 && filter.level >= 7) sawStepWithVoids = true;
        }
      }
      expect(steps).toBeGreaterThanOrEqual(40); // a batch may pass several steps of the first levels at once
      expect(sawStepWithVoids).toBe(true);
      // Remove every copy of every key: nothing left.
      const all = [];
      for (const [i, copies] of held) for (let c = 0; c < copies; c++) all.push(key(i));
      expect(filter.removeMany(all)).toBe(all.length);
      expect(filter.count).toBe(0);
    } finally {
      filter.free();
    }
  }, 120_000);

  test('a key added twice mid-step is removed twice after doublings; every other key still found', () => {
    const filter = new ExpandableFilter({ initialCapacity: 16, falsePositiveRate: 0.01, seed: 4 });
    try {
      let i = 1000;
      while (filter.growthSteps === 0) filter.add(key(i++));
      filter.add('twice').add('twice');
      const level = filter.level;
      while (filter.level < level + 3) filter.add(key(i++));
      expect(filter.remove('twice')).toBe(true);
      expect(filter.has('twice')).toBe(true);
      expect(filter.remove('twice')).toBe(true);
      expectAllFound(filter, keys(1000, i), 'after the removes');
    } finally {
      filter.free();
    }
  });

  test('clear() mid-level goes back to a fresh filter; it grows through the steps again', () => {
    const options = { initialCapacity: 16, falsePositiveRate: 0.01, seed: 2 };
    const filter = new ExpandableFilter(options);
    const fresh = new ExpandableFilter(options);
    try {
      filter.addMany(keys(0, 200));
      expect(filter.growthSteps + filter.level).toBeGreaterThan(0);
      filter.clear();
      expect(filter.level).toBe(0);
      expect(filter.growthSteps).toBe(0);
      expect(filter.serialize()).toEqual(fresh.serialize());
      filter.addMany(keys(5000, 8000));
      const copy = deserialize(filter.serialize());
      try {
        expectAllFound(copy, keys(5000, 8000), 'after clear and growth');
      } finally {
        copy.free();
      }
    } finally {
      filter.free();
      fresh.free();
    }
  });
});

describe('ExpandableFilter hostile growthSteps bytes', () => {
  // The params block starts after the 56-byte header (docs/FORMAT.md); the
  // checksum (XXH3) is not recomputed here, so this checks the typed error on
  // the stored bytes' path: any growthSteps change is CORRUPT (never a crash).
  test('every growthSteps value but the true one is a CORRUPT FilterError', () => {
    const filter = new ExpandableFilter({ initialCapacity: 16, falsePositiveRate: 0.3, seed: 7 });
    try {
      while (filter.growthSteps !== 3) filter.add(key(filter.count));
      const bytes = filter.serialize();
      const at = 56 + 21;
      expect(bytes[at]).toBe(3);
      for (let steps = 0; steps < 256; steps++) {
        if (steps === 3) continue;
        const damaged = Uint8Array.from(bytes);
        damaged[at] = steps;
        expectCode(() => ExpandableFilter.deserialize(damaged), 'CORRUPT');
      }
    } finally {
      filter.free();
    }
  });
});

describe('ExpandableFilter FULL through addMany', () => {
  // A hinted schedule of 40 top bits widening every doubling (rate 1.2e-12,
  // the hint = the capacity) may not double past level 12, so its first
  // growth step there is FULL: addMany reports the index of the first key
  // not added, every key before it is found, and the filter still works.
  test('addMany past the last level: FULL with the index, every key before it kept, nothing else changed', () => {
    const filter = new ExpandableFilter({ initialCapacity: 8, expectedCapacity: 8, falsePositiveRate: 1.2e-12, seed: 3 });
    try {
      const list = keys(0, 40_000);
      const error = expectCode(() => filter.addMany(list), 'FULL');
      const { index } = error;
      expect(typeof index).toBe('number');
      expect(filter.count).toBe(index);
      expect(filter.level).toBe(12);
      expect(filter.growthSteps).toBe(0);
      expectAllFound(filter, list.slice(0, index), 'before the FULL key');
      const bytes = filter.serialize();
      expectCode(() => filter.add(list[index]), 'FULL');
      expect(filter.serialize()).toEqual(bytes);
      expect(filter.remove(list[0])).toBe(true);
      filter.add(list[index]);
      expectAllFound(filter, list.slice(1, index + 1), 'after a remove made room');
    } finally {
      filter.free();
    }
  }, 60_000);
});

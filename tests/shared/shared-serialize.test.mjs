// serialize() while other threads add (issue #31): two worker_threads fill one
// shared filter of each type while the main thread takes snapshot after
// snapshot. Every snapshot must be bytes the normal entry reads (the cuckoo
// filter's count is its occupied slots, taken under every lock; a plain copy
// during kicks was CORRUPT or lost a moving key), and the last one, taken after
// the workers reported done, finds every key.
import * as normal from 'cuckoo-bloom-wasm';
import { useWorkerPool } from './lib/use-pool.mjs';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);

const WORKERS = 2;
const PER_WORKER = 60_000;
const PREFIX = 'snapshot-key-';

const workers = useWorkerPool(WORKERS, async () => {
  await normal.init();
  await shared.init({ maximumMemory: 32 * 2 ** 20 });
});

const TOTAL = WORKERS * PER_WORKER;
const TYPES = [
  ['bloom', shared.SharedBloomFilter, normal.BloomFilter, { capacity: TOTAL, falsePositiveRate: 0.01 }],
  ['counting-bloom', shared.SharedCountingBloomFilter, normal.CountingBloomFilter, { capacity: TOTAL, falsePositiveRate: 0.01 }],
  // ~93% full at the end: the last adds kick on most inserts while snapshots are taken.
  ['cuckoo', shared.SharedCuckooFilter, normal.CuckooFilter, { capacity: Math.round(TOTAL / 0.95), falsePositiveRate: 0.01 }],
];

test.each(TYPES)('%s: snapshots taken during adds are readable, and the last holds every key', async (type, SharedClass, NormalClass, options) => {
  const filter = new SharedClass(options);
  try {
    const name = `${type}-snapshots`;
    await workers.pool.all('attach', () => ({ name, handle: filter.handle() }));
    let done = false;
    const adding = workers.pool
      .all('addRange', (i) => ({ name, prefix: PREFIX, from: i * PER_WORKER, to: (i + 1) * PER_WORKER }))
      .finally(() => {
        done = true;
      });
    let snapshots = 0;
    const unreadable = [];
    while (!done) {
      try {
        NormalClass.deserialize(filter.serialize()).free();
      } catch (error) {
        unreadable.push(error.message);
      }
      snapshots++;
      // Lets the workers' replies in.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await adding;
    expect(unreadable).toEqual([]);
    expect(snapshots).toBeGreaterThan(1);
    const last = NormalClass.deserialize(filter.serialize());
    try {
      const keys = Array.from({ length: TOTAL }, (_, i) => `${PREFIX}${i}`);
      expect(last.hasMany(keys, { as: 'Uint8Array' }).every((found) => found === 1)).toBe(true);
      expect(last.count).toBe(TOTAL);
    } finally {
      last.free();
    }
  } finally {
    filter.free();
  }
}, 120_000);

// Incremental growth of the exact index (issue #44; cuckoo_index.h, "growth"):
// a doubling allocates the new table and keeps the old one draining into it,
// 2 buckets per later write, so no set reads more than a few records for
// growth. Before, the set that doubled the table read every key back from the
// log (131,072 record reads at 122k keys; seconds on a log file). Timing lives
// in bench/index.mjs ("slowest single set"); here the record reads, which do
// not depend on the machine, and the answers while a table drains: lookups,
// deletes, a snapshot (which moves the rest first) and a reopen.
import { CuckooIndex, init } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { logDirectory } from './lib/log-files.mjs';

const freshPath = logDirectory('cbw-index-growth-');
beforeAll(async () => {
  await init();
});

const key = (i) => `https://growth.example/${i}`;
const text = (bytes) => new TextDecoder().decode(bytes);

test('40,000 sets from the smallest table: no set reads more than 16 records, and every key is found', () => {
  const index = new CuckooIndex({ capacity: 16 });
  try {
    let mostReads = 0;
    for (let i = 0; i < 40_000; i++) {
      index.resetStoreReads();
      expect(index.set(key(i), `v${i}`)).toBe(true);
      mostReads = Math.max(mostReads, index.stats().storeReads);
    }
    // 2 buckets of 4 slots moved, plus tag matches of the new key (rare at 24 tag bits).
    expect(mostReads).toBeLessThanOrEqual(16);
    expect(index.stats().rebuilds).toBeGreaterThanOrEqual(10);
    for (let i = 0; i < 40_000; i++) {
      const value = index.get(key(i));
      if (text(value) !== `v${i}`) expect(text(value)).toBe(`v${i}`); // one expect per miss: 100k expects are slow
    }
  } finally {
    index.free();
  }
});

test('a file index snapshotted while a table drains: every key found after reopening, deleted keys absent', () => {
  const path = freshPath();
  const index = FileCuckooIndex.open(path, { capacity: 1024 });
  let n = 0;
  // Up to the first doubling, then 20 writes more: the old table (~275 buckets) is still draining.
  while (index.stats().rebuilds === 0) index.set(key(n++), `v${n}`);
  for (let i = 0; i < 10; i++) index.set(key(n++), `v${n}`);
  for (let i = 0; i < 10; i++) expect(index.delete(key(i * 7))).toBe(true);
  const deleted = new Set(Array.from({ length: 10 }, (_, i) => key(i * 7)));
  for (let i = 0; i < n; i++) expect(index.has(key(i))).toBe(!deleted.has(key(i)));
  index.saveSnapshot();
  index.close();
  const reopened = FileCuckooIndex.open(path);
  try {
    expect(reopened.size).toBe(n - 10);
    for (let i = 0; i < n; i++) expect(reopened.has(key(i))).toBe(!deleted.has(key(i)));
  } finally {
    reopened.close();
  }
});

// CuckooIndex's counters: compaction drops dead records, and an absent key
// reads no record unless a tag matches.
import { CuckooIndex, init } from '../../dist/index.import.cjs';

beforeAll(async () => {
  await init();
});

test('compaction drops dead records and keeps every answer', () => {
  const index = new CuckooIndex();
  for (let i = 0; i < 1000; i++) index.set(`k${i}`, `v${i}`);
  for (let i = 0; i < 1000; i += 2) index.delete(`k${i}`);
  for (let i = 1; i < 1000; i += 4) index.set(`k${i}`, `w${i}`);
  const before = index.stats();
  expect(before.deadRecords).toBe(500 * 2 + 250);
  index.compact();
  const after = index.stats();
  expect(after.deadRecords).toBe(0);
  expect(after.logBytes).toBeLessThan(before.logBytes / 2);
  // Plain loops, one expect after: under Jest's vm modules, Node 20's optimizer
  // crashed (SIGSEGV) deoptimizing a hot test loop full of expect() calls.
  const wrong = [];
  for (let i = 0; i < 1000; i++) {
    const want = i % 2 === 0 ? undefined : i % 4 === 1 ? `w${i}` : `v${i}`;
    if (index.getString(`k${i}`) !== want) wrong.push(i);
  }
  expect(wrong).toEqual([]);
  index.free();
});

test('absent keys read no record unless a tag matches (about 8 / 2^16 of lookups)', () => {
  const index = new CuckooIndex();
  for (let i = 0; i < 50_000; i++) index.set(`https://present.example/${i}`);
  index.resetStoreReads();
  let found = 0;
  for (let i = 0; i < 100_000; i++) if (index.has(`https://absent.example/${i}`)) found++;
  expect(found).toBe(0);
  const { storeReads, loadFactor } = index.stats();
  // Expected 100,000 x 8 x load / 65,535 (<= 12); 100 would mean the tags are not checked.
  expect(storeReads).toBeLessThanOrEqual(100);
  expect(storeReads).toBeLessThanOrEqual(Math.max(20, 5 * (100_000 * 8 * loadFactor) / 65_535));
  index.resetStoreReads();
  for (let i = 0; i < 1000; i++) index.has(`https://present.example/${i}`);
  expect(index.stats().storeReads).toBeGreaterThanOrEqual(1000);
  index.free();
});


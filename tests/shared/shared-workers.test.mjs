// `cuckoo-bloom-wasm/shared` across worker_threads (issue #31): 4 workers add
// disjoint quarters of 1M keys into one shared filter at the same time, then
// every worker and the main thread find all 1M (no false negative), for each
// of the four types; the Bloom family's bytes equal what the normal entry
// builds from the same keys, and the normal entry's deserialize reads them.
import * as normal from 'cuckoo-bloom-wasm';
import { useWorkerPool } from './lib/use-pool.mjs';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);

const WORKERS = 4;
const TOTAL = 1_000_000;
const QUARTER = TOTAL / WORKERS;
const PREFIX = 'shared-key-';
const keys = (from, to) => Array.from({ length: to - from }, (_, i) => `${PREFIX}${from + i}`);

const workers = useWorkerPool(WORKERS, async () => {
  await normal.init();
  // 1M keys in each of four filters at once: the cuckoo table at 1% is ~2.1 MB, the counting one ~4.6 MB.
  await shared.init({ maximumMemory: 64 * 2 ** 20 });
});

const TYPES = [
  ['bloom', shared.SharedBloomFilter, normal.BloomFilter, { capacity: TOTAL, falsePositiveRate: 0.01, seed: 7 }],
  ['blocked-bloom', shared.SharedBlockedBloomFilter, normal.BlockedBloomFilter, { capacity: TOTAL, falsePositiveRate: 0.01, seed: 7 }],
  ['counting-bloom', shared.SharedCountingBloomFilter, normal.CountingBloomFilter, { capacity: TOTAL, falsePositiveRate: 0.01, seed: 7 }],
  // Sized so 1M fits: the concurrent cuckoo filter's kicks are a bounded path search, so leave it room (~86% full).
  ['cuckoo', shared.SharedCuckooFilter, normal.CuckooFilter, { capacity: Math.round(TOTAL / 0.85), falsePositiveRate: 0.01, seed: 7 }],
];

describe.each(TYPES)('%s: one filter, 4 workers', (type, SharedClass, NormalClass, options) => {
  let filter;
  afterAll(() => filter?.free());

  test('4 workers add disjoint quarters of 1M keys at once; every worker and the main thread find all 1M', async () => {
    filter = new SharedClass(options);
    const name = `${type}-fill`;
    expect(await workers.pool.all('attach', () => ({ name, handle: filter.handle() }))).toEqual(Array(WORKERS).fill(type));
    // All four start adding before any finishes: the adds overlap.
    await workers.pool.all('addRange', (i) => ({ name, prefix: PREFIX, from: i * QUARTER, to: (i + 1) * QUARTER }));
    expect(filter.count).toBe(TOTAL);
    // Every worker checks all 1M (one worker key by key, the others in batches), concurrently.
    const missing = await workers.pool.all('missing', (i) => ({ name, prefix: PREFIX, from: 0, to: TOTAL, batched: i !== 0 }));
    expect(missing).toEqual([0, 0, 0, 0]);
    let missingHere = 0;
    for (let at = 0; at < TOTAL; at += 50_000) for (const found of filter.hasMany(keys(at, at + 50_000))) if (!found) missingHere++;
    expect(missingHere).toBe(0);
  }, 120_000);

  test('serializes to bytes the normal entry reads (Bloom family: the very bytes it builds from the same keys)', () => {
    const bytes = filter.serialize();
    const read = NormalClass.deserialize(bytes);
    expect(read.type).toBe(type);
    expect(read.count).toBe(TOTAL);
    const sample = keys(0, TOTAL).filter((_, i) => i % 97 === 0);
    expect(read.hasMany(sample).every(Boolean)).toBe(true);
    if (type !== 'cuckoo') {
      const plain = new NormalClass(options);
      for (let at = 0; at < TOTAL; at += 50_000) plain.addMany(keys(at, at + 50_000));
      const expected = plain.serialize();
      expect(bytes.length).toBe(expected.length);
      expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
      plain.free();
    }
    read.free();
  }, 60_000);
});

test('an add in one worker is seen by the others and the main thread at once (one memory, not copies)', async () => {
  const filter = new shared.SharedCuckooFilter({ capacity: 1000 });
  await workers.pool.all('attach', () => ({ name: 'visible', handle: filter.handle() }));
  expect(await workers.pool.call(2, 'has', { name: 'visible', key: 'late' })).toBe(false);
  await workers.pool.call(1, 'add', { name: 'visible', key: 'late' });
  expect(await workers.pool.call(2, 'has', { name: 'visible', key: 'late' })).toBe(true);
  expect(filter.has('late')).toBe(true);
  expect(filter.remove('late')).toBe(true);
  expect(await workers.pool.call(3, 'has', { name: 'visible', key: 'late' })).toBe(false);
  filter.free();
});

describe('free() from one thread', () => {
  test('any later call through any handle, on any thread, is FilterError FREED', async () => {
    const filter = new shared.SharedBloomFilter({ capacity: 1000 });
    filter.add('a');
    await workers.pool.all('attach', () => ({ name: 'freed', handle: filter.handle() }));
    const handle = filter.handle();
    expect(await workers.pool.call(0, 'has', { name: 'freed', key: 'a' })).toBe(true);
    await workers.pool.call(0, 'free', { name: 'freed' });
    // The creator's object, another worker's, and a fresh attach all see it.
    expect(() => filter.has('a')).toThrow(expect.objectContaining({ name: 'FilterError', code: 'FREED' }));
    await expect(workers.pool.call(1, 'has', { name: 'freed', key: 'a' })).rejects.toMatchObject({ code: 'FREED' });
    await expect(workers.pool.call(2, 'attach', { name: 'again', handle })).rejects.toMatchObject({ code: 'FREED' });
    expect(() => shared.attach(handle)).toThrow(expect.objectContaining({ code: 'FREED' }));
    // A second free, anywhere, does nothing; the slot's next filter is not reachable through the old handle.
    filter.free();
    const next = new shared.SharedBloomFilter({ capacity: 1000 });
    next.add('a');
    await expect(workers.pool.call(3, 'has', { name: 'freed', key: 'a' })).rejects.toMatchObject({ code: 'FREED' });
    next.free();
  });

  test('a free while another worker queries: it waits for the call in flight, then the worker gets FREED', async () => {
    const filter = new shared.SharedCountingBloomFilter({ capacity: 10_000 });
    filter.addMany(keys(0, 1024));
    await workers.pool.call(3, 'attach', { name: 'racing', handle: filter.handle() });
    let started;
    const isStarted = new Promise((resolve) => (started = resolve));
    const reply = workers.pool.request(3, 'hasUntilFreed', { name: 'racing', prefix: PREFIX }, started);
    await isStarted;
    filter.free();
    expect((await reply).error).toMatchObject({ code: 'FREED' });
  }, 30_000);
});

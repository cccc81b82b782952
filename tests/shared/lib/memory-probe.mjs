// Issue #31's memory figure, measured in a process of its own: 4 worker_threads
// share one ~100 MB blocked Bloom filter, and this process's RSS (every thread of
// it) is read before and after. Run by shared-memory.test.mjs as a fresh child
// (`node --expose-gc memory-probe.mjs`), never inside a Jest worker: a worker that
// ran other suites first hands their pages back while we measure (one fresh-clone
// run read "RSS 1626.3 -> 1142.3 MB", a growth of -4.69x one copy). Prints one
// JSON line: { table, before, after, missing }.
import { WorkerPool } from './pool.mjs';

const shared = await import(new URL('../../../dist/shared.import.cjs', import.meta.url).href);

const WORKERS = 4;
const PREFIX = 'rss-key-';

/**
 * Process RSS after a full collection in every thread: what the threads hold, not
 * their garbage. V8 hands freed pages back on background threads after gc()
 * returns, later on a loaded machine (one run read 1.199x one copy at load 20,
 * against 1.02-1.05x idle): so RSS is read every 50 ms for a second and the
 * lowest reading counts, the same way before and after.
 */
async function settledRss(pool) {
  await pool.all('collect', () => ({}));
  globalThis.gc();
  let lowest = process.memoryUsage().rss;
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    lowest = Math.min(lowest, process.memoryUsage().rss);
  }
  return lowest;
}

// The memory is reserved at 160 MiB; pages cost RSS only once written.
await shared.init({ maximumMemory: 160 * 2 ** 20 });
// Small young generations: each worker's heap then holds a few MB of key strings at
// most, so the JS garbage of the fill moves RSS by less than the 15% the bound allows.
const pool = new WorkerPool(WORKERS, { resourceLimits: { maxYoungGenerationSizeMb: 4 } });
try {
  await pool.ready;
  // Baseline: the workers started, the module loaded and instantiated in each, and
  // the same work as below done once on a small filter: each worker's JS heap and
  // code are then at the size they keep, so the growth measured is the filter's.
  const warm = new shared.SharedBlockedBloomFilter({ capacity: 10_000 });
  await pool.all('attach', () => ({ name: 'warm', handle: warm.handle() }));
  await pool.all('addRange', (i) => ({ name: 'warm', prefix: PREFIX, from: i * 250_000, to: (i + 1) * 250_000 }));
  await pool.all('missing', () => ({ name: 'warm', prefix: PREFIX, from: 0, to: 1_000_000 }));
  warm.free();
  const before = await settledRss(pool);

  // ~100 MB: capacity 80M at 1% (10.5 bits a key in blocks of 512 bits).
  const filter = new shared.SharedBlockedBloomFilter({ capacity: 80_000_000, falsePositiveRate: 0.01 });
  const table = filter.byteLength;
  // Touch every page: 1M keys land in random 64-byte blocks of the 1.6M, ~40 per 4 KiB
  // page (a page missed: (1 - 64/1.6M)^1M, about e^-40). Added by the workers, a quarter each.
  const handle = filter.handle();
  await pool.all('attach', () => ({ name: 'big', handle }));
  await pool.all('addRange', (i) => ({ name: 'big', prefix: PREFIX, from: i * 250_000, to: (i + 1) * 250_000 }));
  // Each worker queries the whole filter (all 1M keys): the count of keys it missed.
  const missing = await pool.all('missing', () => ({ name: 'big', prefix: PREFIX, from: 0, to: 1_000_000 }));
  const after = await settledRss(pool);
  filter.free();
  console.log(JSON.stringify({ table, before, after, missing }));
} finally {
  await pool.terminate();
}

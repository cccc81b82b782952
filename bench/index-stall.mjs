// The slowest single FileCuckooIndex.set() while the table grows (issue #44):
// 300,000 URL keys into a log file opened with no capacity hint (the default
// table, 1,024 keys), writes unbuffered, as the report ran it. Each
// call is timed alone; the table doubles 9 times on the way.
//
//   node bench/index-stall.mjs            300k keys (the target: slowest call <= 50 ms)
//   BENCH_QUICK=1 node bench/index-stall.mjs   30k keys, checks it runs
//
// Growth is incremental (cuckoo_index.h, "growth"): before, the set that
// doubled the table read every key back from the file (1.1-3.5 s at 262k).
// Side by side, the same keys into a JS Map: its slowest set (a rehash of its
// own) is the floor a single call of anything that grows pays on this machine.
// Needs a build (npm run build): it loads dist/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeKeys } from './keys.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { init } = await import(pathToFileURL(path.join(root, 'dist', 'index.import.cjs')).href);
const { FileCuckooIndex } = await import(pathToFileURL(path.join(root, 'dist', 'index-file.mjs')).href);
await init();

const count = process.env.BENCH_QUICK === '1' ? 30_000 : 300_000;
const { strings } = makeKeys(count, 1);

/** Every call of `set(i)` timed alone: the slowest, the 99.9th percentile, and the index of the slowest. */
function timeEach(set) {
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    set(i);
    times[i] = Number(process.hrtime.bigint() - started) / 1e6;
  }
  let slowestAt = 0;
  for (let i = 1; i < count; i++) if (times[i] > times[slowestAt]) slowestAt = i;
  const sorted = Float64Array.from(times).sort();
  return { slowest: times[slowestAt], slowestAt, p999: sorted[Math.floor(count * 0.999)], total: sorted.reduce((a, b) => a + b, 0) };
}

const directory = mkdtempSync(path.join(tmpdir(), 'cbw-bench-stall-'));
try {
  const index = FileCuckooIndex.open(path.join(directory, 'keys.log'), { snapshotOnClose: false });
  const indexTimes = timeEach((i) => index.set(strings[i], 'v'));
  const { rebuilds, size } = index.stats();
  if (size !== count) throw new Error(`the index holds ${size} keys, not ${count}`);
  for (let i = 0; i < count; i += 101) if (!index.has(strings[i])) throw new Error(`lost ${strings[i]}`);
  index.close();
  const map = new Map();
  const mapTimes = timeEach((i) => map.set(strings[i], 'v'));
  const row = (name, t) => ({
    what: name,
    'slowest call ms': t.slowest.toFixed(2),
    'at key': t.slowestAt,
    'p99.9 ms': t.p999.toFixed(3),
    'total s': (t.total / 1000).toFixed(2),
  });
  console.table([row(`FileCuckooIndex.set (${rebuilds} doublings)`, indexTimes), row('Map.set', mapTimes)]);
  console.log(`slowest index set / slowest Map set: ${(indexTimes.slowest / mapTimes.slowest).toFixed(2)}x; target: slowest index set <= 50 ms`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}

// CuckooIndex against a JS Map of the same keys, side by side in one process:
// memory per key, exact `has` time, and records read for absent keys.
//
//   node --expose-gc bench/index.mjs               1M URL keys
//   BENCH_FULL=1 node --expose-gc bench/index.mjs  1M and 10M (10M needs ~3 GB of heap for the Map:
//                                                  add --max-old-space-size=6144)
//   BENCH_QUICK=1 node --expose-gc bench/index.mjs 100k keys, end to end, asserts nothing about speed
//
// Memory: the Map's cost is the V8 heap it adds when it is built from the keys'
// bytes (its strings and its entries: what a service holding the keys pays).
// The index's cost is its slot table (wasm memory; with the file store that is
// all it keeps in memory), and, for the in-memory store, the log as well.
// Every size uses the in-memory store (its log is in 16 MiB segments, so 10M URL
// records, ~770 MB, fit in wasm32's 2 GiB); BENCH_INDEX_STORE=file runs the same
// sizes over the file store instead (a present key's `has` then reads its record
// from the file, timed on a smaller sample).
// Needs a build (npm run build): it loads dist/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encodeKeys, makeKeys } from './keys.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { init, CuckooIndex } = await import(pathToFileURL(path.join(root, 'dist', 'index.import.cjs')).href);
const { FileCuckooIndex } = await import(pathToFileURL(path.join(root, 'dist', 'index-file.mjs')).href);
await init();

const quick = process.env.BENCH_QUICK === '1';
const sizes = quick ? [100_000] : process.env.BENCH_FULL === '1' ? [1_000_000, 10_000_000] : [1_000_000];
const gc = globalThis.gc ?? (() => {});
if (globalThis.gc === undefined) console.warn('bench/index: run with --expose-gc for exact heap numbers');
const decoder = new TextDecoder();

function heapUsed() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Best of `rounds` timings of `run` over `count` lookups, in ns per lookup. */
function timePerLookup(run, count, rounds = 5) {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const started = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / count);
  }
  return best;
}

const rows = [];
for (const count of sizes) {
  const { strings, seen } = makeKeys(count, 1);
  const absent = makeKeys(Math.min(count, 1_000_000), 2, seen).strings;
  const views = encodeKeys(strings);
  seen.clear();

  // A Map built from the keys' bytes: its own strings, as a service reading keys would hold.
  const before = heapUsed();
  let map = new Map();
  for (let i = 0; i < count; i++) map.set(decoder.decode(views[i]), true);
  const mapBytes = heapUsed() - before;

  const inFile = process.env.BENCH_INDEX_STORE === 'file';
  const directory = inFile ? mkdtempSync(path.join(tmpdir(), 'cbw-bench-index-')) : null;
  const index = inFile ? FileCuckooIndex.open(path.join(directory, 'keys.log'), { capacity: 1024, snapshotOnClose: false }) : new CuckooIndex({ capacity: 1024 });
  for (let i = 0; i < count; i++) index.set(views[i]);
  const stats = index.stats();

  // Exact has on present keys (a sample, same strings for both), then absent keys.
  const sample = strings.slice(0, Math.min(count, inFile ? 100_000 : 1_000_000));
  let hits = 0;
  const mapHas = timePerLookup(() => {
    for (let i = 0; i < sample.length; i++) if (map.has(sample[i])) hits++;
  }, sample.length);
  const indexHas = timePerLookup(() => {
    for (let i = 0; i < sample.length; i++) if (index.has(sample[i])) hits++;
  }, sample.length, inFile ? 1 : 5);
  const mapAbsent = timePerLookup(() => {
    for (let i = 0; i < absent.length; i++) if (map.has(absent[i])) hits--;
  }, absent.length);
  index.resetStoreReads();
  let falseAnswers = 0;
  for (let i = 0; i < absent.length; i++) if (index.has(absent[i])) falseAnswers++;
  const absentReads = index.stats().storeReads;
  const indexAbsent = timePerLookup(() => {
    for (let i = 0; i < absent.length; i++) if (index.has(absent[i])) hits--;
  }, absent.length, inFile ? 1 : 5);
  if (falseAnswers !== 0) throw new Error(`the index answered ${falseAnswers} absent keys as present`);
  for (let i = 0; i < sample.length; i += 997) if (!index.has(sample[i])) throw new Error(`lost ${sample[i]}`);

  rows.push({
    keys: count,
    store: inFile ? 'file' : 'memory',
    'Map B/key': (mapBytes / count).toFixed(1),
    'index table B/key': (stats.tableBytes / count).toFixed(2),
    'log B/key (used/reserved)': inFile ? '-' : `${(stats.logBytes / count).toFixed(1)}/${(stats.logAllocatedBytes / count).toFixed(1)}`,
    'table+log B/key': ((stats.tableBytes + stats.logAllocatedBytes) / count).toFixed(1),
    'table/Map': (stats.tableBytes / mapBytes).toFixed(3),
    load: stats.loadFactor.toFixed(3),
    'Map.has ns': mapHas.toFixed(0),
    'index.has ns': indexHas.toFixed(0),
    'has ratio': (indexHas / mapHas).toFixed(2),
    'absent Map ns': mapAbsent.toFixed(0),
    'absent index ns': indexAbsent.toFixed(0),
    'absent ratio': (indexAbsent / mapAbsent).toFixed(2),
    'reads/absent': `${absentReads} in ${absent.length}`,
  });
  if (inFile) {
    index.close();
    rmSync(directory, { recursive: true, force: true });
  } else {
    index.free();
  }
  map = null;
  console.table(rows.slice(-1));
}
if (rows.length > 1) console.table(rows);

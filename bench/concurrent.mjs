#!/usr/bin/env node
// The shared-memory entry's bench row (issue #31): add and has throughput of
// `cuckoo-bloom-wasm/shared` with 1 and 2 worker threads on one shared filter,
// beside 1 thread on the normal build (the main entry, same keys, same options):
//
//   node bench/concurrent.mjs [--quick] [--n=1000000] [--rounds=5]
//
// Keys: N URL-like keys (bench/keys.mjs), made in each thread from the same seed.
// add: addMany of all N into a fresh filter sized for N (2 threads: a half each,
// at once). has: hasMany of all N (all present), 2 passes. Shared figures are
// timed in the main thread by wall time from the go message to the last reply
// (threads are the point: CPU time would count both); the normal build's runs in
// the main thread (wall time too). Every measurement runs in rounds, the ratios
// are taken within each round and the median over rounds is reported, so load
// that shifts a whole round cancels out. Needs `npm run build` (dist/).
// Results: stdout (markdown) and bench/results/concurrent.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { makeKeys } from './keys.mjs';
import { median } from './clock.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const dist = (file) => pathToFileURL(path.join(root, 'dist', file)).href;
const SEED = 0x5a7ed;
const HAS_PASSES = 2;

if (!isMainThread) {
  // A bench worker: attaches the filters it is sent and runs add / has over its share of the keys.
  const shared = await import(dist('shared.import.cjs'));
  const keys = makeKeys(workerData.n, SEED).strings;
  let filter = null;
  parentPort.on('message', ({ op, handle, from, to }) => {
    if (op === 'attach') filter = shared.attach(handle);
    else if (op === 'add') filter.addMany(keys.slice(from, to));
    else if (op === 'has') {
      const slice = keys.slice(from, to);
      for (let pass = 0; pass < HAS_PASSES; pass++) {
        if (!filter.hasMany(slice).every(Boolean)) throw new Error('false negative');
      }
    }
    parentPort.postMessage(op);
  });
  parentPort.postMessage('ready');
} else {
  const argv = process.argv.slice(2);
  for (const a of argv) {
    if (!/^--(quick|n=[\d_]+|rounds=\d+)$/.test(a)) {
      console.error(`concurrent: unknown argument ${a}\nusage: node bench/concurrent.mjs [--quick] [--n=N] [--rounds=R]`);
      process.exit(2);
    }
  }
  const option = (name, fallback) => {
    const hit = argv.find((a) => a.startsWith(`--${name}=`));
    return hit ? Number(hit.slice(name.length + 3).replace(/_/g, '')) : fallback;
  };
  const QUICK = argv.includes('--quick');
  const N = option('n', QUICK ? 20_000 : 1_000_000);
  const ROUNDS = option('rounds', QUICK ? 2 : 5);

  const normal = await import(dist('index.import.cjs'));
  const shared = await import(dist('shared.import.cjs'));
  await normal.init();
  // Four filters of N keys at a time at most (one per type, each freed after its row).
  await shared.init({ maximumMemory: Math.max(64 * 2 ** 20, Math.ceil((N * 8 * 2) / 2 ** 20) * 2 ** 20) });
  const keys = makeKeys(N, SEED).strings;

  const workers = Array.from({ length: 2 }, () => new Worker(fileURLToPath(import.meta.url), { workerData: { n: N } }));
  const replies = (worker) =>
    new Promise((resolve, reject) => {
      const onError = (error) => {
        worker.off('message', onMessage);
        reject(error);
      };
      const onMessage = (message) => {
        worker.off('error', onError);
        resolve(message);
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
    });
  await Promise.all(workers.map(replies));
  const send = (worker, message) => {
    const reply = replies(worker);
    worker.postMessage(message);
    return reply;
  };
  /** Wall ms of `op` on the first `threads` workers, each on its share of the N keys. */
  async function timed(threads, op) {
    const start = performance.now();
    await Promise.all(
      workers.slice(0, threads).map((worker, i) => send(worker, { op, from: Math.floor((N * i) / threads), to: Math.floor((N * (i + 1)) / threads) })),
    );
    return performance.now() - start;
  }
  function timeMain(run) {
    const start = performance.now();
    run();
    return performance.now() - start;
  }

  const TYPES = [
    ['bloom', normal.BloomFilter, shared.SharedBloomFilter, { capacity: N }],
    ['blocked-bloom', normal.BlockedBloomFilter, shared.SharedBlockedBloomFilter, { capacity: N }],
    ['counting-bloom', normal.CountingBloomFilter, shared.SharedCountingBloomFilter, { capacity: N }],
    ['cuckoo', normal.CuckooFilter, shared.SharedCuckooFilter, { capacity: Math.ceil(N / 0.85) }],
  ];
  const mkeys = (ms, keysDone) => keysDone / 1e3 / ms; // million keys per second
  const rows = [];
  const loads = [loadavg()[0]];
  for (const [type, Normal, Shared, options] of TYPES) {
    const m = { addNormal: [], addShared1: [], addShared2: [], hasNormal: [], hasShared1: [], hasShared2: [], add21: [], has21: [], has1n: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const plain = new Normal({ ...options, falsePositiveRate: 0.01 });
      const addNormal = mkeys(timeMain(() => plain.addMany(keys)), N);
      const hasNormal = mkeys(
        timeMain(() => {
          for (let pass = 0; pass < HAS_PASSES; pass++) plain.hasMany(keys);
        }),
        N * HAS_PASSES,
      );
      plain.free();
      const rates = {};
      // 1 thread, then 2 (or 2 then 1 on odd rounds), each add into a fresh filter and has over it.
      for (const threads of round % 2 ? [2, 1] : [1, 2]) {
        const filter = new Shared({ ...options, falsePositiveRate: 0.01 });
        const handle = filter.handle();
        await Promise.all(workers.map((worker) => send(worker, { op: 'attach', handle })));
        rates[`add${threads}`] = mkeys(await timed(threads, 'add'), N);
        rates[`has${threads}`] = mkeys(await timed(threads, 'has'), N * HAS_PASSES);
        filter.free();
      }
      m.addNormal.push(addNormal);
      m.hasNormal.push(hasNormal);
      m.addShared1.push(rates.add1);
      m.addShared2.push(rates.add2);
      m.hasShared1.push(rates.has1);
      m.hasShared2.push(rates.has2);
      m.add21.push(rates.add2 / rates.add1);
      m.has21.push(rates.has2 / rates.has1);
      m.has1n.push(rates.has1 / hasNormal);
      loads.push(loadavg()[0]);
    }
    const row = Object.fromEntries(Object.entries(m).map(([key, values]) => [key, median(values)]));
    rows.push({ type, ...row });
  }
  await Promise.all(workers.map((worker) => worker.terminate()));

  const f = (x) => x.toFixed(2);
  const lines = [
    `N = ${N} URL keys at 1%, ${ROUNDS} rounds, million keys/s by wall time (medians; ratios: medians of the per-round ratios);` +
      ` load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
    '',
    '| filter | add normal 1T | add shared 1T | add shared 2T | add 2T/1T | has normal 1T | has shared 1T | has shared 2T | has 2T/1T | has shared 1T/normal |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.type} | ${f(r.addNormal)} | ${f(r.addShared1)} | ${f(r.addShared2)} | ${f(r.add21)}x | ${f(r.hasNormal)} | ${f(r.hasShared1)} | ${f(r.hasShared2)} | ${f(r.has21)}x | ${f(r.has1n)}x |`,
    ),
  ];
  console.log(lines.join('\n'));
  mkdirSync(path.join(benchDir, 'results'), { recursive: true });
  writeFileSync(path.join(benchDir, 'results', 'concurrent.json'), `${JSON.stringify({ n: N, rounds: ROUNDS, loads, rows }, null, 2)}\n`);
}

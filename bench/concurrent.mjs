#!/usr/bin/env node
// The shared-memory entry against copies (issues #31, #47): lookups and adds of
// `cuckoo-bloom-wasm/shared` from 1 and 2 worker threads on one shared filter,
// beside the main entry's filter of the same bytes (a copy per worker: the
// control a pool would use otherwise), all in worker threads, on the same keys:
//
//   node bench/concurrent.mjs [--quick] [--n=1000000] [--rounds=5] [--types=bloom,cuckoo]
//
// Keys: N URL-like keys (bench/keys.mjs), made in each thread from one seed, all
// present. add: addMany of all N into a fresh shared filter sized for N (2
// threads: a half each, at once), beside the main entry's addMany on one thread.
// Lookups, on the filter the 2-thread add filled (the main entry's copies are
// deserialized from its serialize()): `has` one key at a time and `hasMany`,
// each thread over its share of the N keys, 2 passes; every answer is checked.
// Every figure is wall time from the go message to the last reply (threads are
// the point: CPU time would count both). Each round runs every variant once, in
// an order that alternates between rounds; the ratios are taken within a round
// and their median over rounds reported, so load that shifts a whole round
// cancels out. On a machine whose cores are busy elsewhere the 2-thread ratios
// mean little: the header line prints the load average. Needs dist/.
// Results: stdout (markdown) and bench/results/concurrent.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
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
const NORMAL_CLASSES = { bloom: 'BloomFilter', 'blocked-bloom': 'BlockedBloomFilter', 'counting-bloom': 'CountingBloomFilter', cuckoo: 'CuckooFilter' };

if (!isMainThread) {
  // A bench worker: the shared filter it is sent (attached) and a main-entry copy of its bytes.
  const shared = await import(dist('shared.import.cjs'));
  const normal = await import(dist('index.import.cjs'));
  await normal.init();
  const keys = makeKeys(workerData.n, SEED).strings;
  let sharedFilter = null;
  let copy = null;
  const lookUp = (filter, mode, slice) => {
    for (let pass = 0; pass < HAS_PASSES; pass++) {
      if (mode === 'hasMany') {
        if (!filter.hasMany(slice).every(Boolean)) throw new Error('false negative');
      } else {
        for (const key of slice) if (!filter.has(key)) throw new Error('false negative');
      }
    }
  };
  parentPort.on('message', ({ op, handle, bytes, type, entry, mode, from, to }) => {
    if (op === 'attach') sharedFilter = shared.attach(handle);
    else if (op === 'copy') {
      copy?.free();
      copy = normal[NORMAL_CLASSES[type]].deserialize(bytes);
    } else if (op === 'add') sharedFilter.addMany(keys.slice(from, to));
    else if (op === 'look') lookUp(entry === 'shared' ? sharedFilter : copy, mode, keys.slice(from, to));
    parentPort.postMessage(op);
  });
  parentPort.postMessage('ready');
} else {
  const argv = process.argv.slice(2);
  for (const a of argv) {
    if (!/^--(quick|n=[\d_]+|rounds=\d+|types=[a-z,-]+)$/.test(a)) {
      console.error(`concurrent: unknown argument ${a}\nusage: node bench/concurrent.mjs [--quick] [--n=N] [--rounds=R] [--types=a,b]`);
      process.exit(2);
    }
  }
  const option = (name, fallback) => {
    const hit = argv.find((a) => a.startsWith(`--${name}=`));
    return hit ? hit.slice(name.length + 3) : fallback;
  };
  const QUICK = argv.includes('--quick');
  const N = Number(option('n', QUICK ? '20000' : '1000000').replace(/_/g, ''));
  const ROUNDS = Number(option('rounds', QUICK ? '2' : '5'));
  const WANTED = option('types', 'bloom,blocked-bloom,counting-bloom,cuckoo').split(',');

  const normal = await import(dist('index.import.cjs'));
  const shared = await import(dist('shared.import.cjs'));
  await normal.init();
  // Two filters of N keys at a time at most (each freed after its round).
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
  /** Wall ms of `message` on the first `threads` workers, each on its share of the N keys. */
  async function timed(threads, message) {
    const start = performance.now();
    await Promise.all(
      workers
        .slice(0, threads)
        .map((worker, i) => send(worker, { ...message, from: Math.floor((N * i) / threads), to: Math.floor((N * (i + 1)) / threads) })),
    );
    return performance.now() - start;
  }
  const mkeys = (ms, keysDone) => keysDone / 1e3 / ms; // million keys per second

  const TYPES = [
    ['bloom', normal.BloomFilter, shared.SharedBloomFilter, { capacity: N }],
    ['blocked-bloom', normal.BlockedBloomFilter, shared.SharedBlockedBloomFilter, { capacity: N }],
    ['counting-bloom', normal.CountingBloomFilter, shared.SharedCountingBloomFilter, { capacity: N }],
    ['cuckoo', normal.CuckooFilter, shared.SharedCuckooFilter, { capacity: Math.ceil(N / 0.85) }],
  ].filter(([type]) => WANTED.includes(type));
  // The variants of a lookup round: [entry, threads].
  const VARIANTS = [
    ['normal', 1],
    ['normal', 2],
    ['shared', 1],
    ['shared', 2],
  ];
  const rows = [];
  const loads = [loadavg()[0]];
  for (const [type, Normal, Shared, options] of TYPES) {
    const perRound = [];
    for (let round = 0; round < ROUNDS; round++) {
      const r = {};
      const plain = new Normal({ ...options, falsePositiveRate: 0.01 });
      let start = performance.now();
      plain.addMany(keys);
      r.addNormal = mkeys(performance.now() - start, N);
      plain.free();
      let filled = null;
      for (const threads of round % 2 ? [2, 1] : [1, 2]) {
        const filter = new Shared({ ...options, falsePositiveRate: 0.01 });
        await Promise.all(workers.map((worker) => send(worker, { op: 'attach', handle: filter.handle() })));
        r[`addShared${threads}`] = mkeys(await timed(threads, { op: 'add' }), N);
        if (threads === 2) filled = filter;
        else filter.free();
      }
      await Promise.all(workers.map((worker) => send(worker, { op: 'attach', handle: filled.handle() })));
      const bytes = filled.serialize();
      await Promise.all(workers.map((worker) => send(worker, { op: 'copy', bytes, type })));
      for (const mode of ['has', 'hasMany']) {
        const order = round % 2 ? [...VARIANTS].reverse() : VARIANTS;
        for (const [entry, threads] of order) {
          r[`${mode}_${entry}${threads}`] = mkeys(await timed(threads, { op: 'look', entry, mode }), N * HAS_PASSES);
        }
      }
      filled.free();
      perRound.push(r);
      loads.push(loadavg()[0]);
    }
    const med = (pick) => median(perRound.map(pick));
    const row = { type };
    for (const key of Object.keys(perRound[0])) row[key] = med((r) => r[key]);
    for (const mode of ['has', 'hasMany']) {
      row[`${mode}_shared21`] = med((r) => r[`${mode}_shared2`] / r[`${mode}_shared1`]);
      row[`${mode}_shared1n`] = med((r) => r[`${mode}_shared1`] / r[`${mode}_normal1`]);
      row[`${mode}_shared2n`] = med((r) => r[`${mode}_shared2`] / r[`${mode}_normal1`]);
      row[`${mode}_normal21`] = med((r) => r[`${mode}_normal2`] / r[`${mode}_normal1`]);
    }
    row.add21 = med((r) => r.addShared2 / r.addShared1);
    rows.push(row);
  }
  await Promise.all(workers.map((worker) => worker.terminate()));

  const f = (x) => x.toFixed(2);
  const x = (v) => `${v.toFixed(2)}x`;
  // A table row per filter and query call: the row's `${mode}_${column}` values, formatted.
  const queryRows = (format, columns) =>
    rows.flatMap((r) => ['has', 'hasMany'].map((mode) => `| ${r.type} | ${mode} | ${columns.map((column) => format(r[`${mode}_${column}`])).join(' | ')} |`));
  const lines = [
    `N = ${N} URL keys at 1%, ${ROUNDS} rounds, ${availableParallelism()} cores, million keys/s by wall time in worker threads ` +
      `(medians; ratios: medians of the per-round ratios); load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
    '',
    'Ratios (targets, issue #47: shared 2T/1T >= 1.7x; shared 1T/normal 1T >= 0.9x; shared 2T/normal 1T >= 1.7x; normal 2T/1T: the control, a copy per worker):',
    '',
    '| filter | call | shared 2T/1T | shared 1T/normal 1T | shared 2T/normal 1T | normal 2T/1T (copies) |',
    '|---|---|---|---|---|---|',
    ...queryRows(x, ['shared21', 'shared1n', 'shared2n', 'normal21']),
    '',
    'Rates (million keys/s):',
    '',
    '| filter | call | normal 1T | normal 2T | shared 1T | shared 2T |',
    '|---|---|---|---|---|---|',
    ...queryRows(f, ['normal1', 'normal2', 'shared1', 'shared2']),
    ...rows.map((r) => `| ${r.type} | addMany | ${f(r.addNormal)} (main thread) | | ${f(r.addShared1)} | ${f(r.addShared2)} (${x(r.add21)}) |`),
  ];
  console.log(lines.join('\n'));
  mkdirSync(path.join(benchDir, 'results'), { recursive: true });
  writeFileSync(path.join(benchDir, 'results', 'concurrent.json'), `${JSON.stringify({ n: N, rounds: ROUNDS, loads, rows }, null, 2)}\n`);
}

#!/usr/bin/env node
// Where the time of hasMany(strings) goes, part by part, beside the loop of has()
// it is compared with in bench/batches.mjs (issue #32: its last row, 10-byte keys
// returning boolean[]):
//
//   node --expose-gc bench/batch-parts.mjs [--quick] [--n=200000] [--rounds=7]
//        [--bytes=10] [--non-ascii] [--sliced] [--type=bloom|cuckoo] [--dist=DIR]
//
// The same keys (bench/batch-keys.mjs), filter, clock (CPU time), collection
// before each timed run and rotating rounds as bench/batches.mjs. Beside the
// three routes and the loop, each part of the strings route is timed alone:
//
// - scan: the type test, length and offset of every key, in batches of the
//   arena's size: the first read of each key string, which the loop pays too;
// - scan + join: and the `+=` that joins a batch's strings (a rope);
// - scan + join + encodeInto: and the one TextEncoder call a batch that
//   flattens the rope and writes its bytes (into a reused buffer here);
// - new Array(n): the boolean[] alone, and filled from answer bytes as
//   hasMany fills it; then reading a boolean[] or a Uint8Array as the
//   benchmark's counting loop does.
//
// Each part is also given the minor page faults of its run: a part that
// touches memory the process has not touched since the last collection pays
// one fault per 4 KiB page (V8 gives large objects fresh pages, and frees
// them when they die), and "per fault" divides the time of `new Array(n)` by
// its faults. The parts replicate keys.ts (scanBatch, encodeBatch: batches of
// BATCH_KEYS keys or BATCH_UNITS units): change them together.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
import { batchKeys } from './batch-keys.mjs';
import { benchClock, collect, median } from './clock.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
for (const a of argv) {
  if (!/^--(quick|non-ascii|sliced|n=[\d_]+|rounds=\d+|bytes=\d+|type=(bloom|cuckoo)|dist=.+)$/.test(a)) {
    console.error(
      `batch-parts: unknown argument ${a}\nusage: node --expose-gc bench/batch-parts.mjs [--quick] [--n=N] [--rounds=R] [--bytes=B] [--non-ascii] [--sliced] [--type=bloom|cuckoo] [--dist=DIR]`,
    );
    process.exit(2);
  }
}
const text = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const QUICK = argv.includes('--quick');
const N = Number((text('n') ?? (QUICK ? '2000' : '200000')).replace(/_/g, ''));
const ROUNDS = Number(text('rounds') ?? (QUICK ? 1 : 7));
const BYTES = Number(text('bytes') ?? 10);
const NON_ASCII = argv.includes('--non-ascii');
const SLICED = argv.includes('--sliced');
const DIST = path.resolve(text('dist') ?? path.join(benchDir, '..', 'dist'));
/** keys.ts: a batch ends at BATCH_KEYS keys or BATCH_UNITS UTF-16 units. */
const BATCH_KEYS = 16384;
const BATCH_UNITS = 65472;

const lib = await import(pathToFileURL(path.join(DIST, 'index.js')).href);
await lib.init();
const Class = text('type') === 'cuckoo' ? lib.CuckooFilter : lib.BloomFilter;
const cpu = benchClock('cpu');

// The same seed as bench/batches.mjs for these bytes, so the keys are the same.
const keys = batchKeys(N, BYTES, NON_ASCII, 0xba7c4 + BYTES, SLICED);
const batch = lib.KeyBatch.from(keys);
const filter = new Class({ capacity: N, falsePositiveRate: 0.01 });
filter.addMany(batch);
const answerBytes = filter.hasMany(batch, { as: 'Uint8Array' });
const answerBooleans = filter.hasMany(batch);
const encoder = new TextEncoder();
const scratch = new Uint8Array(BATCH_UNITS * 3);
const unitEnds = new Uint32Array(BATCH_KEYS + 1);

/** Where each batch of keys.ts ends, from `start` (by keys and units). */
function batchEnd(start) {
  const stop = Math.min(N, start + BATCH_KEYS);
  let units = 0;
  let end = start;
  while (end < stop && (end === start || units + keys[end].length <= BATCH_UNITS)) units += keys[end++].length;
  return end;
}
const batchEnds = [];
for (let start = 0; start < N; start = batchEnds[batchEnds.length - 1]) batchEnds.push(batchEnd(start));

let hits = 0;
let sink = 0;
/** The parts of one batch of strings, as scanBatch and encodeBatch do them. */
function strings(join, encode) {
  let start = 0;
  for (const end of batchEnds) {
    let joined = '';
    let units = 0;
    unitEnds[0] = 0;
    for (let i = start; i < end; i++) {
      const key = keys[i];
      if (typeof key !== 'string') throw new Error('batch-parts: a key that is not a string');
      units += key.length;
      if (join) joined += key;
      unitEnds[i + 1 - start] = units;
    }
    sink += encode ? encoder.encodeInto(joined, scratch).written : joined.length + units;
    start = end;
  }
}

const parts = {
  'loop of has()': () => {
    for (let i = 0; i < N; i++) hits += filter.has(keys[i]) ? 1 : 0;
  },
  'hasMany(strings) → boolean[]': () => {
    const answers = filter.hasMany(keys);
    for (let i = 0; i < N; i++) hits += answers[i] ? 1 : 0;
  },
  'hasMany(strings) → Uint8Array': () => {
    const answers = filter.hasMany(keys, { as: 'Uint8Array' });
    for (let i = 0; i < N; i++) hits += answers[i];
  },
  'hasMany(KeyBatch) → Uint8Array': () => {
    const answers = filter.hasMany(batch, { as: 'Uint8Array' });
    for (let i = 0; i < N; i++) hits += answers[i];
  },
  scan: () => strings(false, false),
  'scan + join': () => strings(true, false),
  'scan + join + encodeInto': () => strings(true, true),
  'new Array(n)': () => {
    sink += new Array(N).length;
  },
  'new Array(n) + fill': () => {
    const answers = new Array(N);
    for (let i = 0; i < N; i++) answers[i] = answerBytes[i] !== 0;
    sink += answers.length;
  },
  'read boolean[]': () => {
    for (let i = 0; i < N; i++) sink += answerBooleans[i] ? 1 : 0;
  },
  'read Uint8Array': () => {
    for (let i = 0; i < N; i++) sink += answerBytes[i];
  },
};
const ROUTES = 4; // the first four count hits: every key was added

const names = Object.keys(parts);
const times = Object.fromEntries(names.map((n) => [n, []]));
const faults = Object.fromEntries(names.map((n) => [n, []]));
const loads = [loadavg()[0]];
for (let round = -1; round < ROUNDS; round++) {
  const shift = ((round % names.length) + names.length) % names.length;
  for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
    collect();
    const faultsBefore = process.resourceUsage().minorPageFault;
    const start = cpu();
    parts[name]();
    const ns = (cpu() - start) / N;
    if (round < 0) continue;
    times[name].push(ns);
    faults[name].push(process.resourceUsage().minorPageFault - faultsBefore);
  }
}
loads.push(loadavg()[0]);
if (hits !== N * ROUTES * (ROUNDS + 1)) {
  console.error(`batch-parts: ${filter.type}: a stored key was not found (${hits} of ${N * ROUTES * (ROUNDS + 1)})`);
  process.exit(1);
}
filter.free();

const loop = times['loop of has()'];
const row = (name) => ({
  ns: median(times[name]),
  min: Math.min(...times[name]),
  ratio: median(times[name].map((t, i) => t / loop[i])),
  faults: median(faults[name]),
});
const rows = Object.fromEntries(names.map((n) => [n, row(n)]));
const shape = `${BYTES} B ${NON_ASCII ? 'non-ASCII' : 'ASCII'} ${SLICED ? 'sliced' : 'built'}`;
console.log(`# hasMany(strings), part by part (${shape}, ${filter.type}, N = ${N}, ${ROUNDS} rounds, CPU time, medians)\n`);
console.log('| part | ns/key | fastest run | ÷ loop | page faults a run |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, r] of Object.entries(rows)) console.log(`| ${name} | ${r.ns.toFixed(1)} | ${r.min.toFixed(1)} | ${r.ratio.toFixed(2)}× | ${r.faults} |`);

// The sums from each part's fastest run: on a shared machine noise only adds time
// (other processes' use of the caches and memory, background work of the collector's
// threads landing in a run), and the fastest runs of the parts add up to the fastest
// run of the route within about a nanosecond a key.
const fastest = (name) => rows[name].min;
const wasm = fastest('hasMany(KeyBatch) → Uint8Array');
const encode = fastest('scan + join + encodeInto');
const made = fastest('new Array(n)');
const filled = fastest('new Array(n) + fill') - made;
const read = fastest('read boolean[]') - fastest('read Uint8Array');
const madeFaults = rows['new Array(n)'].faults;
const perFault = madeFaults > 0 ? (made * N) / madeFaults / 1000 : NaN;
const loopNs = fastest('loop of has()');
const sum = wasm + encode + made + filled + read;
console.log('\nBy fastest runs, a key:');
console.log(`- the core's hashing and probing, with the batch copied in and its bytes read (the KeyBatch route): ${wasm.toFixed(1)} ns`);
console.log(`- strings to bytes: ${encode.toFixed(1)} ns (the scan ${fastest('scan').toFixed(1)}, the join ${(fastest('scan + join') - fastest('scan')).toFixed(1)}, encodeInto ${(encode - fastest('scan + join')).toFixed(1)})`);
console.log(`- the boolean[]: ${(made + filled + read).toFixed(1)} ns (made ${made.toFixed(1)}${Number.isNaN(perFault) ? '' : `: ${madeFaults} page faults at ${perFault.toFixed(2)} µs`}, filled ${filled.toFixed(1)}, read ${read.toFixed(1)} more than bytes)`);
console.log(`- their sum ${sum.toFixed(1)} ns, ${(sum / loopNs).toFixed(2)}× the loop; measured: hasMany → boolean[] ${fastest('hasMany(strings) → boolean[]').toFixed(1)} ns, → Uint8Array ${fastest('hasMany(strings) → Uint8Array').toFixed(1)}, the loop ${loopNs.toFixed(1)}`);
console.log(`\nLoad average (1 min): ${loads.map((l) => l.toFixed(2)).join(', ')}. Every run: bench/results/batch-parts${QUICK ? '-quick' : ''}.json.`);

mkdirSync(path.join(benchDir, 'results'), { recursive: true });
writeFileSync(
  path.join(benchDir, 'results', QUICK ? 'batch-parts-quick.json' : 'batch-parts.json'),
  // sink: what the parts computed, written out so no compiler can drop their work.
  JSON.stringify({ sink, N, ROUNDS, BYTES, NON_ASCII, SLICED, type: filter.type, loads, times, faults, rows }, null, 1),
);

#!/usr/bin/env node
// Import → first has(): the time a fresh Node process takes from importing the
// package to its first answer, and where it goes (issue "Batches that pay off":
// target ≤ 15 ms, median of 11 fresh processes), beside npm `bloomfilter`.
//
//   node bench/startup.mjs [--runs=11] [--quick]
//
// Each run is a new `node` process that times, with performance.now():
//   import   – `await import('cuckoo-bloom-wasm')` as Node resolves it (through the package's
//              exports map, read here; a `require` row follows)
//   init     – `await init()` (read + compile core.wasm, instantiate, embind registration)
//   first    – creating a 1,000-key BloomFilter, one add() and one has()
// and, as the peer, the same import + new BloomFilter + add + test of `bloomfilter`.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
for (const a of argv) {
  if (!/^--(quick|runs=\d+)$/.test(a)) {
    console.error(`startup: unknown argument ${a}\nusage: node bench/startup.mjs [--runs=N] [--quick]`);
    process.exit(2);
  }
}
const runsArg = argv.find((a) => a.startsWith('--runs='));
const RUNS = runsArg ? Number(runsArg.slice(7)) : argv.includes('--quick') ? 3 : 11;

// The files Node picks for `import` and `require` of the package (a self-reference from
// inside it resolves through its own exports map).
const importEntry = import.meta.resolve('cuckoo-bloom-wasm');
const requireEntry = createRequire(import.meta.url).resolve('cuckoo-bloom-wasm');

const ours = `
  const t0 = performance.now();
  const lib = await import(${JSON.stringify(importEntry)});
  const t1 = performance.now();
  await lib.init();
  const t2 = performance.now();
  const filter = new lib.BloomFilter({ capacity: 1000 });
  filter.add('https://example.com/');
  if (!filter.has('https://example.com/')) throw new Error('false negative');
  const t3 = performance.now();
  console.log(JSON.stringify({ import: t1 - t0, init: t2 - t1, first: t3 - t2, total: t3 - t0 }));`;
// The same through require() (CommonJS consumers): one total.
const oursRequired = `
  const t0 = performance.now();
  const lib = require(${JSON.stringify(requireEntry)});
  lib.init().then(() => {
    const filter = new lib.BloomFilter({ capacity: 1000 });
    filter.add('https://example.com/');
    if (!filter.has('https://example.com/')) throw new Error('false negative');
    console.log(JSON.stringify({ total: performance.now() - t0 }));
  });`;
const peer = `
  const t0 = performance.now();
  const { BloomFilter } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'node_modules', 'bloomfilter', 'bloomfilter.js')).href)});
  const filter = new BloomFilter(9586, 7);
  filter.add('https://example.com/');
  if (!filter.test('https://example.com/')) throw new Error('false negative');
  console.log(JSON.stringify({ total: performance.now() - t0 }));`;

const run = (script, type = 'module') =>
  JSON.parse(execFileSync(process.execPath, [`--input-type=${type}`, '-e', script], { encoding: 'utf8' }).trim());
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

run(ours); // warm the file cache
const samples = [];
const peerSamples = [];
const requireSamples = [];
for (let i = 0; i < RUNS; i++) {
  samples.push(run(ours));
  requireSamples.push(run(oursRequired, 'commonjs').total);
  peerSamples.push(run(peer).total);
}
const column = (name) => median(samples.map((s) => s[name]));
console.log(`# Import → first has() in a fresh Node ${process.version} process (median of ${RUNS})\n`);
console.log('| stage | ms |');
console.log('| --- | ---: |');
for (const name of ['import', 'init', 'first', 'total']) console.log(`| ${name} | ${column(name).toFixed(1)} |`);
console.log(`| total through require() | ${median(requireSamples).toFixed(1)} |`);
console.log(`| npm bloomfilter: import → first test() | ${median(peerSamples).toFixed(1)} |`);
console.log(`\nTarget: total ≤ 15 ms. Ratio to bloomfilter: ${(column('total') / median(peerSamples)).toFixed(1)}×.`);

#!/usr/bin/env node
// The expandable filter from JS, beside static filters sized for its final count
// (issue #30's Done means, the JS half; bench/expandable_bench.cpp is the C++ half).
//
//   node .ci/build-package.mjs && node --expose-gc bench/expandable.mjs [--n=1000000] [--rounds=7] [--clock=cpu|wall] [--dist=DIR]
//
// --dist: the package build to load (default dist/): a copy of dist/ with another build's
// core.mjs + core.wasm compares two versions of the C++ under the same JS.
//
// At N keys and ε = 1% and 0.1%: an ExpandableFilter grown from 100 keys with the
// hint (expectedCapacity = N) beside a BloomFilter and a CuckooFilter created for N.
// Reported: bits/key at the end and the worst point just after a doubling (past
// 10,000 keys, where the 128 padding slots no longer dominate), and ns per key of
// has() on the N present and N absent keys, through the package as users call it:
//   has()       one string at a time (UTF-8 encoding and the call into wasm included)
//   KeyBatch    hasMany(batch, { as: 'Uint8Array' }) over keys encoded beforehand:
//               mostly the tables' own time
// Timing: process CPU time by default (the machine is shared: wall time would count
// other processes' turns); the three filters run in rounds with a rotating order
// (a burst of load hits all alike), and each ratio is the median of per-round ratios.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchClock, median } from './clock.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
for (const a of argv) {
  if (!/^--(n=[\d_]+|rounds=\d+|clock=(cpu|wall)|dist=.+)$/.test(a)) {
    console.error(`expandable: unknown argument ${a}\nusage: node bench/expandable.mjs [--n=N] [--rounds=R] [--clock=cpu|wall] [--dist=DIR]`);
    process.exit(2);
  }
}
const option = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const N = Number((option('n') ?? '1000000').replaceAll('_', ''));
const ROUNDS = Number(option('rounds') ?? 7);
const CLOCK = option('clock') ?? 'cpu';
const START = 100;

const DIST = path.resolve(option('dist') ?? path.join(root, 'dist'));
const lib = await import(pathToFileURL(path.join(DIST, 'index.js')).href);
await lib.init();
const { BloomFilter, CuckooFilter, ExpandableFilter, KeyBatch } = lib;
const gc = globalThis.gc ?? (() => {});
/** Nanoseconds on the chosen clock. */
const now = benchClock(CLOCK);
const fail = (message) => {
  console.error(`expandable: ${message}`);
  process.exit(1);
};

// The keys of the C++ bench: N present URLs and N absent ones.
const present = Array.from({ length: N }, (_, i) => `https://present.example/${i}`);
const absent = Array.from({ length: N }, (_, i) => `http://absent.test/${i}`);
const presentBatch = KeyBatch.from(present);
const absentBatch = KeyBatch.from(absent);

/** ns/key of each probe of each filter: rounds with a rotating order; medians and per-round ratios. */
function timeProbes(filters) {
  const names = Object.keys(filters);
  const probes = {
    'has present': (f) => {
      let hits = 0;
      for (const key of present) if (f.has(key)) hits++;
      return hits;
    },
    'has absent': (f) => {
      let hits = 0;
      for (const key of absent) if (f.has(key)) hits++;
      return hits;
    },
    'KeyBatch present': (f) => f.hasMany(presentBatch, { as: 'Uint8Array' }).reduce((a, b) => a + b, 0),
    'KeyBatch absent': (f) => f.hasMany(absentBatch, { as: 'Uint8Array' }).reduce((a, b) => a + b, 0),
  };
  const times = {};
  const hits = {};
  for (const probe of Object.keys(probes)) for (const name of names) times[`${name}/${probe}`] = [];
  for (let round = -1; round < ROUNDS; round++) {
    const shift = ((round % names.length) + names.length) % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
      for (const [probe, run] of Object.entries(probes)) {
        gc();
        const start = now();
        const found = run(filters[name]);
        const ns = (now() - start) / N;
        if (probe.endsWith('present') && found !== N) fail(`${name}: ${found} of ${N} present keys found (${probe})`);
        hits[`${name}/${probe}`] = found;
        if (round >= 0) times[`${name}/${probe}`].push(ns);
      }
    }
  }
  return { probes: Object.keys(probes), times, hits };
}

console.log(`${DIST}: N = ${N.toLocaleString('en-US')}, ${ROUNDS} rounds, ${CLOCK} clock; expandable grown from ${START} with expectedCapacity = N`);
for (const eps of [0.01, 0.001]) {
  const grown = new ExpandableFilter({ initialCapacity: START, expectedCapacity: N, falsePositiveRate: eps });
  let bytes = grown.byteLength;
  let worst = 0;
  for (let i = 0; i < N; i++) {
    grown.add(present[i]);
    if (grown.byteLength !== bytes) {
      bytes = grown.byteLength;
      if (i + 1 >= 10_000) worst = Math.max(worst, (bytes * 8) / (i + 1));
    }
  }
  const bloom = new BloomFilter({ capacity: N, falsePositiveRate: eps });
  const cuckoo = new CuckooFilter({ capacity: N, falsePositiveRate: eps });
  bloom.addMany(presentBatch);
  cuckoo.addMany(presentBatch);
  // The same growth without the hint (issue #45): its rate and size at N.
  const unhinted = new ExpandableFilter({ initialCapacity: START, falsePositiveRate: eps });
  unhinted.addMany(presentBatch);
  const unhintedRate = unhinted.hasMany(absentBatch, { as: 'Uint8Array' }).reduce((a, b) => a + b, 0) / N;
  const unhintedBits = (unhinted.byteLength * 8) / N;
  unhinted.free();
  const filters = { expandable: grown, bloom, cuckoo };
  const { probes, times, hits } = timeProbes(filters);
  const bitsPerKey = (f) => (f.byteLength * 8) / N;
  console.log(`\nε = ${eps * 100}%`);
  console.log('| filter | bits/key | ' + probes.map((p) => `${p} ns`).join(' | ') + ' | measured rate |');
  console.log('| --- | --- | ' + probes.map(() => '---').join(' | ') + ' | --- |');
  for (const name of Object.keys(filters)) {
    const cells = probes.map((p) => median(times[`${name}/${p}`]).toFixed(1));
    console.log(`| ${name} | ${bitsPerKey(filters[name]).toFixed(2)} | ${cells.join(' | ')} | ${(hits[`${name}/has absent`] / N).toFixed(5)} |`);
  }
  const ratio = (a, b, p) => median(times[`${a}/${p}`].map((t, i) => t / times[`${b}/${p}`][i]));
  const e = bitsPerKey(grown);
  const b = bitsPerKey(bloom);
  console.log(
    `expandable bits/key: ${(e / b).toFixed(2)}x Bloom's at the end; worst just after a doubling ${worst.toFixed(2)} (${(worst / b).toFixed(2)}x)`,
  );
  console.log(
    `without the hint: ${unhintedBits.toFixed(2)} bits/key (${(unhintedBits / b).toFixed(2)}x Bloom's), measured rate ${unhintedRate.toFixed(5)} (${(unhintedRate / eps).toFixed(2)}x the target)`,
  );
  for (const p of probes) {
    console.log(`expandable/cuckoo ${p}: ${ratio('expandable', 'cuckoo', p).toFixed(2)}x; expandable/Bloom: ${ratio('expandable', 'bloom', p).toFixed(2)}x`);
  }
  for (const f of Object.values(filters)) f.free();
}

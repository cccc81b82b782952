#!/usr/bin/env node
// has(string) from JS on a Parquet split-block Bloom filter beside the blocked Bloom filter
// (issue #46's Done means: <= 1.2x its time), side by side in one run.
//
//   node .ci/build-package.mjs && node --expose-gc bench/parquet.mjs [--n=200000] [--rounds=9] [--clock=cpu|wall]
//
// N distinct strings ("u-<i>", as a user-id column) at 1%: a BlockedBloomFilter (main entry),
// a SplitBlockBloomFilter (the registry type) and a ParquetBloomFilter (the parquet entry's
// per-column-chunk filter over it, as readParquetBloomFilters returns) hold them; has() is
// timed on the N present and N absent strings, one call each, through the package as users
// call it (UTF-8 encoding and the call into wasm included). The three run in rounds with a
// rotating order (a burst of load hits all alike); each ratio is the median of per-round ratios.
// Timing: process CPU time by default (the machine is shared); the load average is printed.
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchClock, collect, median } from './clock.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
for (const a of argv) {
  if (!/^--(n=[\d_]+|rounds=\d+|clock=(cpu|wall))$/.test(a)) {
    console.error(`parquet: unknown argument ${a}\nusage: node --expose-gc bench/parquet.mjs [--n=N] [--rounds=R] [--clock=cpu|wall]`);
    process.exit(2);
  }
}
const option = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const N = Number((option('n') ?? '200000').replaceAll('_', ''));
const ROUNDS = Number(option('rounds') ?? 9);
const CLOCK = option('clock') ?? 'cpu';
const now = benchClock(CLOCK);

// index.cjs and parquet.cjs: the Node entries, one wasm instance (parquet.cjs requires index.cjs).
const require = createRequire(import.meta.url);
const lib = require(path.join(root, 'dist/index.cjs'));
const parquet = require(path.join(root, 'dist/parquet.cjs'));
await lib.init();

const present = Array.from({ length: N }, (_, i) => `u-${i}`);
const absent = Array.from({ length: N }, (_, i) => `absent-${i}`);
const blocked = new lib.BlockedBloomFilter({ capacity: N, falsePositiveRate: 0.01 });
const splitBlock = new lib.SplitBlockBloomFilter({ capacity: N, falsePositiveRate: 0.01 });
const column = parquet.ParquetBloomFilter.empty(splitBlock.byteLength, 'BYTE_ARRAY');
for (const key of present) {
  blocked.add(key);
  splitBlock.add(key);
  column.add(key);
}
const filters = { 'blocked-bloom': blocked, 'split-block-bloom': splitBlock, 'parquet column filter': column };

/** ns per has() over `keys`, and how many said true (so the loop cannot be dropped). */
function timeHas(filter, keys) {
  collect();
  let hits = 0;
  const start = now();
  for (let i = 0; i < keys.length; i++) hits += filter.has(keys[i]) ? 1 : 0;
  return { ns: (now() - start) / keys.length, hits };
}

const names = Object.keys(filters);
const times = Object.fromEntries(names.flatMap((name) => ['present', 'absent'].map((set) => [`${name} ${set}`, []])));
for (let round = 0; round < ROUNDS + 1; round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length];
    for (const [set, keys] of [['present', present], ['absent', absent]]) {
      const { ns, hits } = timeHas(filters[name], keys);
      if (set === 'present' && hits !== N) throw new Error(`${name}: a false negative (${hits} of ${N})`);
      if (round > 0) times[`${name} ${set}`].push(ns); // round 0 warms up
    }
  }
}

const load = loadavg().map((value) => value.toFixed(2)).join(' ');
console.log(`parquet bench: N=${N}, ${ROUNDS} rounds, ${CLOCK} clock, load average ${load} (${process.version})`);
console.log(`bytes: blocked-bloom ${blocked.byteLength}, split-block-bloom ${splitBlock.byteLength}`);
for (const set of ['present', 'absent']) {
  const base = times[`blocked-bloom ${set}`];
  for (const name of names) {
    const own = times[`${name} ${set}`];
    const ratio = median(own.map((ns, r) => ns / base[r]));
    console.log(`has(string) ${set.padEnd(7)} ${name.padEnd(22)} ${median(own).toFixed(1).padStart(7)} ns   ${ratio.toFixed(2)}x blocked-bloom`);
  }
}

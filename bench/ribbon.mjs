#!/usr/bin/env node
// The Ribbon filter beside binary fuse (4-wise, as blocklists ship it), cuckoo and
// Bloom, in one run (issue #45's Done means, the Ribbon part).
//
//   node .ci/build-package.mjs && node --expose-gc bench/ribbon.mjs [--quick] [--n=1000000] [--rounds=3] [--clock=cpu|wall] [--dist=DIR]
//   (npm run bench:ribbon)
//
// At each rate (1%, 0.1%, and 3.3e-5, the per-lookup rate of the phishing blocklist
// built at 0.0007 a URL), N keys in each filter (--quick: 100k, 1 round):
//   bits/key     serialized bytes x 8 / N, and its ratio to the bound log2(1/rate)
//   FPR          measured on N held-out keys (never added), and its ratio to the target
//   build        ms to build from the N strings (static types: from(); the others:
//                create + addMany), the median of the rounds; ratio to binary fuse
//   has          ns per key of has() over N present + N absent strings, one call per
//                key as users make it; the median; ratio to binary fuse
// Timing: process CPU time by default (the machine may be shared); the filters run in
// rounds with a rotating order, and each ratio is the median of per-round ratios.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchClock, collect, median } from './clock.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const USAGE = 'usage: node --expose-gc bench/ribbon.mjs [--quick] [--n=N] [--rounds=R] [--clock=cpu|wall] [--dist=DIR]';
for (const a of argv) {
  if (!/^--(quick|n=[\d_]+|rounds=\d+|clock=(cpu|wall)|dist=.+)$/.test(a)) {
    console.error(`ribbon: unknown argument ${a}\n${USAGE}`);
    process.exit(2);
  }
}
const option = (name) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const QUICK = argv.includes('--quick');
const N = Number((option('n') ?? (QUICK ? '100000' : '1000000')).replaceAll('_', ''));
const ROUNDS = Number(option('rounds') ?? (QUICK ? 1 : 3));
const now = benchClock(option('clock') ?? 'cpu');
const DIST = path.resolve(option('dist') ?? path.join(root, 'dist'));
const lib = await import(pathToFileURL(path.join(DIST, 'index.js')).href);
await lib.init();
const { filterType } = lib;

const RATES = [0.01, 0.001, 3.3e-5];
const present = Array.from({ length: N }, (_, i) => `https://present.example/${i}`);
const absent = Array.from({ length: N }, (_, i) => `http://absent.test/${i}`);

// Each contender through the registry: static types are built from the keys, the others created and filled.
const CONTENDERS = [
  { name: 'binary-fuse', options: { arity: 4 } },
  { name: 'ribbon', options: {} },
  { name: 'cuckoo', options: {} },
  { name: 'bloom', options: {} },
];
function build(contender, rate) {
  const entry = filterType(contender.name);
  if (entry.isStatic) return entry.from(present, { falsePositiveRate: rate, ...contender.options });
  const filter = entry.create({ capacity: N, falsePositiveRate: rate, ...contender.options });
  filter.addMany(present);
  return filter;
}
function hasLoop(filter) {
  let hits = 0;
  for (const key of present) if (filter.has(key)) hits++;
  for (const key of absent) if (filter.has(key)) hits++;
  return hits;
}

const rows = [];
for (const rate of RATES) {
  const bound = Math.log2(1 / rate);
  const times = Object.fromEntries(CONTENDERS.map((c) => [c.name, { build: [], has: [] }]));
  const facts = {};
  // Round -1 warms every contender's code up (the first to run paid the JIT's
  // time in it) and measures sizes and rates; its times are not kept.
  for (let round = -1; round < ROUNDS; round++) {
    const shift = (round + CONTENDERS.length) % CONTENDERS.length;
    for (const contender of [...CONTENDERS.slice(shift), ...CONTENDERS.slice(0, shift)]) {
      collect();
      let start = now();
      const filter = build(contender, rate);
      const buildMs = (now() - start) / 1e6;
      collect();
      start = now();
      const hits = hasLoop(filter);
      const hasNs = (now() - start) / (2 * N);
      if (round >= 0) {
        times[contender.name].build.push(buildMs);
        times[contender.name].has.push(hasNs);
      } else {
        const falsePositives = filter.hasMany(absent).filter(Boolean).length;
        const missing = N - filter.hasMany(present).filter(Boolean).length;
        if (missing !== 0) throw new Error(`${contender.name} at ${rate}: ${missing} false negatives`);
        facts[contender.name] = { bitsPerKey: (filter.serialize().length * 8) / N, fpr: falsePositives / N, hits };
      }
      filter.free();
    }
  }
  const ratioToFuse = (name, what) =>
    median(times[name][what].map((value, round) => value / times['binary-fuse'][what][round]));
  for (const { name } of CONTENDERS) {
    const { bitsPerKey, fpr } = facts[name];
    rows.push({
      rate,
      type: name,
      'bits/key': bitsPerKey.toFixed(2),
      'x bound': (bitsPerKey / bound).toFixed(3),
      FPR: fpr.toExponential(2),
      'FPR/target': (fpr / rate).toFixed(2),
      'build ms': median(times[name].build).toFixed(1),
      'build/fuse': ratioToFuse(name, 'build').toFixed(2),
      'has ns': median(times[name].has).toFixed(1),
      'has/fuse': ratioToFuse(name, 'has').toFixed(2),
    });
  }
}
console.log(`ribbon: ${N.toLocaleString('en-US')} keys, ${N.toLocaleString('en-US')} held-out keys, ${ROUNDS} round(s), node ${process.version}`);
console.table(rows);

#!/usr/bin/env node
// Benchmark driver: this library against its peers, in one process and one run.
//
//   node bench/run.mjs            full run (N = 100k and 1M, ε = 1% and 0.1%, 5 repetitions):
//                                 prints the tables and writes docs/BENCHMARKS.md
//   node bench/run.mjs --quick    N = 2,000, 1 repetition, every row: checks the harness and
//                                 exits non-zero if any filter of this library has a false
//                                 negative (CI). Writes only bench/results/quick.{md,json}.
//
// Options: --reps=R  --n=N[,N]  --eps=E[,E]  --out=PATH  --no-core (skip the C++ loops)
// BENCH_VERBOSE=1 also prints how long each row took.
//
// Method (docs/BENCHMARKS.md says it at length): every implementation gets the
// same deterministic keys; each repetition builds a fresh structure (timed
// add), queries every added key (timed has; misses = false negatives) and as
// many absent keys (timed; hits = false positives). Fast implementations run
// round-robin, one repetition of each in turn, so a burst of load elsewhere on
// the machine hits all of them alike. Slow peers are built once and timed on
// samples (said in the notes column).

import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');

// ---- Re-run under --expose-gc (memory is measured between full collections). ----
if (typeof globalThis.gc !== 'function') {
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--max-old-space-size=16384', fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}

const { makeKeys, encodeKeys, writeKeyFile, meanLength, MIN_KEY_BYTES, MAX_KEY_BYTES } = await import('./keys.mjs');
const { oursAdapters, ourFilterTypes, peerAdapters, optimalBloom } = await import('./peers.mjs');

// ---- Options ----
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name) => {
  const hit = argv.find((a) => a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : hit.slice(name.length + 3);
};
for (const a of argv) {
  if (!/^--(quick|no-core|reps=\d+|n=[\d,_]+|eps=[\d.,e-]+|out=.+)$/.test(a)) {
    console.error(`bench: unknown argument ${a}\nusage: node bench/run.mjs [--quick] [--reps=R] [--n=N,N] [--eps=E,E] [--out=PATH] [--no-core]`);
    process.exit(2);
  }
}
const QUICK = flag('quick');
const NS = (option('n') ?? (QUICK ? '2000' : '100000,1000000')).split(',').map((s) => Number(s.replaceAll('_', '')));
const EPSS = (option('eps') ?? '0.01,0.001').split(',').map(Number);
const REPS = Number(option('reps') ?? (QUICK ? 1 : 5));
const WARMUP = QUICK ? 0 : 1;
const MIN_ABSENT = QUICK ? 0 : 100_000; // absent keys per configuration: max(N, this)
const SLOW = {
  segments: QUICK ? 1 : 5, // a slow peer's single build is timed in this many equal segments
  hasSample: QUICK ? Infinity : 20_000, // keys per timed has repetition
  xorHasSample: QUICK ? Infinity : 2_000,
  fnSample: QUICK ? Infinity : 100_000, // added keys checked for false negatives
  xorFnSample: QUICK ? Infinity : 20_000,
  fprAbsent: QUICK ? Infinity : 100_000, // absent keys for the false-positive rate
};
const RUN_CORE = !flag('no-core');
const OUT = option('out') ?? (QUICK ? path.join(benchDir, 'results', 'quick.md') : path.join(root, 'docs', 'BENCHMARKS.md'));
const resultsDir = path.join(benchDir, 'results');
const buildDir = path.join(benchDir, 'build');
mkdirSync(resultsDir, { recursive: true });
mkdirSync(buildDir, { recursive: true });

const log = (...a) => console.log(...a);
// The 1-minute load average, sampled at the start, at every repetition of the
// fast rows and at the end: the report says when other processes shared the CPU.
const loadSamples = [];
const sampleLoad = () => {
  const load = os.loadavg()[0];
  loadSamples.push(load);
  return load;
};
const nowNs = () => process.hrtime.bigint();
const elapsed = (t0, t1) => Number(t1 - t0);
function heapBytes() {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
function fullGc() {
  globalThis.gc();
}

// ---- The machine ----
function toolVersion(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } })
      .split('\n')[0]
      .trim();
  } catch {
    return null;
  }
}
const cpus = os.cpus();
const machine = {
  cpu: cpus[0]?.model ?? 'unknown',
  cores: cpus.length,
  node: process.version,
  v8: process.versions.v8,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
  date: new Date().toISOString(),
  loadStart: os.loadavg().map((x) => +x.toFixed(2)),
  gxx: toolVersion('g++', ['--version']),
  emxx: toolVersion('em++', ['--version']),
};
sampleLoad();

// ---- The library ----
const distIndex = path.join(root, 'dist', 'index.js');
if (!existsSync(distIndex)) {
  console.error('bench: dist/index.js is missing: build the package first (npm run build:wasm && npm run build)');
  process.exit(2);
}
const lib = await import(pathToFileURL(distIndex).href);
await lib.init();

// ---- The filter types: this library's registry (FILTER_TYPES), in its order ----
// Every row, table and target is keyed by the registry's name ('bloom',
// 'blocked-bloom', ...); nothing below lists the types. The C++ core loop runs
// the C++ registry's types (filter_types.h) under the same names; a type only
// one registry has yet is still shown, after the others (see typeNames()).
const OUR_TYPES = ourFilterTypes(lib);
const structureOf = (type) => OUR_TYPES.find((t) => t.name === type)?.structure ?? type;

// ---- Keys ----
const maxN = Math.max(...NS);
const absentTotal = Math.max(maxN, MIN_ABSENT);
log(`bench: ${QUICK ? 'QUICK pass' : 'full run'}: N = ${NS.join(', ')}; ε = ${EPSS.join(', ')}; ${REPS} repetition(s)${WARMUP ? ' after a warm-up' : ''}`);
log(`bench: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.date}, load ${machine.loadStart.join(' ')}`);
let t = Date.now();
const present = makeKeys(maxN, 0x5eed0001);
const absent = makeKeys(absentTotal, 0x5eed0002, present.seen);
present.seen = null;
absent.seen = null;
const presentBytes = encodeKeys(present.strings);
const absentBytes = encodeKeys(absent.strings);
const keyStats = { mean: meanLength(present.strings), min: MIN_KEY_BYTES, max: MAX_KEY_BYTES };
log(`bench: ${maxN.toLocaleString('en-US')} + ${absentTotal.toLocaleString('en-US')} keys (mean ${keyStats.mean.toFixed(1)} bytes) in ${Date.now() - t} ms; e.g. ${present.strings[0]}`);

// ---- Statistics and formatting ----
function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], count: sorted.length, values };
}
const int = (x) => Math.round(x).toLocaleString('en-US');
function num(x) {
  if (!Number.isFinite(x)) return '–';
  if (x >= 1000) return int(x);
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  return x.toFixed(2);
}
function fmtNs(s) {
  if (!s) return '–';
  if (s.count === 1) return `${num(s.median)} (1 run)`;
  return `${num(s.median)} (${num(s.min)}–${num(s.max)})`;
}
const pct = (x) => `${(100 * x).toFixed(x < 0.001 ? 4 : 3)}%`;
function ratio(a, b) {
  if (!a || !b || !(b > 0)) return '–';
  const r = a / b;
  return r >= 10 ? `${r.toFixed(0)}×` : r >= 0.1 ? `${r.toFixed(2)}×` : `${r.toFixed(4)}×`;
}
function strided(keys, n, count) {
  if (count >= n) return n === keys.length ? keys : keys.slice(0, n);
  const out = new Array(count);
  const stride = n / count;
  for (let i = 0; i < count; i++) out[i] = keys[Math.floor(i * stride)];
  return out;
}
function epsLabel(eps) {
  return `${+(eps * 100).toPrecision(3)}%`;
}

// ---- The C++ core, natively and in wasm (same source, same keys) ----
// Every source of the core, as CMakeLists.txt globs them (recursively: one folder per
// capability under cpp/src/): a new filter type's .cpp comes in by itself.
const CORE_SOURCES = readdirSync(path.join(root, 'cpp/src'), { recursive: true })
  .filter((file) => file.endsWith('.cpp'))
  .sort()
  .map((file) => `cpp/src/${file}`);
const CXXFLAGS = ['-O3', '-std=c++17', '-fno-exceptions', '-DNDEBUG'];
const EMFLAGS = ['-sSINGLE_FILE=1', '-sALLOW_MEMORY_GROWTH=1', '-sNODERAWFS=1', '-sENVIRONMENT=node', '-sEXIT_RUNTIME=1'];

function runChild(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (error) => resolve({ code: -1, stdout, stderr: stderr + String(error) }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function buildCoreLoops() {
  const include = path.join(buildDir, 'xxhash-include');
  mkdirSync(include, { recursive: true });
  copyFileSync('/usr/include/xxhash.h', path.join(include, 'xxhash.h'));
  const hash = createHash('sha256');
  for (const file of ['bench/core_loop.cpp', ...CORE_SOURCES]) hash.update(readFileSync(path.join(root, file)));
  // Every header, in every capability folder under cpp/include/cuckoo_bloom/.
  const headers = readdirSync(path.join(root, 'cpp/include/cuckoo_bloom'), { recursive: true })
    .filter((file) => file.endsWith('.h'))
    .sort();
  for (const file of headers) hash.update(readFileSync(path.join(root, 'cpp/include/cuckoo_bloom', file)));
  hash.update(readFileSync(path.join(include, 'xxhash.h')));
  hash.update(JSON.stringify([CXXFLAGS, EMFLAGS, machine.gxx, machine.emxx]));
  const stamp = hash.digest('hex').slice(0, 16);
  const common = [...CXXFLAGS, `-I${path.join(root, 'cpp/include')}`, `-I${include}`, path.join(root, 'bench/core_loop.cpp'), ...CORE_SOURCES.map((f) => path.join(root, f))];
  const targets = {
    native: { file: path.join(buildDir, `core_loop_native-${stamp}`), cmd: 'g++', args: (out) => [...common, '-o', out] },
    wasm: { file: path.join(buildDir, `core_loop_wasm-${stamp}.cjs`), cmd: 'em++', args: (out) => [...common, ...EMFLAGS, '-o', out] },
  };
  const env = { ...process.env, NODE_PATH: `/usr/share/nodejs${process.env.NODE_PATH ? `:${process.env.NODE_PATH}` : ''}` };
  // Drop the binaries of older sources or flags.
  for (const file of readdirSync(buildDir)) {
    if (/^core_loop_(native|wasm)-[0-9a-f]{16}/.test(file) && !file.includes(stamp)) rmSync(path.join(buildDir, file), { force: true });
  }
  const jobs = Object.entries(targets).map(async ([name, target]) => {
    if (existsSync(target.file)) return [name, { file: target.file }];
    const t0 = Date.now();
    const result = await runChild(target.cmd, target.args(target.file), { env, cwd: buildDir });
    if (result.code !== 0) return [name, { error: `${target.cmd} failed (${result.code}): ${result.stderr.slice(-2000)}` }];
    log(`bench: built ${path.relative(root, target.file)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return [name, { file: target.file }];
  });
  return Object.fromEntries(await Promise.all(jobs));
}

async function runCoreLoops() {
  const built = await buildCoreLoops();
  const presentFile = path.join(buildDir, 'present.keys');
  const absentFile = path.join(buildDir, 'absent.keys');
  writeKeyFile(presentFile, present.strings);
  writeKeyFile(absentFile, absent.strings);
  // Native and wasm take turns: REPS rounds, each running both binaries once
  // (one warm-up and one timed repetition per configuration), alternating which
  // goes first, so load from elsewhere on the machine falls on both alike.
  const args = [presentFile, absentFile, NS.join(','), EPSS.join(','), '1', String(WARMUP), String(MIN_ABSENT)];
  const out = {};
  const names = Object.keys(built).filter((name) => {
    if (built[name].error) out[name] = { error: built[name].error };
    return !built[name].error;
  });
  const merged = Object.fromEntries(names.map((name) => [name, new Map()]));
  const seconds = Object.fromEntries(names.map((name) => [name, 0]));
  for (let round = 0; round < REPS; round++) {
    const order = round % 2 ? [...names].reverse() : names;
    for (const name of order) {
      if (out[name]?.error) continue;
      const file = built[name].file;
      const t0 = Date.now();
      const result = name === 'native' ? await runChild(file, args) : await runChild(process.execPath, [file, ...args]);
      seconds[name] += (Date.now() - t0) / 1000;
      if (result.code !== 0) {
        out[name] = { error: `exit ${result.code}: ${result.stderr.slice(-2000)}` };
        continue;
      }
      for (const line of result.stdout.trim().split('\n')) {
        const r = JSON.parse(line);
        const key = `${r.filter}${r.grownFrom ? `@${r.grownFrom}` : ''}/${r.n}/${r.eps}`;
        const seen = merged[name].get(key);
        if (!seen) {
          merged[name].set(key, r);
          continue;
        }
        for (const field of ['addNs', 'hasNs', 'missNs', 'hashNs']) if (r[field]) seen[field].push(...r[field]);
        for (const field of ['falseNegatives', 'falsePositives', 'addFailures']) {
          if (r[field] !== undefined) seen[field] = Math.max(seen[field], r[field]);
        }
      }
    }
  }
  // The key files are ~130 MB at N = 1M: written anew by every run, so not kept.
  rmSync(presentFile, { force: true });
  rmSync(absentFile, { force: true });
  for (const name of names) {
    if (out[name]?.error) continue;
    out[name] = { lines: [...merged[name].values()] };
    log(`bench: C++ core loop (${name}): ${REPS} run(s), ${seconds[name].toFixed(1)} s`);
  }
  return out;
}

const hashOnly = {}; // "native/N" or "wasm/N" -> stats of ns per hashKey call

function coreRows(core) {
  const rows = [];
  for (const [name, result] of Object.entries(core)) {
    if (!result.lines) continue;
    for (const r of result.lines) {
      if (r.filter === 'hash-only') {
        hashOnly[`${name}/${r.n}`] = stats(r.hashNs);
        continue;
      }
      rows.push({
        id: `core-${name}-${r.filter}${r.grownFrom ? '-grown' : ''}`,
        // A growing type timed from N / 10,000 up to N: its own group, compared
        // with the static type of the same final size under Targets.
        group: r.grownFrom ? 'core-grown' : 'core',
        grownFrom: r.grownFrom,
        impl: name === 'native' ? 'C++ core, native (g++ -O3)' : 'C++ core in wasm (em++ -O3, Node)',
        coreKind: name,
        structure: structureOf(r.filter),
        type: r.filter, // the C++ registry's name, the same as the TypeScript registry's
        mode: 'pre-encoded bytes, C++ loop',
        n: r.n,
        eps: r.eps,
        add: stats(r.addNs),
        has: stats(r.hasNs),
        miss: stats(r.missNs),
        memBits: (r.byteLength * 8) / r.n,
        memMethod: 'byteLength()',
        serBits: (r.serializedBytes * 8) / r.n,
        fp: r.falsePositives,
        absent: r.absent,
        fn: r.falseNegatives,
        fnChecked: r.n,
        addFailures: r.addFailures,
        notes: [],
      });
    }
  }
  return rows;
}

// ---- One repetition of a fast implementation ----
function fastRepetition(adapter, n, eps, keysP, keysA, absentCount, record) {
  if (record.measureHeap) fullGc();
  const heap0 = record.measureHeap ? heapBytes() : 0;
  const f = adapter.create(n, eps);
  const t0 = nowNs();
  const failed = adapter.add(f, keysP, 0, n);
  const t1 = nowNs();
  if (record.measureHeap) {
    fullGc();
    record.heapGrowth = heapBytes() - heap0;
  }
  const t2 = nowNs();
  const hits = adapter.has(f, keysP, 0, n);
  const t3 = nowNs();
  const fps = adapter.has(f, keysA, 0, absentCount);
  const t4 = nowNs();
  const result = {
    addNs: elapsed(t0, t1) / n,
    hasNs: elapsed(t2, t3) / n,
    missNs: elapsed(t3, t4) / absentCount,
    failed,
    fn: n - hits,
    fps,
  };
  if (record.measureSize) {
    result.tableBytes = adapter.tableBytes(f);
    result.serializedBytes = adapter.serializedBytes(f);
  }
  adapter.free(f);
  return result;
}

/**
 * Gets every fast implementation's code optimized before anything is timed:
 * many calls of its add and has loops on small, fresh structures. One warm-up
 * repetition alone is not enough: the loops are then only compiled on-stack
 * (OSR) and the library functions they call may still be tiering up, which
 * showed as the first repetitions of a row running up to 1.8× slower.
 */
//
// The last structure of each implementation stays alive for the whole run.
// V8 holds an object's map transitions weakly: when every instance of a class
// is dead, a full GC may drop its maps, the next instance gets new ones, and
// all code optimized for the old maps deoptimizes ("wrong map"). Without these
// survivors, each round's full GC made the next repetition of every row
// deoptimize and re-optimize. A real application keeps its filters alive.
const keepAlive = [];
function warmUpFast(adapters) {
  const n = Math.min(2000, Math.floor(present.strings.length / 2));
  for (const adapter of adapters) {
    const [keysP, keysA] = keysFor(adapter);
    for (let i = 0; i < 40; i++) {
      const f = adapter.create(2 * n, 0.01);
      adapter.add(f, keysP, 0, n);
      adapter.has(f, keysP, 0, n);
      adapter.has(f, keysA, 0, Math.min(n, keysA.length));
      if (i === 39) keepAlive.push(f);
      else adapter.free(f);
    }
  }
}

function keysFor(adapter) {
  return adapter.keyKind === 'bytes' ? [presentBytes, absentBytes] : [present.strings, absent.strings];
}

function memoryBits(adapter, tableBytes, heapGrowth, n) {
  if (tableBytes !== null && tableBytes !== undefined) return (tableBytes * 8) / n;
  let bytes = heapGrowth;
  if (adapter.keyBytes) bytes += adapter.keyBytes(present.strings, n);
  return (bytes * 8) / n;
}

function runFast(adapters, n, eps) {
  const absentCount = Math.min(absent.strings.length, Math.max(n, MIN_ABSENT));
  const acc = new Map(adapters.map((a) => [a.id, { add: [], has: [], miss: [], fn: 0, fps: 0, failed: 0 }]));
  for (let rep = -WARMUP; rep < REPS; rep++) {
    // Rotate the order every repetition: no implementation always runs right after the same one.
    const shift = ((rep % adapters.length) + adapters.length) % adapters.length;
    const order = [...adapters.slice(shift), ...adapters.slice(0, shift)];
    sampleLoad();
    // One full collection per round (a full GC costs ~0.5 s with 2M keys on the heap):
    // garbage left by one implementation's round is then not collected on another's time.
    fullGc();
    for (const adapter of order) {
      // A scavenge is cheap: clear the young generation before each implementation.
      globalThis.gc({ type: 'minor' });
      const [keysP, keysA] = keysFor(adapter);
      const a = acc.get(adapter.id);
      const record = { measureHeap: rep === 0 && !!adapter.heap, measureSize: rep === 0 };
      let r;
      const repStart = Date.now();
      try {
        r = fastRepetition(adapter, n, eps, keysP, keysA, absentCount, record);
      } catch (error) {
        a.error = String(error?.stack ?? error);
        continue;
      }
      a.ms = (a.ms ?? 0) + (Date.now() - repStart);
      if (rep < 0) continue;
      a.add.push(r.addNs);
      a.has.push(r.hasNs);
      a.miss.push(r.missNs);
      a.fn = Math.max(a.fn, r.fn);
      a.fps = Math.max(a.fps, r.fps);
      a.failed = Math.max(a.failed, r.failed);
      if (record.measureSize) {
        a.tableBytes = r.tableBytes;
        a.serializedBytes = r.serializedBytes;
        a.heapGrowth = record.heapGrowth;
      }
    }
  }
  if (process.env.BENCH_VERBOSE) {
    for (const adapter of adapters) log(`bench:     ${adapter.id}: ${acc.get(adapter.id).ms} ms`);
  }
  return adapters.map((adapter) => {
    const a = acc.get(adapter.id);
    const notes = [];
    if (a.error) notes.push(`ERROR: ${a.error.split('\n')[0]}`);
    if (a.failed) notes.push(`${int(a.failed)} adds failed (FULL)`);
    if (adapter.memoryMethod && adapter.group === 'peer') notes.push(`memory: ${adapter.memoryMethod}`);
    if (adapter.sizing) notes.push(adapter.sizing);
    if (adapter.serializedForm) notes.push(`serialized: ${adapter.serializedForm}`);
    return {
      ...rowBase(adapter, n, eps),
      add: a.add.length ? stats(a.add) : null,
      has: a.has.length ? stats(a.has) : null,
      miss: a.miss.length ? stats(a.miss) : null,
      memBits: a.add.length ? memoryBits(adapter, a.tableBytes, a.heapGrowth, n) : NaN,
      memMethod: adapter.memoryMethod,
      serBits: a.add.length ? (a.serializedBytes * 8) / n : NaN,
      fp: a.fps,
      absent: absentCount,
      fn: a.add.length ? a.fn : NaN,
      fnChecked: n,
      addFailures: a.failed,
      error: a.error,
      notes,
    };
  });
}

function rowBase(adapter, n, eps) {
  return {
    id: adapter.id,
    group: adapter.group,
    impl: adapter.impl,
    structure: adapter.structure,
    type: adapter.type,
    mode: adapter.mode,
    batch: !!adapter.batch,
    exact: !!adapter.exact,
    n,
    eps,
  };
}

// ---- A slow peer: built once, timed on samples ----
function runSlow(adapter, n, eps) {
  const keysP = present.strings;
  const notes = [];
  fullGc();
  const heap0 = heapBytes();
  let f;
  const addNs = [];
  let failed = 0;
  try {
    if (adapter.buildOnly) {
      const t0 = nowNs();
      f = adapter.create(n, eps);
      adapter.add(f, keysP, 0, n);
      addNs.push(elapsed(t0, nowNs()) / n);
      notes.push('add = one static build from all N keys (construction time per key)');
    } else {
      f = adapter.create(n, eps);
      const segment = Math.ceil(n / SLOW.segments);
      for (let start = 0; start < n; start += segment) {
        const end = Math.min(n, start + segment);
        const t0 = nowNs();
        failed += adapter.add(f, keysP, start, end);
        addNs.push(elapsed(t0, nowNs()) / (end - start));
      }
      if (SLOW.segments > 1) notes.push(`add: one build of N keys, timed in ${SLOW.segments} segments of ${int(segment)}`);
    }
  } catch (error) {
    return { ...rowBase(adapter, n, eps), error: String(error?.stack ?? error), notes: [`ERROR: ${String(error).split('\n')[0]}`] };
  }
  fullGc();
  const heapGrowth = heapBytes() - heap0;
  const tableBytes = adapter.tableBytes(f);

  const fnKeys = strided(keysP, n, adapter.type === 'xor' ? SLOW.xorFnSample : SLOW.fnSample);
  const fn = fnKeys.length - adapter.has(f, fnKeys, 0, fnKeys.length);

  const hasKeys = strided(keysP, n, adapter.type === 'xor' ? SLOW.xorHasSample : SLOW.hasSample);
  adapter.has(f, hasKeys, 0, Math.min(hasKeys.length, 1000)); // warm-up
  const hasNs = [];
  for (let rep = 0; rep < REPS; rep++) {
    const t0 = nowNs();
    adapter.has(f, hasKeys, 0, hasKeys.length);
    hasNs.push(elapsed(t0, nowNs()) / hasKeys.length);
  }
  if (hasKeys.length < n) notes.push(`has: ${int(hasKeys.length)}-key sample ×${REPS}`);

  const absentCount = Math.min(absent.strings.length, SLOW.fprAbsent);
  const t0 = nowNs();
  const fps = adapter.has(f, absent.strings, 0, absentCount);
  const missNs = [elapsed(t0, nowNs()) / absentCount];
  if (fnKeys.length < n) notes.push(`false negatives: ${int(fnKeys.length)}-key sample (every ${int(n / fnKeys.length)}th added key)`);
  if (failed) notes.push(`${int(failed)} add() calls returned false (key not stored)`);
  notes.push(`memory: ${adapter.memoryMethod}`);
  if (adapter.sizing) notes.push(adapter.sizing);
  notes.push(`serialized: ${adapter.serializedForm}`);
  const serializedBytes = adapter.serializedBytes(f);
  adapter.free(f);
  return {
    ...rowBase(adapter, n, eps),
    slow: true,
    add: stats(addNs),
    has: stats(hasNs),
    miss: stats(missNs),
    memBits: memoryBits(adapter, tableBytes, heapGrowth, n),
    memMethod: adapter.memoryMethod,
    serBits: (serializedBytes * 8) / n,
    fp: fps,
    absent: absentCount,
    fn,
    fnChecked: fnKeys.length,
    addFailures: failed,
    notes,
  };
}

// ---- Run everything ----
const started = Date.now();
const rows = [];
const loadByConfig = {};

let core = {};
if (RUN_CORE) {
  core = await runCoreLoops();
  for (const [name, result] of Object.entries(core)) {
    if (result.error) log(`bench: C++ core loop (${name}) unavailable: ${result.error.split('\n')[0]}`);
  }
  rows.push(...coreRows(core));
}

const ours = oursAdapters(lib);
const peers = await peerAdapters();
const fastAdapters = [...ours, ...peers.filter((p) => !p.slow)];
const slowAdapters = peers.filter((p) => p.slow);
const epsIndependentRows = new Map();

{
  const t0 = Date.now();
  warmUpFast(fastAdapters);
  log(`bench: JIT warm-up of the fast rows: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

for (const n of NS) {
  for (const eps of EPSS) {
    const key = `${n}/${eps}`;
    const t0 = Date.now();
    const loadBefore = sampleLoad();
    log(`bench: N = ${int(n)}, ε = ${epsLabel(eps)}: ${fastAdapters.length} fast rows × ${REPS + WARMUP} repetitions...`);
    rows.push(...runFast(fastAdapters, n, eps));
    log(`bench:   fast rows done in ${Math.round((Date.now() - t0) / 1000)} s`);
    for (const adapter of slowAdapters) {
      const cached = adapter.epsIndependent ? epsIndependentRows.get(`${adapter.id}/${n}`) : null;
      if (cached) {
        rows.push({ ...cached, eps, notes: [`the same filter as at ε = ${epsLabel(cached.eps)} (XorFilter takes no ε)`, ...cached.notes] });
        continue;
      }
      log(`bench:   ${adapter.impl} ${adapter.structure} (slow: sampled)...`);
      const slowStart = Date.now();
      const row = runSlow(adapter, n, eps);
      log(`bench:     ${((Date.now() - slowStart) / 1000).toFixed(1)} s`);
      if (adapter.epsIndependent) epsIndependentRows.set(`${adapter.id}/${n}`, row);
      rows.push(row);
    }
    loadByConfig[key] = { before: +loadBefore.toFixed(2), after: +sampleLoad().toFixed(2), seconds: Math.round((Date.now() - t0) / 1000) };
    log(`bench:   done in ${loadByConfig[key].seconds} s (1-min load ${loadByConfig[key].before} → ${loadByConfig[key].after})`);
  }
}
machine.loadEnd = os.loadavg().map((x) => +x.toFixed(2));
sampleLoad();
machine.loadMax = +Math.max(...loadSamples).toFixed(2);
// This run itself keeps about one core busy; more than half a core's worth of
// other runnable processes at some point is said in the report.
machine.loaded = machine.loadMax - 1 >= 0.5;
const totalSeconds = Math.round((Date.now() - started) / 1000);

// ---- Targets ----
const find = (n, eps, pred) => rows.find((r) => r.n === n && r.eps === eps && pred(r));
// The types of this library that have rows: the TypeScript registry's order,
// then any type only the C++ core loop ran (in the C++ registry, not yet in FILTER_TYPES).
function typeNames() {
  const names = OUR_TYPES.map((t) => t.name);
  for (const r of rows) if (r.group === 'core' && !names.includes(r.type)) names.push(r.type);
  return names;
}
// "Equal or smaller", allowing for rounding the table up to whole 64-bit words.
const bitsOk = (ours, peer) => ours.memBits <= peer.memBits + 64 / ours.n + 1e-9;
const targets = [];
for (const n of NS) {
  for (const eps of EPSS) {
    const fnv = find(n, eps, (r) => r.id === 'peer-bloomfilter');
    const bfBloom = find(n, eps, (r) => r.id === 'peer-bloom-filters-bloom');
    for (const type of typeNames()) {
      const o = find(n, eps, (r) => r.group === 'ours' && r.type === type && r.mode === 'string');
      const where = `N=${int(n)} ε=${epsLabel(eps)} ${structureOf(type)}`;
      if (o?.has && fnv?.has) {
        const r = o.has.median / fnv.has.median;
        const bits = bitsOk(o, fnv);
        targets.push({
          target: 'has(string) ≤ 0.6× bloomfilter, bits/key ≤',
          where,
          value: `${r.toFixed(2)}× (of the minima: ${(o.has.min / fnv.has.min).toFixed(2)}×); ${o.memBits.toFixed(2)} vs ${fnv.memBits.toFixed(2)} bits/key`,
          pass: r <= 0.6 && bits,
          why: r > 0.6 ? 'time' : bits ? '' : 'bits/key',
        });
      }
      // bloom-filters' structure of the same kind (its CuckooFilter for ours), else its BloomFilter.
      const peer = find(n, eps, (r) => r.id.startsWith('peer-bloom-filters-') && r.structure === structureOf(type)) ?? bfBloom;
      if (o?.has && peer?.has) {
        const r = o.has.median / peer.has.median;
        const bits = bitsOk(o, peer);
        targets.push({
          target: `has(string) ≤ 0.02× bloom-filters ${peer.structure}, bits/key ≤`,
          where,
          value: `${r.toFixed(4)}× (of the minima: ${(o.has.min / peer.has.min).toFixed(4)}×); ${o.memBits.toFixed(2)} vs ${peer.memBits.toFixed(2)} bits/key`,
          pass: r <= 0.02 && bits,
          why: r > 0.02 ? 'time' : bits ? '' : 'bits/key',
        });
      }
      if (n === 1_000_000 || QUICK) {
        const batch = find(n, eps, (r) => r.group === 'ours' && r.type === type && r.mode === 'addMany/hasMany string');
        if (batch?.has) {
          targets.push({
            target: `hasMany(string) ≤ 60 ns/key${QUICK ? ' (quick: N is small)' : ''}`,
            where,
            value: `${batch.has.median.toFixed(1)} ns/key (min ${batch.has.min.toFixed(1)})`,
            pass: batch.has.median <= 60,
            why: batch.has.median <= 60 ? '' : 'time',
          });
        }
      }
      // A growing type grown to N against the static type it chains
      // ('scalable-bloom' -> 'bloom'), in the same C++ loop.
      for (const kind of ['native', 'wasm']) {
        const grown = find(n, eps, (r) => r.group === 'core-grown' && r.coreKind === kind && r.type === type);
        const flat = find(n, eps, (r) => r.group === 'core' && r.coreKind === kind && r.type === type.replace(/^scalable-/, ''));
        if (!grown?.has || !flat?.has) continue;
        for (const op of ['add', 'has', 'miss']) {
          const r = grown[op].median / flat[op].median;
          targets.push({
            target: `grown from N/10,000: ${op === 'miss' ? 'has(absent)' : op} ≤ 2× the static filter of size N`,
            where: `${where} (${kind})`,
            value: `${r.toFixed(2)}× (${num(grown[op].median)} vs ${num(flat[op].median)} ns); ${grown.memBits.toFixed(2)} vs ${flat.memBits.toFixed(2)} bits/key`,
            pass: r <= 2,
            why: r <= 2 ? '' : 'time',
          });
        }
      }
      const native = find(n, eps, (r) => r.group === 'core' && r.coreKind === 'native' && r.type === type);
      const wasm = find(n, eps, (r) => r.group === 'core' && r.coreKind === 'wasm' && r.type === type);
      if (native?.has && wasm?.has) {
        const r = wasm.has.median / native.has.median;
        targets.push({
          target: 'has(bytes) in wasm ≤ 1.5× native',
          where,
          value: `${r.toFixed(2)}× (${num(wasm.has.median)} vs ${num(native.has.median)} ns; of the minima: ${(wasm.has.min / native.has.min).toFixed(2)}×)`,
          pass: r <= 1.5,
          why: r <= 1.5 ? '' : 'time',
        });
      }
    }
  }
}
const oursFn = rows.filter((r) => (r.group === 'ours' || r.group === 'core') && (r.fn > 0 || Number.isNaN(r.fn) || r.error));
targets.push({
  target: 'zero false negatives, every filter of this library (all key modes, JS, wasm and native)',
  where: 'all',
  value: oursFn.length ? oursFn.map((r) => `${r.impl} ${r.structure} ${r.mode} N=${r.n} ε=${r.eps}: ${r.error ? 'error' : r.fn}`).join('; ') : `0 in ${rows.filter((r) => r.group !== 'peer').length} rows`,
  pass: oursFn.length === 0,
  why: oursFn.length ? 'false negatives' : '',
});

// ---- Report ----
function fnCell(r) {
  if (r.error && r.fn === undefined) return '–';
  if (!Number.isFinite(r.fn)) return '–';
  const share = r.fn / r.fnChecked;
  return `${int(r.fn)} / ${int(r.fnChecked)}${r.fn ? ` (${pct(share)})` : ''}`;
}
function fprCell(r) {
  if (r.exact) return `${pct(r.fp / r.absent)} (exact)`;
  return r.absent ? `${pct(r.fp / r.absent)} (${int(r.fp)}/${int(r.absent)})` : '–';
}
function detailTable(n, eps) {
  const list = rows.filter((r) => r.n === n && r.eps === eps);
  const order = { ours: 0, core: 1, peer: 2 };
  list.sort((a, b) => order[a.group] - order[b.group]);
  const lines = [
    '| implementation | structure | keys / call | add ns/op | has ns/op (added keys) | has ns/op (absent keys) | bits/key in memory | bits/key serialized | FPR measured | false negatives | notes |',
    '|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const r of list) {
    lines.push(
      `| ${r.impl} | ${r.structure} | ${r.mode} | ${fmtNs(r.add)} | ${fmtNs(r.has)} | ${fmtNs(r.miss)} | ${Number.isFinite(r.memBits) ? r.memBits.toFixed(2) : '–'} | ${Number.isFinite(r.serBits) ? r.serBits.toFixed(2) : '–'} | ${fprCell(r)} | ${fnCell(r)} | ${r.notes.join('; ')} |`,
    );
  }
  return lines.join('\n');
}
function headlineTable(n, eps) {
  const peerList = [
    ['bloomfilter', (r) => r.id === 'peer-bloomfilter'],
    ['bloom-filters Bloom', (r) => r.id === 'peer-bloom-filters-bloom'],
    ['bloom-filters Cuckoo', (r) => r.id === 'peer-bloom-filters-cuckoo'],
    ['bloom-filters Xor', (r) => r.id === 'peer-bloom-filters-xor'],
    ['Set', (r) => r.id === 'peer-set'],
  ].map(([label, pred]) => [label, find(n, eps, pred)]);
  const head = `| ours (string keys) | bits/key | ${peerList.map(([l, p]) => `vs ${l}${p ? ` (${Number.isFinite(p.memBits) ? p.memBits.toFixed(1) : '–'} b/k)` : ''}`).join(' | ')} |`;
  const lines = [head, `|---|--:|${peerList.map(() => '--:').join('|')}|`];
  for (const type of typeNames()) {
    const single = find(n, eps, (r) => r.group === 'ours' && r.type === type && r.mode === 'string');
    const batch = find(n, eps, (r) => r.group === 'ours' && r.type === type && r.mode === 'addMany/hasMany string');
    if (!single) continue;
    const cells = peerList.map(([, p]) => {
      if (!p?.has || !single.has) return '–';
      return `has ${ratio(single.has.median, p.has.median)}, add ${ratio(single.add.median, p.add.median)}, hasMany ${ratio(batch?.has?.median, p.has.median)}`;
    });
    lines.push(`| ${single.structure} | ${single.memBits.toFixed(2)} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
function layersTable(n, eps) {
  const hn = hashOnly[`native/${n}`];
  const hw = hashOnly[`wasm/${n}`];
  const hashLine = hn && hw
    ? `Hashing alone (XXH3-64 of the key + the second word, the first step of every filter): ${num(hn.median)} ns native, ${num(hw.median)} ns in wasm (${ratio(hw.median, hn.median)}).\n\n`
    : '';
  const lines = [
    '| structure | C++ native has | C++ in wasm has | wasm ÷ native | JS has(Uint8Array) | JS has(string) | JS hasMany(string) per key | JS hasMany(Uint8Array) per key |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const type of typeNames()) {
    const get = (pred) => find(n, eps, (r) => r.type === type && pred(r))?.has?.median;
    const native = get((r) => r.group === 'core' && r.coreKind === 'native');
    const wasm = get((r) => r.group === 'core' && r.coreKind === 'wasm');
    const bytes = get((r) => r.group === 'ours' && r.mode === 'Uint8Array');
    const str = get((r) => r.group === 'ours' && r.mode === 'string');
    const many = get((r) => r.group === 'ours' && r.mode === 'addMany/hasMany string');
    const manyBytes = get((r) => r.group === 'ours' && r.mode === 'addMany/hasMany Uint8Array');
    if ([native, wasm, bytes, str, many, manyBytes].every((x) => x === undefined)) continue;
    lines.push(`| ${structureOf(type)} | ${num(native)} | ${num(wasm)} | ${ratio(wasm, native)} | ${num(bytes)} | ${num(str)} | ${num(many)} | ${num(manyBytes)} |`);
  }
  return hashLine + lines.join('\n');
}
function targetsSummary() {
  const byTarget = new Map();
  for (const t of targets) {
    const entry = byTarget.get(t.target) ?? { pass: 0, total: 0 };
    entry.total++;
    if (t.pass) entry.pass++;
    byTarget.set(t.target, entry);
  }
  return [...byTarget].map(([target, e]) => `- ${target}: ${e.pass} of ${e.total} PASS`).join('\n');
}
function spreadLine(n, eps) {
  // How noisy this configuration was: the (max ÷ min) of the has times of this
  // library's rows, summarized by its median and its worst.
  const spreads = rows
    .filter((r) => r.n === n && r.eps === eps && r.group !== 'peer' && r.has?.count > 1)
    .map((r) => r.has.max / r.has.min)
    .sort((a, b) => a - b);
  if (!spreads.length) return '';
  return `Spread of the repetitions (max ÷ min of has, this library's rows): median ${spreads[spreads.length >> 1].toFixed(2)}×, worst ${spreads[spreads.length - 1].toFixed(2)}×.`;
}
function targetsTable() {
  const lines = [
    'PASS/MISS is decided on the medians, as the targets are stated; the ratio of the minima (the least disturbed repetition of each side) is shown beside it as a check on noise.',
    '',
    '| target | where | measured | result |',
    '|---|---|---|---|',
  ];
  for (const t of targets) lines.push(`| ${t.target} | ${t.where} | ${t.value} | ${t.pass ? 'PASS' : `**MISS** (${t.why})`} |`);
  return lines.join('\n');
}

const machineLines = [
  `- CPU: ${machine.cpu}, ${machine.cores} cores; ${machine.memoryGiB} GiB; ${machine.os}`,
  `- Node ${machine.node} (V8 ${machine.v8}); ${machine.gxx ?? 'g++ not found'}; ${machine.emxx ?? 'em++ not found'}`,
  `- Date: ${machine.date}; 1-minute load average at start ${machine.loadStart.join(' / ')}, at end ${machine.loadEnd.join(' / ')}`,
  ...(machine.loaded
    ? [
        `- **Loaded machine**: the 1-minute load average reached ${machine.loadMax} on ${machine.cores} cores during this run (which itself accounts for about 1): other processes shared the CPU, so absolute times are inflated and noisier than on an idle machine; the ratios between implementations, measured round-robin in this one run, are the numbers to quote.`,
      ]
    : []),
  `- Run: ${QUICK ? 'QUICK (harness check only: numbers meaningless)' : 'full'}; N = ${NS.map(int).join(', ')}; ε = ${EPSS.map(epsLabel).join(', ')}; ${REPS} repetition(s)${WARMUP ? ' after 1 warm-up' : ''}; keys ${keyStats.min}–${keyStats.max} bytes (mean ${keyStats.mean.toFixed(1)}); ${totalSeconds} s in all`,
];
const body = [];
body.push('## Machine and run', '', ...machineLines, '');
body.push('## Targets', '', targetsSummary(), '', targetsTable(), '');
for (const n of NS) {
  for (const eps of EPSS) {
    const l = loadByConfig[`${n}/${eps}`];
    body.push(`## N = ${int(n)}, ε = ${epsLabel(eps)}`, '');
    body.push(`${l.seconds} s; 1-minute load average ${l.before} before, ${l.after} after. ${spreadLine(n, eps)}`, '');
    body.push(
      '### Headline: this library ÷ peer (median ns/op; below 1× = this library is faster)',
      '',
      'has and add: single-key calls with string keys on both sides. hasMany: this library\'s batch call, per key, ÷ the peer\'s single-key has (the peers have no batch call).',
      '',
      headlineTable(n, eps),
      '',
    );
    body.push('### From the C++ core to the JavaScript API (has on added keys, median ns/op)', '', layersTable(n, eps), '');
    body.push('### Every row', '', detailTable(n, eps), '');
  }
}
for (const [name, result] of Object.entries(core)) {
  if (result.error) body.push(`C++ core loop (${name}) did not run: ${result.error.split('\n')[0]}`, '');
}
const generated = body.join('\n');

console.log('\n' + generated);

const headerFile = path.join(benchDir, 'BENCHMARKS.header.md');
const header = existsSync(headerFile) ? readFileSync(headerFile, 'utf8') : '# Benchmarks\n';
const document = `${header.trimEnd()}\n\n<!-- Everything below is generated by \`node bench/run.mjs\`; edit bench/BENCHMARKS.header.md for the text above. -->\n\n${generated}`;
mkdirSync(path.dirname(OUT), { recursive: true });
writeFileSync(OUT, document);
const stamp = machine.date.replace(/[:.]/g, '-');
writeFileSync(
  path.join(resultsDir, QUICK ? 'quick.json' : `run-${stamp}.json`),
  JSON.stringify({ machine, config: { NS, EPSS, REPS, WARMUP, MIN_ABSENT, SLOW, quick: QUICK }, loadByConfig, hashOnly, rows, targets, optimalBloom: NS.flatMap((n) => EPSS.map((e) => ({ n, e, ...optimalBloom(n, e) }))) }, null, 1),
);
log(`\nbench: wrote ${path.relative(root, OUT)} (${totalSeconds} s)`);

const problems = rows.filter((r) => r.error);
if (problems.length) log(`bench: ${problems.length} row(s) failed: ${problems.map((r) => `${r.impl} ${r.structure} ${r.mode}`).join('; ')}`);
const oursErrors = problems.filter((r) => r.group !== 'peer');
const coreMissing = RUN_CORE && Object.values(core).some((c) => c.error);
if (oursFn.length || oursErrors.length || (QUICK && coreMissing)) {
  console.error(`bench: FAIL: ${oursFn.length} row(s) of this library with false negatives or errors${coreMissing ? '; a C++ core loop did not run' : ''}`);
  process.exit(1);
}
log(`bench: OK: no false negatives in any filter of this library (${rows.filter((r) => r.group !== 'peer').length} rows)`);

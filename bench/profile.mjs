#!/usr/bin/env node
// Where the time of has(string) and hasMany(string) goes: each stage of the
// JavaScript path timed alone, on the same keys as bench/run.mjs.
//
//   node bench/profile.mjs [N] [type]      (defaults: 1000000 bloom; type: any name or alias of the
//                                          package's FILTER_TYPES, e.g. bloom, blocked-bloom, cuckoo)
//
// It reaches into the built package's internals (the filter's wasm module,
// its handle address and key arena) to time the stages separately; those are
// not public API and may change. Stages run round-robin (PROFILE_REPS, default 9);
// the minimum is the least disturbed by other load on the machine.

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encodeKeys, makeKeys } from './keys.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = await import(pathToFileURL(path.join(root, 'dist', 'index.js')).href);
await lib.init();

const N = Number(process.argv[2] ?? 1_000_000);
const entry = lib.filterType(process.argv[3] ?? 'bloom'); // throws INVALID_ARGUMENT naming the known types
const TYPE = entry.name;
// One export for every type: it dispatches on the handle (through the C++ registry's AnyFilter).
const exportName = '_cbw_has';
const { strings: keys } = makeKeys(N, 0x5eed0001);
const bytes = encodeKeys(keys);
const filter = entry.create({ capacity: N, falsePositiveRate: 0.01 });
filter.addMany(keys);

const module = filter.module;
const arena = filter.arena;
const address = filter.address;
const wasmHas = module[exportName];
const encoder = new TextEncoder();
const BATCH = 16384;

// All keys copied into wasm memory once: calls with no encoding and no copy.
let total = 0;
for (const k of bytes) total += k.length;
const base = module._malloc(total);
const starts = new Uint32Array(N);
const lengths = new Uint32Array(N);
{
  let offset = 0;
  for (let i = 0; i < N; i++) {
    module.HEAPU8.set(bytes[i], base + offset);
    starts[i] = base + offset;
    lengths[i] = bytes[i].length;
    offset += bytes[i].length;
  }
}
const scratch = module._malloc(64 * 1024 * 8);

const stages = {
  'JS loop reading key.length (floor)': () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += keys[i].length;
    return s;
  },
  'encode string: TextEncoder.encodeInto into wasm memory': () => {
    const view = module.HEAPU8.subarray(scratch, scratch + 1024);
    let s = 0;
    for (let i = 0; i < N; i++) s += encoder.encodeInto(keys[i], view).written;
    return s;
  },
  'encode string: charCodeAt loop into wasm memory': () => {
    const view = module.HEAPU8.subarray(scratch, scratch + 1024);
    let s = 0;
    for (let i = 0; i < N; i++) {
      const key = keys[i];
      const length = key.length;
      for (let j = 0; j < length; j++) view[j] = key.charCodeAt(j);
      s += length;
    }
    return s;
  },
  'encode string: charCodeAt, 4 chars per Uint32Array store (ASCII)': () => {
    const words = new Uint32Array(module.HEAPU8.buffer, scratch, 256);
    let s = 0;
    for (let i = 0; i < N; i++) {
      const key = keys[i];
      const length = key.length;
      let j = 0;
      for (; j + 4 <= length; j += 4) {
        words[j >> 2] = key.charCodeAt(j) | (key.charCodeAt(j + 1) << 8) | (key.charCodeAt(j + 2) << 16) | (key.charCodeAt(j + 3) << 24);
      }
      let last = 0;
      for (let k = 0; j < length; j++, k += 8) last |= key.charCodeAt(j) << k;
      words[j >> 2] = last;
      s += length;
    }
    return s;
  },
  'encode string: Buffer#utf8Write into wasm memory (Node only)': () => {
    const buffer = Buffer.from(module.HEAPU8.buffer, scratch, 1024);
    let s = 0;
    for (let i = 0; i < N; i++) s += buffer.utf8Write(keys[i], 0);
    return s;
  },
  'encode string: Buffer#latin1Write into wasm memory (Node only; ASCII = Latin-1)': () => {
    const buffer = Buffer.from(module.HEAPU8.buffer, scratch, 1024);
    let s = 0;
    for (let i = 0; i < N; i++) s += buffer.latin1Write(keys[i], 0);
    return s;
  },
  'copy bytes: HEAPU8.set(Uint8Array)': () => {
    const view = module.HEAPU8.subarray(scratch, scratch + 1024);
    let s = 0;
    for (let i = 0; i < N; i++) {
      view.set(bytes[i]);
      s += bytes[i].length;
    }
    return s;
  },
  'wasm export call, key already in wasm memory (boundary + C++ has)': () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += wasmHas(address, starts[i], lengths[i]);
    return s;
  },
  'the same call looked up on the module object each time (module is in dictionary mode)': () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += module[exportName](address, starts[i], lengths[i]);
    return s;
  },
  'sketch: encodeInto + export held in a local (what has(string) could cost)': () => {
    const view = module.HEAPU8.subarray(scratch, scratch + 1024);
    let s = 0;
    for (let i = 0; i < N; i++) s += wasmHas(address, scratch, encoder.encodeInto(keys[i], view).written);
    return s;
  },
  'sketch: HEAPU8.set + export held in a local (what has(Uint8Array) could cost)': () => {
    const view = module.HEAPU8.subarray(scratch, scratch + 1024);
    let s = 0;
    for (let i = 0; i < N; i++) {
      view.set(bytes[i]);
      s += wasmHas(address, scratch, bytes[i].length);
    }
    return s;
  },
  'arena.encode(string) (the library, no call)': () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += arena.encode(keys[i]);
    return s;
  },
  'filter.has(Uint8Array)': () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += filter.has(bytes[i]) ? 1 : 0;
    return s;
  },
  'filter.has(string)': () => {
    let s = 0;
    for (let i = 0; i < N; i++) s += filter.has(keys[i]) ? 1 : 0;
    return s;
  },
  'hasMany stage: keys.slice(batch).join("")': () => {
    let s = 0;
    for (let start = 0; start < N; start += BATCH) s += keys.slice(start, start + BATCH).join('').length;
    return s;
  },
  'hasMany stage: join + encodeInto (whole batch)': () => {
    const view = module.HEAPU8.subarray(scratch, scratch + 64 * 1024 * 8);
    let s = 0;
    for (let start = 0; start < N; start += BATCH) s += encoder.encodeInto(keys.slice(start, start + BATCH).join(''), view).written;
    return s;
  },
  'hasMany alternative: += concatenation + one encodeInto': () => {
    const view = module.HEAPU8.subarray(scratch, scratch + 64 * 1024 * 8);
    let s = 0;
    for (let start = 0; start < N; start += BATCH) {
      let joined = '';
      const end = Math.min(N, start + BATCH);
      for (let i = start; i < end; i++) joined += keys[i];
      s += encoder.encodeInto(joined, view).written;
    }
    return s;
  },
  'hasMany alternative: one encodeInto per key into consecutive offsets': () => {
    const heap = module.HEAPU8;
    let s = 0;
    for (let start = 0; start < N; start += BATCH) {
      let offset = 0;
      const end = Math.min(N, start + BATCH);
      for (let i = start; i < end; i++) offset += encoder.encodeInto(keys[i], heap.subarray(scratch + offset, scratch + offset + keys[i].length * 3)).written;
      s += offset;
    }
    return s;
  },
  'hasMany stage: arena.encodeBatch (join, encode, offsets)': () => {
    let s = 0;
    for (let start = 0; start < N; start += BATCH) s += arena.encodeBatch(keys, start, Math.min(N, start + BATCH)).data;
    return s;
  },
  'hasMany stage: answers array from result bytes': () => {
    const answers = new Array(N);
    const heap = module.HEAPU8;
    for (let i = 0; i < N; i++) answers[i] = heap[scratch + (i & 0xffff)] === 1;
    return answers.length;
  },
  'filter.hasMany(strings)': () => filter.hasMany(keys).length,
  'filter.hasMany(Uint8Arrays)': () => filter.hasMany(bytes).length,
};

const REPS = Number(process.env.PROFILE_REPS ?? 9);
console.log(`profile: ${TYPE}, N = ${N.toLocaleString('en-US')}, mean key ${(total / N).toFixed(1)} bytes; ns per key over ${REPS} round-robin repetitions: min, median (max)`);
const entries = Object.entries(stages);
for (const [, fn] of entries) fn(); // warm-up
const times = entries.map(() => []);
for (let rep = 0; rep < REPS; rep++) {
  entries.forEach(([, fn], index) => {
    const t0 = process.hrtime.bigint();
    fn();
    times[index].push(Number(process.hrtime.bigint() - t0) / N);
  });
}
entries.forEach(([name], index) => {
  const sorted = times[index].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  console.log(`${sorted[0].toFixed(1).padStart(7)} ${median.toFixed(1).padStart(7)} (${sorted[sorted.length - 1].toFixed(1)})  ${name}`);
});
filter.free();

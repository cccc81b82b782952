// In-memory compaction works in place (CuckooIndex.compact, docs/EXACT-INDEX.md): the
// live records slide down within the log's own wasm memory, so it needs no
// memory beyond what the index holds. Shown directly: with the wasm heap filled
// to its 2 GiB maximum — where a copy of the live records into a second log
// cannot even be allocated, which is what compact() used to need — it
// succeeds, and every answer and the log order are as before.
import { CuckooIndex, init, internalRuntime } from '../../dist/index.import.cjs';
import { prng } from '../helpers/keys.mjs';
import { codeOf } from './lib/log-files.mjs';

const decoder = new TextDecoder();
let module;
beforeAll(async () => {
  await init();
  module = internalRuntime().module;
});

const urlKey = (i) => `https://host${i % 97}.example/page/${i}`;
/** Bytes a record takes beside its key and value: lengths, kind, checksum (docs/EXACT-INDEX.md). */
const RECORD_OVERHEAD_BYTES = 17;

/** Allocates wasm memory in ever smaller blocks until none is left; returns the blocks. */
function fillWasmHeap() {
  const blocks = [];
  for (let size = 256 << 20; size >= 4096; size >>= 1) {
    for (let at = module._malloc(size); at !== 0; at = module._malloc(size)) blocks.push(at);
  }
  return blocks;
}

/** The live keys in log order, as text. */
const keysInOrder = (index) => [...index.keys()].map((key) => decoder.decode(key));

test('compact succeeds with the wasm heap full, where a second log could not be allocated', () => {
  const index = new CuckooIndex();
  for (let i = 0; i < 200_000; i++) index.set(urlKey(i), `value-${i}`);
  for (let i = 0; i < 200_000; i += 2) index.delete(urlKey(i));
  for (let i = 1; i < 200_000; i += 6) index.set(urlKey(i), `again-${i}`); // moves i to the log's end
  const before = index.stats();
  const order = keysInOrder(index);
  expect(before.deadRecords).toBe(100_000 * 2 + 33_334);
  let liveLogBytes = 0;
  const blocks = fillWasmHeap();
  try {
    // Grown to the module's maximum (MAXIMUM_MEMORY, 2 GiB) and full.
    const memory = module.HEAPU8.buffer.byteLength;
    // The premise: the live records' bytes (what a copy needs for its new log,
    // before its table) cannot be allocated any more.
    for (let i = 1; i < 200_000; i += 2) liveLogBytes += RECORD_OVERHEAD_BYTES + urlKey(i).length + index.get(urlKey(i)).length;
    expect(module._malloc(liveLogBytes)).toBe(0);
    index.compact();
    expect(module.HEAPU8.buffer.byteLength).toBe(memory);
  } finally {
    for (const block of blocks) module._free(block);
  }
  const after = index.stats();
  expect(after.deadRecords).toBe(0);
  expect(after.size).toBe(100_000);
  expect(after.logBytes).toBe(liveLogBytes);
  expect(after.logBytes).toBeLessThan(before.logBytes / 2);
  expect(after.logAllocatedBytes).toBeLessThan(before.logAllocatedBytes);
  const wrong = [];
  for (let i = 0; i < 200_000; i++) {
    const want = i % 2 === 0 ? undefined : i % 6 === 1 ? `again-${i}` : `value-${i}`;
    if (index.getString(urlKey(i)) !== want) wrong.push(i);
  }
  expect(wrong).toEqual([]);
  expect(keysInOrder(index)).toEqual(order);
  index.free();
});

test('values longer than a 16 MiB segment: kept when live, their memory freed when dead', () => {
  const index = new CuckooIndex();
  const big = (fill) => new Uint8Array((17 << 20) + 5).fill(fill); // a segment of its own size each
  index.set('first', 'small');
  index.set('big-dead', big(1));
  index.set('middle', 'small');
  index.set('big-live', big(2));
  index.set('last', 'small');
  index.set('big-dead', 'replaced'); // its 17 MiB record is dead now
  const before = index.stats();
  index.compact();
  const after = index.stats();
  expect(before.logAllocatedBytes - after.logAllocatedBytes).toBeGreaterThanOrEqual(17 << 20);
  expect(keysInOrder(index)).toEqual(['first', 'middle', 'big-live', 'last', 'big-dead']);
  const value = index.get('big-live');
  expect(value.length).toBe((17 << 20) + 5);
  expect(value.every((byte) => byte === 2)).toBe(true);
  expect(index.getString('big-dead')).toBe('replaced');
  expect(index.getString('last')).toBe('small');
  // Appending goes on after the compacted log.
  index.set('after', 'compaction');
  expect(keysInOrder(index).at(-1)).toBe('after');
  index.free();
});

test('seeded model: compaction at random points keeps every answer and the log order', () => {
  const random = prng(20260118);
  const index = new CuckooIndex({ capacity: 8 });
  const model = new Map();
  let compactions = 0;
  try {
    for (let op = 0; op < 60_000; op++) {
      const key = `k${Math.floor(random() * 2000)}`;
      const roll = random();
      if (roll < 0.5) {
        const value = random() < 0.2 ? undefined : 'v'.repeat(Math.floor(random() * 200)) + op;
        index.set(key, value);
        // A set moves the key to the log's end: the Map keeps that order too.
        model.delete(key);
        model.set(key, value ?? null);
      } else if (roll < 0.8) {
        if (index.delete(key) !== model.delete(key)) throw new Error(`delete(${key}) disagrees`);
      } else if (roll < 0.998) {
        if (index.has(key) !== model.has(key)) throw new Error(`has(${key}) disagrees`);
      } else {
        const memory = module.HEAPU8.buffer.byteLength;
        const { logAllocatedBytes } = index.stats();
        index.compact();
        compactions++;
        if (module.HEAPU8.buffer.byteLength !== memory) throw new Error('compact grew the wasm memory');
        if (index.stats().logAllocatedBytes > logAllocatedBytes) throw new Error('compact took more log memory');
        if (index.stats().deadRecords !== 0) throw new Error('dead records after compact');
        const entries = [...index.entries()].map(([k, v]) => [decoder.decode(k), v === null ? null : decoder.decode(v)]);
        const want = [...model.entries()];
        if (JSON.stringify(entries) !== JSON.stringify(want)) throw new Error(`after compaction ${compactions} the log differs from the model`);
      }
    }
    expect(compactions).toBeGreaterThan(50);
    expect(index.size).toBe(model.size);
    for (const [key, value] of model) expect(index.getString(key)).toBe(value);
  } finally {
    index.free();
  }
});

test('an iterator made before a compaction refuses to continue', () => {
  const index = new CuckooIndex();
  for (const key of ['a', 'b', 'c']) index.set(key);
  index.delete('a');
  const iterator = index.keys();
  iterator.next();
  index.compact();
  expect(codeOf(() => iterator.next())).toBe('INVALID_ARGUMENT');
  expect(keysInOrder(index)).toEqual(['b', 'c']);
  index.free();
  expect(() => index.compact()).toThrow(expect.objectContaining({ code: 'FREED' }));
});

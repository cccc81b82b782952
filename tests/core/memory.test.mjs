// The leak check: thousands of ~1 MB filters created and released must not
// grow the wasm heap. There is no public heap-size getter; wasm memory is an
// ArrayBuffer outside the JS heap that Node reports in
// process.memoryUsage().external but not in .arrayBuffers (which counts
// ordinary ArrayBuffers such as serialize() copies, freed only by GC), so
// `external - arrayBuffers` tracks the wasm memory without GC noise.
import { execFileSync } from 'node:child_process';
import {
  init, FilterError, BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter,
} from 'cuckoo-bloom-wasm';
import { asciiKeys, longKey, thrown } from '../helpers/keys.mjs';

const MB = 1024 * 1024;

/** Runs `script` (an ES module printing one JSON line last) in a child whose wasm memory may reach 2 GiB; its result. */
function resultOfChild(script) {
  const output = execFileSync(process.execPath, ['--max-old-space-size=4096', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 240_000,
  });
  return JSON.parse(output.trim().split('\n').pop());
}
const BOUND = 64 * MB;
const ITERATIONS = 3000;

function wasmishBytes() {
  const { external, arrayBuffers } = process.memoryUsage();
  return external - arrayBuffers;
}

function expectModuleWorks() {
  const filter = new BloomFilter({ capacity: 1000 });
  filter.addMany(['alive', 'well']);
  expect(filter.add('still').has('still')).toBe(true);
  expect(filter.hasMany(['alive', 'well', 'still'])).toEqual([true, true, true]);
  filter.free();
}

// ~1 MB tables of each type (byteLength checked in the first test).
const ONE_MB = {
  bloom: () => new BloomFilter({ capacity: 830_000, falsePositiveRate: 0.01 }),
  'blocked-bloom': () => new BlockedBloomFilter({ capacity: 700_000, falsePositiveRate: 0.01 }),
  'counting-bloom': () => new CountingBloomFilter({ capacity: 210_000, falsePositiveRate: 0.01 }),
  cuckoo: () => new CuckooFilter({ capacity: 800_000, falsePositiveRate: 0.01 }),
};

beforeAll(async () => {
  await init();
  // Warm up: the first ~1 MB filters grow the heap once; that is not a leak.
  for (const make of Object.values(ONE_MB)) make().free();
});

test('the filters used here are about 1 MB each', () => {
  for (const make of Object.values(ONE_MB)) {
    const filter = make();
    expect(filter.byteLength).toBeGreaterThan(0.75 * MB);
    expect(filter.byteLength).toBeLessThan(1.5 * MB);
    filter.free();
  }
});

test(`${ITERATIONS} × create, use, free() of a 1 MB BloomFilter keeps the heap bounded`, () => {
  const before = wasmishBytes();
  for (let i = 0; i < ITERATIONS; i++) {
    const filter = ONE_MB.bloom();
    filter.add(`key-${i}`);
    if (!filter.has(`key-${i}`)) throw new Error(`iteration ${i}: key not found`);
    filter.free();
  }
  expect(wasmishBytes() - before).toBeLessThan(BOUND);
  expectModuleWorks();
});

test(`${ITERATIONS} × create and [Symbol.dispose]() (no free() call) keeps the heap bounded`, () => {
  const before = wasmishBytes();
  for (let i = 0; i < ITERATIONS; i++) {
    const filter = ONE_MB.bloom();
    try {
      filter.add(`key-${i}`);
    } finally {
      filter[Symbol.dispose]();
    }
    if (!filter.freed) throw new Error(`iteration ${i}: not freed by Symbol.dispose`);
  }
  expect(wasmishBytes() - before).toBeLessThan(BOUND);
  expectModuleWorks();
});

test.each(['blocked-bloom', 'counting-bloom', 'cuckoo'])(
  `${ITERATIONS} × create, use, free() of a 1 MB %s filter keeps the heap bounded`,
  (name) => {
    const before = wasmishBytes();
    for (let i = 0; i < ITERATIONS; i++) {
      const filter = ONE_MB[name]();
      filter.addMany([`a-${i}`, `b-${i}`]);
      if (!filter.has(`a-${i}`)) throw new Error(`iteration ${i}: key not found`);
      filter.free();
    }
    expect(wasmishBytes() - before).toBeLessThan(BOUND);
    expectModuleWorks();
  },
);

test.each(Object.keys(ONE_MB))('%s: 1,000 × serialize + deserialize + free of a 1 MB filter', (name) => {
  const source = ONE_MB[name]();
  source.addMany(asciiKeys(1000, 'ser-'));
  const before = wasmishBytes();
  for (let i = 0; i < 1000; i++) {
    const bytes = source.serialize();
    const copy = source.constructor.deserialize(bytes);
    if (!copy.has('ser-7')) throw new Error(`iteration ${i}: key lost in the round trip`);
    copy.free();
  }
  expect(wasmishBytes() - before).toBeLessThan(BOUND);
  source.free();
  expectModuleWorks();
});

test('rejected deserializations release their copy of the bytes', () => {
  const source = ONE_MB.bloom();
  const damaged = source.serialize();
  damaged[damaged.length - 1] ^= 1;
  source.free();
  const before = wasmishBytes();
  for (let i = 0; i < ITERATIONS; i++) {
    const error = thrown(() => BloomFilter.deserialize(damaged));
    if (error.code !== 'CORRUPT') throw new Error(`iteration ${i}: ${error}`);
  }
  expect(wasmishBytes() - before).toBeLessThan(BOUND);
  expectModuleWorks();
});

test('batches and long keys reuse one scratch region', () => {
  const filter = new BloomFilter({ capacity: 100_000 });
  const keys = asciiKeys(20_000, 'batch-');
  const big = longKey(1024 * 1024, 'q', 'big-');
  // One round first: the scratch region grows to its working size once.
  filter.addMany(keys);
  filter.hasMany(keys);
  filter.add(big);
  const before = wasmishBytes();
  for (let i = 0; i < 300; i++) {
    filter.addMany(keys);
    if (filter.hasMany(keys).includes(false)) throw new Error(`iteration ${i}: false negative`);
    filter.add(big);
    filter.has(big);
  }
  expect(wasmishBytes() - before).toBeLessThan(BOUND);
  filter.free();
  expectModuleWorks();
});

describe('a filter too large for wasm32', () => {
  test.each([
    ['BloomFilter', BloomFilter],
    ['BlockedBloomFilter', BlockedBloomFilter],
    ['CountingBloomFilter', CountingBloomFilter],
    ['CuckooFilter', CuckooFilter],
  ])('%s capacity 2^40 at 1e-9 throws INVALID_ARGUMENT, allocates nothing', (_label, Class) => {
    const before = wasmishBytes();
    const error = thrown(() => new Class({ capacity: 2 ** 40, falsePositiveRate: 1e-9 }));
    expect(error).toBeInstanceOf(FilterError);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(wasmishBytes() - before).toBeLessThan(MB);
    expectModuleWorks();
  });

  test('just above the table limit (a few GB) is INVALID_ARGUMENT too', () => {
    // 2^31 keys at 1% need ~2.6 GB of bits: past the wasm32 table limit.
    const error = thrown(() => new BloomFilter({ capacity: 2 ** 31, falsePositiveRate: 0.01 }));
    expect(error).toBeInstanceOf(FilterError);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expectModuleWorks();
  });

  // Allowed by the size limit but not by the heap left: the allocation itself
  // fails. In a child process, so this worker's heap does not grow by 1 GB.
  test('a second 1 GB filter fails to allocate with OUT_OF_MEMORY; after free() it fits', () => {
    const script = `
      const m = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
      await m.init();
      const result = {};
      const first = new m.BloomFilter({ capacity: 900000000 });
      result.firstBytes = first.byteLength;
      try { new m.BloomFilter({ capacity: 900000000 }); result.second = 'created'; }
      catch (e) { result.second = e instanceof m.FilterError ? e.code : String(e); }
      const small = new m.BloomFilter({ capacity: 100 });
      result.smallWorks = small.add('x').has('x');
      first.free();
      const third = new m.BloomFilter({ capacity: 900000000 });
      result.afterFree = third.add('y').has('y');
      console.log(JSON.stringify(result));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const result = JSON.parse(output.trim().split('\n').pop());
    expect(result.firstBytes).toBeGreaterThan(1000 * MB);
    expect(result).toMatchObject({ second: 'OUT_OF_MEMORY', smallWorks: true, afterFree: true });
  });
});

// Serializing copies the table straight from wasm memory into the result, and
// reading keeps the copied bytes as the table (Bloom, blocked, counting): a
// filter of half the wasm memory limit round-trips, and running out of memory
// on the way is OUT_OF_MEMORY with every filter intact. In a child process:
// its heap grows to ~2 GB.
test('a 1 GiB filter serializes and reads back; near the memory limit failures are OUT_OF_MEMORY and lose nothing', () => {
  const script = `
    const m = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
    await m.init();
    const result = {};
    const keys = Array.from({ length: 1000 }, (_, i) => 'big-' + i);
    const big = new m.BloomFilter({ capacity: 900000000, falsePositiveRate: 0.01, seed: 7 });
    big.addMany(keys);
    result.bigBytes = big.byteLength;
    const canary = new m.CuckooFilter({ capacity: 1000 });
    canary.addMany(keys);
    // Serializing needs no wasm memory beyond the table, even with a second large filter alive.
    const other = new m.BlockedBloomFilter({ capacity: 500000000, falsePositiveRate: 0.01 });
    other.add('other');
    let bytes = big.serialize();
    result.serializedBytes = bytes.length;
    // Reading it back while both are alive does not fit in 2 GiB.
    try { m.deserialize(bytes); result.tooMuch = 'read'; } catch (e) { result.tooMuch = e instanceof m.FilterError ? e.code : String(e); }
    result.intactAfterFailure = big.hasMany(keys).every(Boolean) && canary.hasMany(keys).every(Boolean) && other.has('other');
    const otherBytes = other.serialize();
    other.free();
    big.free();
    const back = m.BloomFilter.deserialize(bytes);
    bytes = null;
    result.readBack = back.hasMany(keys).every(Boolean) && back.byteLength === result.bigBytes;
    back.free();
    const otherBack = m.deserialize(otherBytes);
    result.otherBack = otherBack.has('other');
    result.canary = canary.hasMany(keys).every(Boolean);
    console.log(JSON.stringify(result));`;
  const result = resultOfChild(script);
  expect(result.bigBytes).toBeGreaterThan(1024 * MB);
  expect(result.serializedBytes).toBeGreaterThan(result.bigBytes);
  expect(result).toMatchObject({
    tooMuch: 'OUT_OF_MEMORY',
    intactAfterFailure: true,
    readBack: true,
    otherBack: true,
    canary: true,
  });
}, 300_000);

// A chain's links are not one block of memory, so serializing one writes their
// blobs into one wasm allocation of their size. Near the memory limit that
// allocation fails: serialize() and clone() must say OUT_OF_MEMORY and leave
// every filter and the module working (it used to abort the module: every
// filter in it lost). In a child process whose wasm memory is first filled by
// a 1.3 GB ballast; after the ballast is freed the same calls succeed. Reading
// a chain's bytes with no room for a link is OUT_OF_MEMORY too (it was CORRUPT).
test('serialize() and clone() of a chain near the memory limit are OUT_OF_MEMORY, lose nothing, and work once memory is free', () => {
  const script = `
    const m = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
    await m.init();
    const keys = Array.from({ length: 2000 }, (_, i) => 'chain-' + i);
    const code = (call) => { try { call(); return 'none'; } catch (e) { return e instanceof m.FilterError ? e.code : String(e); } };
    const ballast = new m.BloomFilter({ capacity: 1100000000, falsePositiveRate: 0.01 });
    ballast.add('ballast');
    const canary = new m.CuckooFilter({ capacity: 4000 });
    canary.addMany(keys);
    const result = {};
    for (const [name, make] of [
      ['scalable-bloom', () => new m.ScalableBloomFilter({ initialCapacity: 250000000, falsePositiveRate: 0.01, seed: 3 })],
      ['expiring-bloom', () => new m.ExpiringBloomFilter({ capacity: 120000000, falsePositiveRate: 0.01, window: 1e15, generations: 3, clock: () => 0, seed: 3 })],
    ]) {
      const chain = make();
      chain.addMany(keys);
      const outcome = { bytes: chain.byteLength };
      outcome.serialize = code(() => chain.serialize());
      outcome.clone = code(() => chain.clone());
      outcome.intact = chain.hasMany(keys).every(Boolean) && canary.hasMany(keys).every(Boolean) && ballast.has('ballast');
      result[name] = outcome;
      chain.free();
    }
    ballast.free();
    // (The expiring filter's window outlasts Date.now, the clock of the copies read from bytes: nothing expires in them.)
    for (const [name, make] of [
      ['scalable-bloom freed', () => new m.ScalableBloomFilter({ initialCapacity: 250000000, falsePositiveRate: 0.01, seed: 3 })],
      ['expiring-bloom freed', () => new m.ExpiringBloomFilter({ capacity: 120000000, falsePositiveRate: 0.01, window: 1e15, generations: 3, clock: () => 0, seed: 3 })],
    ]) {
      const chain = make();
      chain.addMany(keys);
      const copy = chain.clone();
      const copied = copy.hasMany(keys).every(Boolean);
      copy.free();
      const bytes = chain.serialize();
      // Reading the bytes back with no room for a link is OUT_OF_MEMORY (the bytes are fine), not CORRUPT.
      // The memory is filled with ~100 MB filters until one does not fit: what is left is less than a link.
      const pieces = [];
      for (;;) { try { pieces.push(new m.BloomFilter({ capacity: 83000000, falsePositiveRate: 0.01 })); } catch { break; } }
      const readWithoutRoom = code(() => m.deserialize(bytes));
      for (const piece of pieces) piece.free();
      const back = m.deserialize(bytes);
      result[name] = { copy: copied, readWithoutRoom, back: back.hasMany(keys).every(Boolean) && back.equals(chain) };
      back.free(); chain.free();
    }
    result.canary = canary.hasMany(keys).every(Boolean);
    console.log(JSON.stringify(result));`;
  const result = resultOfChild(script);
  for (const name of ['scalable-bloom', 'expiring-bloom']) {
    expect(result[name].bytes).toBeGreaterThan(400 * MB);
    expect(result[name]).toMatchObject({ serialize: 'OUT_OF_MEMORY', clone: 'OUT_OF_MEMORY', intact: true });
    expect(result[`${name} freed`]).toEqual({ copy: true, readWithoutRoom: 'OUT_OF_MEMORY', back: true });
  }
  expect(result.canary).toBe(true);
}, 300_000);

// FAILS on main: ParquetBloomFilter's own API, given JS values a caller plausibly has.
// - addHash(h) with h as a signed 64-bit bigint (BigInt.asIntN(64, ...), how Java, Spark
//   and many SQL engines hand out a 64-bit hash) sets no bit at all (the block index is
//   negative: a typed array ignores the writes), then has(value) is false: an add that
//   is acknowledged and lost. hasHash(signed) is false on a filter holding the value.
// - addHash/hasHash of a number: TypeError ("Cannot mix BigInt"), not a FilterError.
// - the constructor takes anything with a power-of-two `length`: a DataView (length
//   undefined) makes a filter of no words that says false to everything; a Uint32Array of
//   the bitset's words reads only its first quarter, so values in the rest say false.
// - has() on a detached Uint8Array hashes it as the empty value.
import { loadParquetModule } from '../parquet/parquet-module.mjs';
import { outcomeOf } from './attack-helpers.mjs';

let parquet;
let value; // a value whose XXH64 has its top bit set: negative as a signed 64-bit integer
let hash;
beforeAll(async () => {
  parquet = await loadParquetModule();
  for (let i = 0; ; i++) {
    hash = parquet.xxhash64(new TextEncoder().encode(`k${i}`));
    if (hash >> 63n) {
      value = `k${i}`;
      break;
    }
  }
});

test('addHash(the signed form of a hash): refused INVALID_ARGUMENT, or the value is then found', async () => {
  const filter = parquet.ParquetBloomFilter.empty(1024, 'BYTE_ARRAY');
  const outcome = await outcomeOf(parquet, () => filter.addHash(BigInt.asIntN(64, hash)));
  expect([outcome, outcome === 'read' ? filter.has(value) : 'refused']).toEqual(outcome === 'read' ? ['read', true] : ['INVALID_ARGUMENT', 'refused']);
});

test('hasHash(the signed form of a hash) on a filter holding the value: true or INVALID_ARGUMENT, never false', async () => {
  const filter = parquet.ParquetBloomFilter.empty(1024, 'BYTE_ARRAY');
  filter.add(value);
  let answer;
  try {
    answer = filter.hasHash(BigInt.asIntN(64, hash));
  } catch (error) {
    if (!(error instanceof parquet.FilterError)) throw error;
    answer = error.code;
  }
  expect([true, 'INVALID_ARGUMENT']).toContain(answer);
});

test('addHash(2^64 + hash): refused, or the value is then found', async () => {
  const filter = parquet.ParquetBloomFilter.empty(1024, 'BYTE_ARRAY');
  const outcome = await outcomeOf(parquet, () => filter.addHash((1n << 64n) + hash));
  expect(outcome === 'read' ? filter.has(value) : outcome).toBe(outcome === 'read' ? true : 'INVALID_ARGUMENT');
});

test('addHash and hasHash of a number are INVALID_ARGUMENT, not a TypeError', async () => {
  const filter = parquet.ParquetBloomFilter.empty(1024, 'BYTE_ARRAY');
  const outcomes = [];
  for (const run of [() => filter.addHash(12345), () => filter.hasHash(12345)]) {
    try {
      outcomes.push(await outcomeOf(parquet, run));
    } catch (error) {
      outcomes.push(`${error.constructor.name}: ${error.message}`);
    }
  }
  expect(outcomes).toEqual(['INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
});

test('the constructor refuses what is not a Uint8Array (or reads an ArrayBuffer as its bytes), never a filter that says false', async () => {
  const built = parquet.ParquetBloomFilter.empty(1024, 'BYTE_ARRAY');
  for (let i = 0; i < 200; i++) built.add(`v${i}`);
  const bitset = built.bitset;
  const results = {};
  for (const [name, input] of [
    ['DataView', new DataView(bitset.buffer)],
    ['Uint32Array', new Uint32Array(bitset.buffer)],
    ['ArrayBuffer', bitset.buffer],
    ['null', null],
  ]) {
    try {
      const filter = new parquet.ParquetBloomFilter(input, 'BYTE_ARRAY');
      let missed = 0;
      for (let i = 0; i < 200; i++) if (!filter.has(`v${i}`)) missed++;
      results[name] = missed === 0 ? 'reads the bitset' : `a filter missing ${missed} of 200 values`;
    } catch (error) {
      results[name] = error instanceof parquet.FilterError ? error.code : `${error.constructor.name}: ${error.message}`;
    }
  }
  const allowed = { DataView: ['INVALID_ARGUMENT'], Uint32Array: ['INVALID_ARGUMENT'], ArrayBuffer: ['INVALID_ARGUMENT', 'reads the bitset'], null: ['INVALID_ARGUMENT'] };
  expect(Object.entries(results).filter(([name, result]) => !allowed[name].includes(result))).toEqual([]);
});

test('has() on a detached Uint8Array is INVALID_ARGUMENT, not the empty value', async () => {
  const filter = parquet.ParquetBloomFilter.empty(1024, 'BYTE_ARRAY');
  filter.add('');
  const key = new TextEncoder().encode('not empty');
  structuredClone(key.buffer, { transfer: [key.buffer] }); // detaches key
  let answer;
  try {
    answer = filter.has(key);
  } catch (error) {
    if (!(error instanceof parquet.FilterError)) throw error;
    answer = error.code;
  }
  expect(answer).toBe('INVALID_ARGUMENT');
});

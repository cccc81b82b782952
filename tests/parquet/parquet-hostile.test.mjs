// The Parquet reader's pieces on fixed vectors and on hostile bytes: the reference XXH64
// against xxHash's C library, the wasm filter's bits against the spec's rule by hand, the plain encodings, other writers' fixtures, and footers and
// filter headers that lie (lengths past the end, negative, huge, wrong unions, deep
// nesting, fuzzed bytes of a DuckDB file), each a FilterError with a stable code.
import { readFileSync } from 'node:fs';
import { loadParquetModule } from './parquet-module.mjs';
import { T, struct, i32, i64, varint, list, bloomHeader, parquetFile } from './thrift-writer.mjs';
import { openDuckDB } from './duckdb-parquet.mjs';
import { prng, randomInt } from '../helpers/keys.mjs';
import { codeOf } from '../helpers/filter-errors.mjs';
import { xxhash64, specBitset } from './spec-reference.mjs';

let parquet;
beforeAll(async () => {
  parquet = await loadParquetModule();
});


const hex = (bytes) => Buffer.from(bytes).toString('hex');
const INT32 = 1;
const INT64 = 2;
const BYTE_ARRAY = 6;

test('the reference xxhash64 matches xxHash (XXH64, seed 0) on every length path', () => {
  // From xxHash's C library (libxxhash 0.8) over bytes[i] = (i * 37 + 11) & 255.
  const vectors = [
    [0, 'ef46db3751d8e999'], [1, 'f592c0c7639c4cb6'], [3, '22c08528601d4f27'], [4, 'fb1e5cf2f1ae4d95'],
    [7, '5613ac510496c04e'], [8, '57cb2b7521f3e21a'], [9, 'c3f1d09775257b66'], [15, '90a9714eb00e8d29'],
    [16, 'c6843cef99721174'], [31, 'e4a0e629e519a4ae'], [32, 'cc6b8aaada790b2d'], [33, '35ec49850475a832'],
    [63, 'bf9f0ba3cf95b28a'], [64, '155ccce4bf32befc'], [65, 'da5ee441a595cfb8'], [100, '4826e367566ea023'],
    [200, '2f074b6dd9094e34'],
  ];
  const bytes = Uint8Array.from({ length: 200 }, (_, i) => (i * 37 + 11) & 255);
  for (const [length, expected] of vectors) {
    expect([length, xxhash64(bytes.subarray(0, length)).toString(16).padStart(16, '0')]).toEqual([length, expected]);
  }
  expect(xxhash64(new TextEncoder().encode('abc')).toString(16)).toBe('44bc2cf5ad770999');
});

test('plain encodings of the common physical types', () => {
  expect(hex(parquet.plainEncode('héllo', 'BYTE_ARRAY'))).toBe('68c3a96c6c6f');
  expect(hex(parquet.plainEncode(Uint8Array.of(1, 2), 'BYTE_ARRAY'))).toBe('0102');
  expect(hex(parquet.plainEncode(-2, 'INT32'))).toBe('feffffff');
  expect(hex(parquet.plainEncode(0x0807060504030201n, 'INT64'))).toBe('0102030405060708');
  expect(hex(parquet.plainEncode(-1, 'INT64'))).toBe('ffffffffffffffff');
  expect(hex(parquet.plainEncode(1.5, 'DOUBLE'))).toBe('000000000000f83f');
  expect(hex(parquet.plainEncode(1.5, 'FLOAT'))).toBe('0000c03f');
  for (const [value, type] of [[1.5, 'INT32'], [2 ** 31, 'INT32'], ['1', 'INT32'], [1n << 63n, 'INT64'], [2 ** 53, 'INT64'], [1, 'BYTE_ARRAY'], [1n, 'DOUBLE']]) {
    expect([value, type, codeOf(() => parquet.plainEncode(value, type))]).toEqual([value, type, 'INVALID_ARGUMENT']);
  }
  expect(codeOf(() => parquet.plainEncode(true, 'BOOLEAN'))).toBe('UNSUPPORTED');
});

test("other writers' fixtures: arrow-rs's header bytes and parquet-mr's bitset for 'a0'..'a9'", () => {
  const header = Uint8Array.of(21, 64, 28, 28, 0, 0, 28, 28, 0, 0, 28, 28, 0, 0, 0, 99);
  expect(parquet.readBloomFilterHeader(header, 0, header.length)).toEqual({ numBytes: 32, headerLength: 15 });
  const bitset = Uint8Array.of(200, 1, 80, 20, 64, 68, 8, 109, 6, 37, 4, 67, 144, 80, 96, 32, 8, 132, 43, 33, 0, 5, 99, 65, 2, 0, 224, 44, 64, 78, 96, 4);
  const read = new parquet.ParquetBloomFilter(bitset, 'BYTE_ARRAY');
  const built = parquet.ParquetBloomFilter.empty(32, 'BYTE_ARRAY');
  for (let i = 0; i < 10; i++) {
    expect(read.has(`a${i}`)).toBe(true);
    built.add(`a${i}`);
  }
  expect(hex(built.bitset)).toBe(hex(bitset));
});

test('a hand-made file reads back, filter and all', () => {
  const filter = parquet.ParquetBloomFilter.empty(64, 'INT64');
  filter.add(42n);
  const body = [...bloomHeader(64), ...filter.bitset];
  const file = parquetFile(body, [{ name: 'n', type: INT64, offset: 4, length: body.length }, { name: 'x', type: INT32 }]);
  const read = parquet.readParquetBloomFilters(file);
  // The chunk without a filter is there too, answering true (its row group may hold anything).
  expect(read.map((f) => [f.rowGroup, f.column, f.physicalType, f.filter.known])).toEqual([[0, 'n', 'INT64', true], [0, 'x', 'INT32', false]]);
  expect(read[1].filter.has(7)).toBe(true);
  expect(read[0].filter.has(42n)).toBe(true);
  expect(read[0].filter.has(43)).toBe(false);
  // Without bloom_filter_length (writers before format 2.10), the header says the size.
  const older = parquetFile(body, [{ name: 'n', type: INT64, offset: 4 }]);
  expect(parquet.readParquetBloomFilters(older)[0].filter.has(42)).toBe(true);
});

describe('hostile bytes are typed errors', () => {
  const body = [...bloomHeader(32), ...new Array(32).fill(0)];
  const good = { name: 's', type: BYTE_ARRAY, offset: 4, length: body.length };
  const cases = [
    ['too short', () => Uint8Array.of(0x50, 0x41, 0x52, 0x31), 'CORRUPT'],
    ['no magic', () => new Uint8Array(64), 'CORRUPT'],
    ['encrypted footer', () => { const f = parquetFile(body, [good]); f.set([0x50, 0x41, 0x52, 0x45], f.length - 4); return f; }, 'UNSUPPORTED'],
    ['footer length past the start', () => { const f = parquetFile(body, [good]); f.set([255, 255, 255, 127], f.length - 8); return f; }, 'CORRUPT'],
    ['row_groups of 2^31 elements', () => parquetFile([], [], { metadataBytes: [0x49, 0xf0 | T.STRUCT, ...varint(2 ** 31), 0] }), 'CORRUPT'],
    ['a varint of 11 bytes', () => parquetFile([], [], { metadataBytes: [0x16, ...new Array(11).fill(0xff), 1, 0] }), 'CORRUPT'],
    ['a binary longer than the footer', () => parquetFile([], [], { metadataBytes: [0x18, ...varint(1e6), 0] }), 'CORRUPT'],
    ['field type 13', () => parquetFile([], [], { metadataBytes: [0x1d, 0] }), 'CORRUPT'],
    ['structs nested 10,000 deep', () => parquetFile([], [], { metadataBytes: [...new Array(10000).fill(0x1c), ...new Array(10001).fill(0)] }), 'CORRUPT'],
    ['row_groups of i32s', () => parquetFile([], [], { metadataBytes: struct([[4, T.LIST, list(T.I32, [i32(1)])]]) }), 'CORRUPT'],
    ['physical type 9', () => parquetFile(body, [{ ...good, type: 9 }]), 'CORRUPT'],
    ['negative bloom_filter_offset', () => parquetFile(body, [{ ...good, offset: -1 }]), 'CORRUPT'],
    ['bloom_filter_offset 2^62', () => parquetFile(body, [{ ...good, offset: 2n ** 62n }]), 'CORRUPT'],
    ['bloom_filter_offset past the end', () => parquetFile(body, [{ ...good, offset: 100000, length: undefined }]), 'CORRUPT'],
    ['negative bloom_filter_length', () => parquetFile(body, [{ ...good, length: -5 }]), 'CORRUPT'],
    ['bloom_filter_length past the end', () => parquetFile(body, [{ ...good, length: 1e6 }]), 'CORRUPT'],
    ['bloom_filter_length cutting the bitset', () => parquetFile(body, [{ ...good, length: body.length - 1 }]), 'CORRUPT'],
    ['numBytes negative', () => parquetFile([...bloomHeader(-32), ...new Array(32).fill(0)], [good]), 'CORRUPT'],
    ['numBytes 2^30 in a small file', () => parquetFile([...bloomHeader(2 ** 30), ...new Array(32).fill(0)], [{ ...good, length: undefined }]), 'CORRUPT'],
    ['numBytes not a power of two', () => { const b = [...bloomHeader(48), ...new Array(48).fill(0)]; return parquetFile(b, [{ ...good, length: b.length }]); }, 'CORRUPT'],
    ['numBytes 16', () => { const b = [...bloomHeader(16), ...new Array(16).fill(0)]; return parquetFile(b, [{ ...good, length: b.length }]); }, 'CORRUPT'],
    ['another algorithm', () => parquetFile([...bloomHeader(32, { algorithm: 2 }), ...new Array(32).fill(0)], [good]), 'UNSUPPORTED'],
    ['another hash', () => parquetFile([...bloomHeader(32, { hash: 3 }), ...new Array(32).fill(0)], [good]), 'UNSUPPORTED'],
    ['compressed', () => parquetFile([...bloomHeader(32, { compression: 2 }), ...new Array(32).fill(0)], [good]), 'UNSUPPORTED'],
    ['a header without its hash', () => { const b = [...struct([[1, T.I32, i32(32)], [2, T.STRUCT, struct([[1, T.STRUCT, struct([])]])]]), ...new Array(32).fill(0)]; return parquetFile(b, [{ ...good, length: b.length }]); }, 'CORRUPT'],
    ['a union with no member', () => { const b = [...struct([[1, T.I32, i32(32)], [2, T.STRUCT, struct([])], [3, T.STRUCT, struct([])], [4, T.STRUCT, struct([])]]), ...new Array(32).fill(0)]; return parquetFile(b, [{ ...good, length: b.length }]); }, 'CORRUPT'],
  ];
  test.each(cases)('%s', (_name, make, code) => {
    const file = make();
    expect(codeOf(() => parquet.readParquetBloomFilters(file))).toBe(code);
  });
  test('the good file of these cases reads', () => {
    expect(parquet.readParquetBloomFilters(parquetFile(body, [good]))).toHaveLength(1);
  });
});

test("fuzzed DuckDB files: every mutation reads or is a typed error, within the file's memory", async () => {
  const duck = await openDuckDB();
  try {
    const path = `${duck.directory}/small.parquet`;
    await duck.connection.run(`COPY (SELECT 'k' || i AS s, i::BIGINT AS n, i::INTEGER AS m, i::DOUBLE / 3 AS d FROM range(3000) t(i)) TO '${path}' (FORMAT parquet, DICTIONARY_SIZE_LIMIT 100000)`);
    const original = new Uint8Array(readFileSync(path));
    const filters = parquet.readParquetBloomFilters(original);
    expect(filters.map((f) => f.physicalType).sort()).toEqual(['BYTE_ARRAY', 'DOUBLE', 'INT32', 'INT64']);
    expect(filters.find((f) => f.column === 'd').filter.has(1 / 3)).toBe(true);
    expect(filters.find((f) => f.column === 'm').filter.has(2999)).toBe(true);
    const footerLength = new DataView(original.buffer, original.byteOffset).getUint32(original.length - 8, true);
    const footerStart = original.length - 8 - footerLength;
    const headerStarts = parquet.readBloomFilterPlaces(original).map((p) => p.bloomFilterOffset);
    const random = prng(46);
    const outcomes = {};
    for (let round = 0; round < 3000; round++) {
      const file = original.slice();
      const target = round % 3 === 0 ? headerStarts[randomInt(random, headerStarts.length)] : footerStart;
      const span = round % 3 === 0 ? 24 : footerLength + 8;
      const edits = 1 + randomInt(random, 4);
      for (let e = 0; e < edits; e++) {
        const at = target + randomInt(random, span);
        file[at] = random() < 0.5 ? randomInt(random, 256) : file[at] ^ (1 << randomInt(random, 8));
      }
      const mutated = round % 7 === 0 ? file.subarray(0, file.length - randomInt(random, footerLength)) : file;
      let outcome;
      try {
        const read = parquet.readParquetBloomFilters(mutated);
        for (const f of read) expect(f.filter.bitset.length).toBeLessThanOrEqual(mutated.length);
        outcome = 'read';
      } catch (error) {
        if (!(error instanceof parquet.FilterError)) throw error;
        expect(['CORRUPT', 'UNSUPPORTED']).toContain(error.code);
        outcome = error.code;
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    // Both kinds of outcome happen: the fuzzing reaches past the first check.
    expect(outcomes.read).toBeGreaterThan(100);
    expect(outcomes.CORRUPT).toBeGreaterThan(100);
  } finally {
    duck.close();
  }
});

test("has() and add() encode as plainEncode does: non-ASCII and long strings, bytes, numbers", () => {
  const values = {
    BYTE_ARRAY: ['héllo', '日本', '😀 emoji', 'x'.repeat(1000) + 'é', 'é'.repeat(700), '', 'plain'],
    INT32: [0, -1, 2147483647, -2147483648],
    INT64: [0n, -1n, 1n << 62n, 12345, -(2 ** 53) + 1],
    DOUBLE: [0, -0, 1.5, Number.NaN, Infinity, 1 / 3],
    FLOAT: [1.5, -2.25],
  };
  for (const [type, list] of Object.entries(values)) {
    // The spec's bits set by hand from the reference XXH64 of plainEncode's bytes, read as a
    // filter and asked through has(value); and built in wasm through add(value): the same bytes.
    const byHand = specBitset(32 * 1024, list.map((value) => xxhash64(parquet.plainEncode(value, type))));
    const viaHash = new parquet.ParquetBloomFilter(byHand, type);
    const viaValue = parquet.ParquetBloomFilter.empty(32 * 1024, type);
    for (const value of list) {
      expect([type, value, viaHash.has(value)]).toEqual([type, value, true]);
      viaValue.add(value);
    }
    expect(hex(viaValue.bitset)).toBe(hex(byHand));
  }
  const strings = parquet.ParquetBloomFilter.empty(1024, 'BYTE_ARRAY');
  strings.add('日本');
  expect(strings.has(new TextEncoder().encode('日本'))).toBe(true);
  expect(codeOf(() => strings.has(5))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => parquet.ParquetBloomFilter.empty(48, 'INT64'))).toBe('INVALID_ARGUMENT');
});

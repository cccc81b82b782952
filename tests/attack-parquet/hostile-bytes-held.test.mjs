// Held on main (a guard): hostile bytes the reader already refuses with a typed error in
// bounded time, on both paths (whole bytes and a range reader): a DuckDB file cut at
// every offset, each Bloom filter header byte set to each of its 256 values, a range
// reader that comes up short or rejects at each of its requests, Thrift that lies (varints of 11
// bytes, lists and maps of 2^31, nesting 100,000 deep inside a filter header, a 32 MiB
// footer of nested structs), and a file read from inside a larger buffer.
import { jest } from '@jest/globals';
import { loadParquetModule } from '../parquet/parquet-module.mjs';
import { T, struct, i32, varint, bloomHeader } from '../parquet/thrift-writer.mjs';
import { assemble, columnChunk, duckdbFile, fileMetaData, outcomeOf, recordingReader, signature } from './attack-helpers.mjs';

jest.setTimeout(300_000);

let parquet;
let original;
beforeAll(async () => {
  parquet = await loadParquetModule();
  original = await duckdbFile(`SELECT 'k' || (i % 40) AS s, (i % 40)::BIGINT AS n, (i % 40) / 3 AS d FROM range(4000) t(i)`, 'FORMAT parquet, ROW_GROUP_SIZE 2048');
});

const rangeOver = (bytes) => async (offset, length) => bytes.slice(offset, offset + length);

test('cut at every offset: CORRUPT on both paths', async () => {
  expect(parquet.readParquetBloomFilters(original)).toHaveLength(6);
  const outcomes = {};
  for (let length = 0; length < original.length; length++) {
    const cut = original.subarray(0, length);
    for (const outcome of [await outcomeOf(parquet, () => parquet.readParquetBloomFilters(cut)), await outcomeOf(parquet, () => parquet.fetchParquetBloomFilters(rangeOver(cut), length))]) {
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  }
  expect(outcomes).toEqual({ CORRUPT: 2 * original.length });
});

test('each Bloom filter header byte set to each value: a typed error or the very same filters', async () => {
  const base = signature(parquet.readParquetBloomFilters(original)).join();
  const places = parquet.readBloomFilterPlaces(original);
  const headerLength = parquet.readBloomFilterHeader(original, places[0].bloomFilterOffset, original.length).headerLength;
  const different = [];
  let errors = 0;
  for (const place of places) {
    for (let at = place.bloomFilterOffset; at < place.bloomFilterOffset + headerLength; at++) {
      for (let value = 0; value < 256; value++) {
        if (original[at] === value) continue;
        const file = original.slice();
        file[at] = value;
        try {
          if (signature(parquet.readParquetBloomFilters(file)).join() !== base) different.push([place.column, place.rowGroup, at - place.bloomFilterOffset, value]);
        } catch (error) {
          if (!(error instanceof parquet.FilterError)) throw error;
          errors++;
        }
      }
    }
  }
  expect(different).toEqual([]);
  expect(errors).toBeGreaterThan(places.length * headerLength * 100); // most values are refused, not skipped over
});

test('a range reader that comes up one byte short at request k, for every k: CORRUPT', async () => {
  const { read, requests } = recordingReader(original);
  await parquet.fetchParquetBloomFilters(read, original.length);
  for (let k = 0; k < requests.length; k++) {
    let call = 0;
    const short = async (offset, length) => original.slice(offset, offset + length - (call++ === k ? 1 : 0));
    expect([k, await outcomeOf(parquet, () => parquet.fetchParquetBloomFilters(short, original.length))]).toEqual([k, 'CORRUPT']);
  }
});

test('the file inside a larger buffer, at an odd offset, reads the same filters', () => {
  const larger = new Uint8Array(original.length + 7);
  larger.set(original, 3);
  expect(signature(parquet.readParquetBloomFilters(larger.subarray(3, 3 + original.length)))).toEqual(signature(parquet.readParquetBloomFilters(original)));
});

describe('Thrift that lies: typed errors', () => {
  const body = [...bloomHeader(32), ...new Array(32).fill(0)];
  const withHeader = (header) => assemble([...header, ...new Array(32).fill(0)], fileMetaData([[columnChunk({ offset: 4 })]]));
  const member = struct([[1, T.STRUCT, struct([])]]);
  const cases = [
    ['numBytes as a varint of 11 bytes', () => withHeader([0x15, ...new Array(10).fill(0xff), 0x01, 0x2c, ...member, 0x1c, ...member, 0x1c, ...member, 0]), 'CORRUPT'],
    ['bloom_filter_offset as a varint of 11 bytes', () => assemble(body, [0x49, 0x1c, 0x19, 0x1c, 0x3c, 0x15, 0x0c, 0x29, 0x18, 0x01, 0x73, 0xb6, ...new Array(10).fill(0xff), 0x01, 0, 0, 0, 0]), 'CORRUPT'],
    ['path_in_schema of 2^31 strings', () => assemble(body, [0x49, 0x1c, 0x19, 0x1c, 0x3c, 0x15, 0x0c, 0x29, 0xf8, ...varint(2 ** 31), 0, 0, 0, 0]), 'CORRUPT'],
    ['a map of 2^31 entries in ColumnMetaData', () => assemble(body, [0x49, 0x1c, 0x19, 0x1c, 0x3c, 0x15, 0x0c, 0xab, ...varint(2 ** 31), 0x11, 0, 0, 0, 0]), 'CORRUPT'],
    ['a union nested 100,000 deep in the hash member', () => withHeader([0x15, ...i32(32), 0x1c, ...member, 0x1c, ...new Array(100_000).fill(0x1c), ...new Array(100_001).fill(0), 0x1c, ...member, 0]), 'CORRUPT'],
    ['lists nested 100,000 deep in an unknown header field', () => withHeader([0x15, ...i32(32), 0x1c, ...member, 0x1c, ...member, 0x1c, ...member, 0x19, ...new Array(100_000).fill(0x19), 0]), 'CORRUPT'],
    ['a union member of the wrong type (i32, not a struct)', () => withHeader([0x15, ...i32(32), 0x1c, 0x15, 0x02, 0, 0x1c, ...member, 0x1c, ...member, 0]), 'CORRUPT'],
    ['a union with member 1 twice (the second in long form)', () => withHeader([0x15, ...i32(32), 0x1c, 0x1c, 0, 0x0c, 0x02, 0, 0, 0x1c, ...member, 0x1c, ...member, 0]), 'CORRUPT'],
    ['footer length 0', () => { const f = assemble(body, fileMetaData([[columnChunk({ offset: 4 })]])); f.set([0, 0, 0, 0], f.length - 8); return f; }, 'CORRUPT'],
    ['bloom_filter_offset into the magic (0)', () => assemble(body, fileMetaData([[columnChunk({ offset: 0 })]])), 'CORRUPT'],
    ['bloom_filter_offset at the tail (length and magic)', () => { const m = fileMetaData([[columnChunk({ offset: 4 + body.length + 1000 })]]); return assemble(body, m); }, 'CORRUPT'],
  ];
  test.each(cases)('%s', async (_name, make, code) => {
    const file = make();
    const started = performance.now();
    expect(await outcomeOf(parquet, () => parquet.readParquetBloomFilters(file))).toBe(code);
    expect(await outcomeOf(parquet, () => parquet.fetchParquetBloomFilters(rangeOver(file), file.length))).toBe(code);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

test('a 32 MiB footer of structs nested 30 deep, repeated: read or CORRUPT, in bounded time', async () => {
  // Field 5 (key_value_metadata's id, skipped here) repeated: each a struct nested 30 deep.
  const nested = [0x5c, ...new Array(29).fill(0x1c), ...new Array(30).fill(0)];
  const repeat = Math.floor((32 * 1024 * 1024) / nested.length);
  const metadata = new Uint8Array(repeat * nested.length + 1);
  for (let r = 0; r < repeat; r++) metadata.set(nested, r * nested.length);
  // Field ids climb by 5 each time: after the first, the same bytes are field 10, 15, ...
  const file = assemble([], metadata);
  const started = performance.now();
  const outcome = await outcomeOf(parquet, () => parquet.readParquetBloomFilters(file));
  expect(['read', 'CORRUPT']).toContain(outcome);
  expect(performance.now() - started).toBeLessThan(60_000);
});

test('a range reader that rejects at request k: the call rejects (as is, or UNAVAILABLE naming it) and reads nothing more', async () => {
  const { read, requests } = recordingReader(original);
  await parquet.fetchParquetBloomFilters(read, original.length);
  for (let k = 0; k < requests.length; k++) {
    let calls = 0;
    const failing = async (offset, length) => {
      if (calls++ === k) throw new Error(`network down at request ${k}`);
      return original.slice(offset, offset + length);
    };
    let outcome;
    try {
      await parquet.fetchParquetBloomFilters(failing, original.length);
      outcome = 'read';
    } catch (error) {
      outcome = error instanceof parquet.FilterError ? (error.code === 'UNAVAILABLE' && /network down/.test(`${error.message} ${error.cause?.message}`) ? 'named' : error.code) : error.message;
    }
    expect([k, outcome === 'named' ? `network down at request ${k}` : outcome, calls]).toEqual([k, `network down at request ${k}`, k + 1]);
  }
});

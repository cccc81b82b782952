// FAILS on main, one defect a test:
// - readParquetBloomFilters(ArrayBuffer | null | ...) throws a TypeError (the library's
//   readers take a Uint8Array or an ArrayBuffer and refuse the rest INVALID_ARGUMENT).
// - a range reader resolving to an ArrayBuffer (what fetch's arrayBuffer() gives) is
//   CORRUPT "the reader gave no bytes", though it gave every byte asked.
// - a range reader that never settles: fetchParquetBloomFilters never settles either (a
//   hang; confirmation parts bound each fetch and say UNAVAILABLE).
// - the same file, two paths, two outcomes: a header longer than HEADER_WINDOW (a later
//   writer's extra field) reads from the bytes but is CORRUPT through a range reader.
// - two columns, one `column` name: a top-level "a.b" and the struct field a.b both read
//   as 'a.b', so a caller taking the first 'a.b' asks the other column's filter.
// - a bloom_filter_offset inside the footer itself is read as a filter.
import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { loadParquetModule } from '../parquet/parquet-module.mjs';
import { openDuckDB } from '../parquet/duckdb-parquet.mjs';
import { T, struct, i32, binary, bloomHeader } from '../parquet/thrift-writer.mjs';
import { assemble, columnChunk, fileMetaData, outcomeOf, signature } from './attack-helpers.mjs';

jest.setTimeout(120_000);

let parquet;
let file; // one filter, column 's', holding 'hello'
beforeAll(async () => {
  parquet = await loadParquetModule();
  const filter = parquet.ParquetBloomFilter.empty(64, 'BYTE_ARRAY');
  filter.add('hello');
  const body = [...bloomHeader(64), ...filter.bitset];
  file = assemble(body, fileMetaData([[columnChunk({ offset: 4, length: body.length })]]));
});
afterEach(() => jest.useRealTimers());

test('whole-file reader: an ArrayBuffer reads as its bytes; null, a string, an array are INVALID_ARGUMENT, not TypeError', async () => {
  const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.length);
  const outcomes = {};
  for (const [name, input] of [['ArrayBuffer', buffer], ['null', null], ['undefined', undefined], ['string', 'PAR1'], ['number[]', Array.from(file)]]) {
    try {
      outcomes[name] = await outcomeOf(parquet, () => parquet.readParquetBloomFilters(input));
    } catch (error) {
      outcomes[name] = `${error.constructor.name}: ${error.message}`;
    }
  }
  expect(outcomes).toEqual({ ArrayBuffer: 'read', null: 'INVALID_ARGUMENT', undefined: 'INVALID_ARGUMENT', string: 'INVALID_ARGUMENT', 'number[]': 'INVALID_ARGUMENT' });
});

test('range reader resolving to ArrayBuffers (fetch(...).arrayBuffer()): the same filters', async () => {
  const read = async (offset, length) => file.buffer.slice(file.byteOffset + offset, file.byteOffset + offset + length);
  let outcome;
  try {
    outcome = signature(await parquet.fetchParquetBloomFilters(read, file.length));
  } catch (error) {
    if (!(error instanceof parquet.FilterError)) throw error;
    outcome = `${error.code}: ${error.message}`;
  }
  expect(outcome).toEqual(signature(parquet.readParquetBloomFilters(file)));
});

test('a range reader that never settles: the call settles anyway (a FilterError, UNAVAILABLE) within ten minutes of timers', async () => {
  jest.useFakeTimers();
  let settled = 'pending';
  parquet.fetchParquetBloomFilters(() => new Promise(() => {}), file.length).then(
    () => (settled = 'read'),
    (error) => (settled = error instanceof parquet.FilterError ? error.code : `${error.constructor.name}`),
  );
  await jest.advanceTimersByTimeAsync(10 * 60 * 1000);
  expect(settled).toBe('UNAVAILABLE');
});

test('a header with a 300-byte extra field and no recorded length: both paths read it alike', async () => {
  const filter = parquet.ParquetBloomFilter.empty(32, 'BYTE_ARRAY');
  filter.add('hello');
  const member = struct([[1, T.STRUCT, struct([])]]);
  // Field 5 is unknown to this reader: skipped, as Thrift readers skip a newer writer's fields.
  const header = struct([[1, T.I32, i32(32)], [2, T.STRUCT, member], [3, T.STRUCT, member], [4, T.STRUCT, member], [5, T.BINARY, binary('x'.repeat(300))]]);
  const long = assemble([...header, ...filter.bitset], fileMetaData([[columnChunk({ offset: 4 })]]));
  const whole = signature(parquet.readParquetBloomFilters(long));
  expect(whole).toHaveLength(1);
  let ranged;
  try {
    ranged = signature(await parquet.fetchParquetBloomFilters(async (o, l) => long.slice(o, o + l), long.length));
  } catch (error) {
    if (!(error instanceof parquet.FilterError)) throw error;
    ranged = `${error.code}: ${error.message}`;
  }
  expect(ranged).toEqual(whole);
});

test('DuckDB: a top-level column "a.b" and the struct field a.b get different `column` names', async () => {
  const duck = await openDuckDB();
  try {
    const path = `${duck.directory}/dotted.parquet`;
    await duck.connection.run(`COPY (SELECT 'top' || (i % 5) AS "a.b", {'b': 'nested' || (i % 5)} AS a FROM range(100) t(i)) TO '${path}' (FORMAT parquet)`);
    const filters = parquet.readParquetBloomFilters(new Uint8Array(readFileSync(path)));
    expect(filters).toHaveLength(2);
    expect(filters[0].column).not.toBe(filters[1].column);
  } finally {
    duck.close();
  }
});

test("a bloom_filter_offset inside the footer (a filter made of the footer's own bytes) is CORRUPT", () => {
  const filter = parquet.ParquetBloomFilter.empty(32, 'BYTE_ARRAY');
  filter.add('planted');
  const planted = [...bloomHeader(32), ...filter.bitset]; // 48 bytes: a one-byte binary length
  // FileMetaData field 15 (unknown, skipped) carries the planted bytes; the chunk points at them:
  // 4 (magic) + 0 (no body) + 1 (field header) + 1 (length) = offset 6.
  const metadata = fileMetaData([[columnChunk({ offset: 6, length: planted.length })]], { before: [[15, T.BINARY, [planted.length, ...planted]]] });
  const crafted = assemble([], metadata);
  let outcome;
  try {
    const read = parquet.readParquetBloomFilters(crafted);
    outcome = `read ${read.length}: has('planted') = ${read[0]?.filter.has('planted')}`;
  } catch (error) {
    if (!(error instanceof parquet.FilterError)) throw error;
    outcome = error.code;
  }
  expect(outcome).toBe('CORRUPT');
});

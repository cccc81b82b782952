// The Parquet reader (js/src/parquet) against DuckDB: the filters it reads from a file
// DuckDB wrote answer true for every value of their row group, agree with DuckDB's
// parquet_bloom_probe on absent values key for key, and a filter built here from the
// same values at the same size is DuckDB's bitset byte for byte.
import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { loadParquetModule } from './parquet-module.mjs';
import { ROW_COUNT, stringAt, int64At, absentStringAt, absentInt64At, openDuckDB, writeBloomParquet, bloomMetadata, bloomProber } from './duckdb-parquet.mjs';

jest.setTimeout(300_000);

// DuckDB answers ~1 ms a probe (one prepared call per value): every 40th absent value
// (5,000 per column) by default, all 200k with CBW_PARQUET_PROBE_ALL=1 (~7 minutes).
const PROBE_STEP = process.env.CBW_PARQUET_PROBE_ALL === '1' ? 1 : 40;
// All 200k took over 300 s a column on a loaded machine (~2 ms a probe; batching
// probes with UNION ALL was no faster): the opt-in run gets an hour.
const PROBE_TIMEOUT = PROBE_STEP === 1 ? 3_600_000 : 300_000;

const COLUMNS = [
  { column: 's', sqlType: 'VARCHAR', physicalType: 'BYTE_ARRAY', present: stringAt, absent: absentStringAt },
  { column: 'n', sqlType: 'BIGINT', physicalType: 'INT64', present: int64At, absent: absentInt64At },
];

let parquet;
let duck;
let path;
let bytes;
let chunks;
beforeAll(async () => {
  parquet = await loadParquetModule();
  duck = await openDuckDB();
  path = await writeBloomParquet(duck);
  bytes = new Uint8Array(readFileSync(path));
  chunks = await bloomMetadata(duck, path);
});
afterAll(() => duck?.close());

// Row i of the file is in row group 0 below the first group's row count.
const rowGroupOf = (i) => (i < chunks[0].values ? 0 : 1);

test('the footer gives the places DuckDB reports, and one filter per (row group, column)', () => {
  const places = parquet.readBloomFilterPlaces(bytes);
  expect(places.map((p) => [p.rowGroup, p.column, p.physicalType, p.bloomFilterOffset, p.bloomFilterLength])).toEqual(
    chunks.map((c) => [c.rowGroup, c.column, c.type, c.offset, c.length]),
  );
  const filters = parquet.readParquetBloomFilters(bytes);
  expect(filters.map((f) => `${f.rowGroup}:${f.column}:${f.physicalType}`)).toEqual(['0:s:BYTE_ARRAY', '0:n:INT64', '1:s:BYTE_ARRAY', '1:n:INT64']);
});

test.each(COLUMNS)('$column ($physicalType): true for every value of the row group', ({ column, present }) => {
  const filters = parquet.readParquetBloomFilters(bytes).filter((f) => f.column === column);
  let missed = 0;
  for (let i = 0; i < ROW_COUNT; i++) if (!filters[rowGroupOf(i)].filter.has(present(i))) missed++;
  expect(missed).toBe(0);
});

test.each(COLUMNS)("$column ($physicalType): agrees with DuckDB's parquet_bloom_probe on absent values, key for key", async ({ column, sqlType, absent }) => {
  const filters = parquet.readParquetBloomFilters(bytes).filter((f) => f.column === column);
  const probe = await bloomProber(duck, path, column, sqlType);
  const disagreements = [];
  let positives = 0;
  let probed = 0;
  for (let i = 0; i < ROW_COUNT; i += PROBE_STEP) {
    const excludes = await probe(absent(i));
    probed++;
    for (const [rowGroup, entry] of filters.entries()) {
      const ours = entry.filter.has(absent(i));
      if (ours) positives++;
      if (ours === excludes[rowGroup]) disagreements.push([String(absent(i)), rowGroup, ours]);
    }
  }
  expect(disagreements).toEqual([]);
  // Not a filter that says yes to everything: DuckDB sizes for ~1% at most.
  expect(positives / (2 * probed)).toBeLessThan(0.02);
}, PROBE_TIMEOUT);

test.each(COLUMNS)("$column ($physicalType): built here from the row group's values at DuckDB's size, the bitset is DuckDB's byte for byte", ({ column, physicalType, present }) => {
  const read = parquet.readParquetBloomFilters(bytes).filter((f) => f.column === column);
  for (const [rowGroup, entry] of read.entries()) {
    const duckBitset = entry.filter.bitset;
    const built = parquet.ParquetBloomFilter.empty(duckBitset.length, physicalType);
    for (let i = 0; i < ROW_COUNT; i++) if (rowGroupOf(i) === rowGroup) built.add(present(i));
    expect(Buffer.from(built.bitset).equals(Buffer.from(duckBitset))).toBe(true);
    // And not trivially: one value less changes the bytes.
    const fewer = parquet.ParquetBloomFilter.empty(duckBitset.length, physicalType);
    for (let i = 1; i < ROW_COUNT; i++) if (rowGroupOf(i) === rowGroup && i !== (rowGroup === 0 ? 0 : chunks[0].values)) fewer.add(present(i));
    expect(Buffer.from(fewer.bitset).equals(Buffer.from(duckBitset))).toBe(false);
  }
});

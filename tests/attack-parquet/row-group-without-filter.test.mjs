// FAILS on main: a row group whose column chunk has no Bloom filter is left out of
// readParquetBloomFilters' result, so the skipping pattern js/src/parquet/index.ts
// documents (keep the row groups whose filter says true) skips a row group that holds
// the value. DuckDB writes no filter for a chunk that fell back from dictionary to
// PLAIN encoding (more distinct values than DICTIONARY_SIZE_LIMIT), which is common.
// A row group the reader has no filter for must stay possible (an entry that says
// "unknown", or a filter that answers true), never be dropped silently.
import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { loadParquetModule } from '../parquet/parquet-module.mjs';
import { openDuckDB } from '../parquet/duckdb-parquet.mjs';
import { bloomHeader } from '../parquet/thrift-writer.mjs';
import { assemble, columnChunk, fileMetaData } from './attack-helpers.mjs';

jest.setTimeout(120_000);

let parquet;
beforeAll(async () => {
  parquet = await loadParquetModule();
});

// index.ts's example, verbatim but for the column and the value: the row groups kept.
const keptRowGroups = (filters, column, value) => filters.filter((f) => f.column === column && f.filter.has(value)).map((f) => f.rowGroup);

test("DuckDB: the row group that fell back to PLAIN (no filter) holds the value; the documented pattern must keep it", async () => {
  const duck = await openDuckDB();
  try {
    const path = `${duck.directory}/fallback.parquet`;
    // Row group 0: 10 distinct ids (dictionary, so a filter); row group 1: 2,048 distinct (PLAIN, no filter).
    await duck.connection.run(
      `COPY (SELECT CASE WHEN i < 2048 THEN 'u-' || (i % 10) ELSE 'u-' || i END AS user_id FROM range(4096) t(i) ORDER BY i)
       TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 2048, DICTIONARY_SIZE_LIMIT 1000)`,
    );
    const meta = (await duck.connection.runAndReadAll(`SELECT row_group_id, bloom_filter_offset FROM parquet_metadata('${path}') ORDER BY row_group_id`)).getRows();
    expect(meta.map(([rowGroup, offset]) => [Number(rowGroup), offset === null])).toEqual([[0, false], [1, true]]);
    // DuckDB's own probe keeps row group 1 for 'u-3000' (it is there).
    const probe = (await duck.connection.runAndReadAll(`SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${path}', 'user_id', 'u-3000') ORDER BY row_group_id`)).getRows();
    expect(probe.map(([rowGroup, excludes]) => [Number(rowGroup), excludes])).toEqual([[0, true], [1, false]]);

    const bytes = new Uint8Array(readFileSync(path));
    expect(keptRowGroups(parquet.readParquetBloomFilters(bytes), 'user_id', 'u-3000')).toContain(1);
    expect(keptRowGroups(await parquet.fetchParquetBloomFilters(async (o, l) => bytes.slice(o, o + l), bytes.length), 'user_id', 'u-3000')).toContain(1);
  } finally {
    duck.close();
  }
});

test('a ColumnChunk with neither meta_data nor crypto_metadata is CORRUPT, not dropped (a bit flip in its field header does this)', () => {
  const filter = parquet.ParquetBloomFilter.empty(32, 'BYTE_ARRAY');
  filter.add('x');
  const body = [...bloomHeader(32), ...filter.bitset];
  const file = assemble(body, fileMetaData([[columnChunk({ offset: 4, length: body.length })], [columnChunk({ meta: false })]]));
  let outcome;
  try {
    outcome = keptRowGroups(parquet.readParquetBloomFilters(file), 's', 'x');
  } catch (error) {
    if (!(error instanceof parquet.FilterError)) throw error;
    outcome = error.code;
  }
  // Either refused, or row group 1 (nothing known about it) kept.
  expect([['CORRUPT'], [0, 1]]).toContainEqual(Array.isArray(outcome) ? outcome : [outcome]);
});

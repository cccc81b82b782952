// Parquet files written by DuckDB (through its npm package, @duckdb/node-api) and
// DuckDB's own answers about their Bloom filters, for the parquet suites to compare with.
//
// DuckDB writes a split-block Bloom filter only for a dictionary-encoded column chunk,
// and gives up on the dictionary past DICTIONARY_SIZE_LIMIT distinct values (default
// far under 200k): the limit is raised so every column chunk here keeps its dictionary
// and so its filter. A row group holds 122,880 rows by default: 200k rows make two.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

export const ROW_COUNT = 200_000;
// The values of row i: a distinct string and a distinct INT64 (negative ones included,
// so the little-endian two's complement encoding is exercised).
export const stringAt = (i) => `key-${i}`;
export const int64At = (i) => BigInt(i) * 7919n - 500_000_000n;
export const absentStringAt = (i) => `absent-${i}`;
// Absent: i * 7919 + 3 equals a present j * 7919 - 500000000 only if 7919 divides
// 500000003, which it does not (remainder 2262).
export const absentInt64At = (i) => BigInt(i) * 7919n + 3n;

export async function openDuckDB() {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const directory = mkdtempSync(join(tmpdir(), 'cbw-parquet-'));
  return {
    connection,
    directory,
    close() {
      connection.closeSync?.();
      instance.closeSync?.();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

// Writes ROW_COUNT rows (s VARCHAR, n BIGINT) and returns the file's path.
export async function writeBloomParquet(duck, name = 'bloom.parquet') {
  const path = join(duck.directory, name);
  await duck.connection.run(
    `COPY (SELECT 'key-' || i AS s, i::BIGINT * 7919 - 500000000 AS n FROM range(${ROW_COUNT}) t(i) ORDER BY i)
     TO '${path}' (FORMAT parquet, DICTIONARY_SIZE_LIMIT 1000000)`,
  );
  return path;
}

// DuckDB's footer view: one row per (row group, column) with the filter's place.
export async function bloomMetadata(duck, path) {
  const reader = await duck.connection.runAndReadAll(
    `SELECT row_group_id, path_in_schema, type, bloom_filter_offset, bloom_filter_length, num_values
     FROM parquet_metadata('${path}') ORDER BY row_group_id, column_id`,
  );
  return reader.getRowObjects().map((row) => ({
    rowGroup: Number(row.row_group_id),
    column: row.path_in_schema,
    type: row.type,
    offset: row.bloom_filter_offset === null ? null : Number(row.bloom_filter_offset),
    length: row.bloom_filter_length === null ? null : Number(row.bloom_filter_length),
    values: Number(row.num_values),
  }));
}

// A prober of DuckDB's parquet_bloom_probe for one column: probe(value) gives, per row
// group, whether DuckDB's filter excludes the value ([excludes of row group 0, ...]).
// The table function takes literals only (no lateral join), so it is one prepared call
// per value (~1 ms each).
export async function bloomProber(duck, path, column, sqlType) {
  const statement = await duck.connection.prepare(
    `SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${path}', '${column}', $1::${sqlType}) ORDER BY row_group_id`,
  );
  return async (value) => {
    if (typeof value === 'bigint') statement.bindBigInt(1, value);
    else statement.bindVarchar(1, value);
    const reader = await statement.runAndReadAll();
    return reader.getRows().map((row) => row[1]);
  };
}

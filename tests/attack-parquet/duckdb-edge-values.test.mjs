// Held on main (a guard): every edge value a user writes through DuckDB, bound from JS
// (so the JS value is the value written), is found by the reader in each row group, in
// every JS form the reader takes (string and bytes, number and bigint), nested and
// nullable columns included; and on absent values the reader and DuckDB's
// parquet_bloom_probe agree key for key on the INT32, INT64, DOUBLE, FLOAT, DATE and
// VARCHAR columns (DECIMAL left out: DuckDB 1.5's probe excludes present decimals).
import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { loadParquetModule } from '../parquet/parquet-module.mjs';
import { openDuckDB } from '../parquet/duckdb-parquet.mjs';

jest.setTimeout(300_000);

const utf8 = new TextEncoder();
const STRINGS = ['', ' ', 'a', 'héllo', '日本語', '😀 emoji', 'a\u0000b', 'x'.repeat(31), 'x'.repeat(32), 'x'.repeat(33), 'é'.repeat(100), 'long-' + 'y'.repeat(100_000), '\ud7ff\ue000\uffff', 'Ω≈ç√∫'];
const BLOBS = [new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(0xff, 0xfe, 0x80), Uint8Array.from({ length: 300 }, (_, i) => (i * 91) & 255)];
const INT32S = [-2147483648, 2147483647, 0, -1, 1, -32768, 65535];
const INT64S = [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 53n, -(2n ** 53n) - 1n, 123456789012345n];
const DOUBLES = [-0, Number.NaN, Infinity, -Infinity, Number.MIN_VALUE, 2.2250738585072014e-308, Number.MAX_VALUE, 0.1, 3, -1e300];
const FLOATS = [Number.NaN, Infinity, -Infinity, Math.fround(1e-45), Math.fround(3.4028234663852886e38), Math.fround(0.1), -0, 7];
const DATES = [-719162, 0, 18262, 2932896]; // days from the epoch: 0001-01-01, 1970-01-01, 2020-01-01, 9999-12-31
const K = Math.max(STRINGS.length, BLOBS.length, INT32S.length, INT64S.length, DOUBLES.length, FLOATS.length, DATES.length);
const at = (list, k) => list[k % list.length];

let parquet;
let duck;
let path;
let filters; // column -> [filter of row group 0, 1, ...]
beforeAll(async () => {
  parquet = await loadParquetModule();
  duck = await openDuckDB();
  await duck.connection.run('CREATE TABLE vals (k INTEGER, s VARCHAR, b BLOB, i32 INTEGER, i16 SMALLINT, i64 BIGINT, d DOUBLE, f FLOAT, dt DATE)');
  const insert = await duck.connection.prepare("INSERT INTO vals VALUES ($1, $2, $3, $4, $5, $6, $7, $8, DATE '1970-01-01' + $9::INTEGER)");
  for (let k = 0; k < K; k++) {
    insert.bindInteger(1, k);
    insert.bindVarchar(2, at(STRINGS, k));
    insert.bindBlob(3, at(BLOBS, k));
    insert.bindInteger(4, at(INT32S, k));
    insert.bindSmallInt(5, (k * 7919) % 32768 - 16384);
    insert.bindBigInt(6, at(INT64S, k));
    insert.bindDouble(7, at(DOUBLES, k));
    insert.bindFloat(8, at(FLOATS, k));
    insert.bindInteger(9, at(DATES, k));
    await insert.run();
  }
  path = `${duck.directory}/edges.parquet`;
  // 3 row groups of 2,048 rows, each holding every value many times (dictionary: a filter each).
  await duck.connection.run(
    `COPY (SELECT vals.* EXCLUDE (k),
                  {'inner': vals.s, 'n': vals.i64} AS st, [vals.i32, vals.i32] AS l,
                  CASE WHEN r % 3 = 0 THEN NULL ELSE vals.s END AS withnull
           FROM range(${3 * 2048}) t(r) JOIN vals ON vals.k = r % ${K} ORDER BY r)
     TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`,
  );
  filters = {};
  for (const f of parquet.readParquetBloomFilters(new Uint8Array(readFileSync(path)))) (filters[f.column] ??= [])[f.rowGroup] = f.filter;
});
afterAll(() => duck?.close());

test('every column of the file has a filter in each of its 3 row groups', () => {
  const columns = Object.keys(filters).sort();
  expect(columns).toEqual(['b', 'd', 'dt', 'f', 'i16', 'i32', 'i64', 'l.list.element', 's', 'st.inner', 'st.n', 'withnull'].sort());
  for (const column of columns) expect([column, filters[column].filter(Boolean).length]).toEqual([column, 3]);
});

function missing(column, forms) {
  const misses = [];
  for (const [rowGroup, filter] of filters[column].entries()) {
    for (const value of forms) if (filter.has(value) !== true) misses.push([rowGroup, typeof value === 'string' ? value.slice(0, 20) : String(value)]);
  }
  return misses;
}

test.each([
  ['s', () => STRINGS.flatMap((s) => [s, utf8.encode(s)])],
  ['withnull', () => STRINGS.flatMap((s) => [s, utf8.encode(s)])],
  ['st.inner', () => STRINGS],
  ['b', () => BLOBS],
  ['i32', () => INT32S],
  ['l.list.element', () => INT32S],
  ['i16', () => Array.from({ length: K }, (_, k) => (k * 7919) % 32768 - 16384)],
  ['i64', () => INT64S.flatMap((v) => (v >= -(2n ** 53n) + 1n && v <= 2n ** 53n - 1n ? [v, Number(v)] : [v]))],
  ['st.n', () => INT64S],
  ['d', () => DOUBLES],
  ['f', () => FLOATS],
  ['dt', () => DATES],
])('%s: every value written is found in every row group, in each JS form', (column, forms) => {
  expect(missing(column, forms())).toEqual([]);
});

test.each([
  ['s', 'VARCHAR', (i) => `absent-${i}-${'é'.repeat(i % 40)}`, (v, st) => st.bindVarchar(1, v)],
  ['i32', 'INTEGER', (i) => i * 104729 - 2 ** 30, (v, st) => st.bindInteger(1, v)],
  ['i64', 'BIGINT', (i) => BigInt(i) * 7919n ** 4n - 2n ** 62n, (v, st) => st.bindBigInt(1, v)],
  ['d', 'DOUBLE', (i) => i / 7 + 1e-9, (v, st) => st.bindDouble(1, v)],
  ['f', 'FLOAT', (i) => Math.fround(i / 7 + 0.001), (v, st) => st.bindFloat(1, v)],
  ['dt', 'DATE', (i) => 40000 + i, (v, st) => st.bindInteger(1, v)],
])("%s: absent values, the reader and DuckDB's parquet_bloom_probe agree key for key", async (column, sqlType, absent, bind) => {
  const statement = await duck.connection.prepare(
    `SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${path}', '${column}', ${column === 'dt' ? "DATE '1970-01-01' + $1::INTEGER" : `$1::${sqlType}`}) ORDER BY row_group_id`,
  );
  const disagreements = [];
  let positives = 0;
  const probes = 400;
  for (let i = 0; i < probes; i++) {
    const value = absent(i);
    bind(value, statement);
    const excludes = (await statement.runAndReadAll()).getRows().map((row) => row[1]);
    expect(excludes).toHaveLength(3);
    for (const [rowGroup, filter] of filters[column].entries()) {
      const ours = filter.has(value);
      if (ours) positives++;
      if (ours === excludes[rowGroup]) disagreements.push([String(value), rowGroup, ours]);
    }
  }
  expect(disagreements).toEqual([]);
  expect(positives).toBeLessThan(3 * probes * 0.05); // not a filter that says yes to all
});

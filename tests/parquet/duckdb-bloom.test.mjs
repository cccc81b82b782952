// DuckDB writes split-block Bloom filters into the Parquet files of tests/parquet (the
// harness the reader's suites compare with): each column chunk has one, and DuckDB's own
// probe never excludes a value the row group holds and excludes most absent ones.
import { jest } from '@jest/globals';
import { ROW_COUNT, stringAt, int64At, absentStringAt, absentInt64At, openDuckDB, writeBloomParquet, bloomMetadata, bloomProber } from './duckdb-parquet.mjs';

jest.setTimeout(120_000);

let duck;
let path;
beforeAll(async () => {
  duck = await openDuckDB();
  path = await writeBloomParquet(duck);
});
afterAll(() => duck?.close());

test('every column chunk of the file has a Bloom filter', async () => {
  const chunks = await bloomMetadata(duck, path);
  expect(chunks.map((c) => `${c.rowGroup}:${c.column}:${c.type}`)).toEqual(['0:s:BYTE_ARRAY', '0:n:INT64', '1:s:BYTE_ARRAY', '1:n:INT64']);
  expect(chunks.reduce((sum, c) => sum + c.values, 0)).toBe(2 * ROW_COUNT);
  for (const chunk of chunks) {
    expect(chunk.offset).toBeGreaterThan(4);
    expect(chunk.length).toBeGreaterThan(32);
  }
});

test("DuckDB's probe keeps the row group of a present value and excludes most absent ones", async () => {
  const chunks = await bloomMetadata(duck, path);
  const firstGroupRows = chunks[0].values;
  for (const [column, sqlType, present, absent] of [
    ['s', 'VARCHAR', stringAt, absentStringAt],
    ['n', 'BIGINT', int64At, absentInt64At],
  ]) {
    const probe = await bloomProber(duck, path, column, sqlType);
    for (let i = 0; i < ROW_COUNT; i += 997) {
      const excludes = await probe(present(i));
      expect(excludes[i < firstGroupRows ? 0 : 1]).toBe(false);
    }
    let excluded = 0;
    const probes = 500;
    for (let i = 0; i < probes; i++) excluded += (await probe(absent(i))).filter(Boolean).length;
    expect(excluded / (2 * probes)).toBeGreaterThan(0.9);
  }
});

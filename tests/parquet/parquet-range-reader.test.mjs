// fetchParquetBloomFilters: the same filters as from the whole file's bytes, through a
// range reader that is asked for the tail, the magic, the footer and the filters only,
// never a byte outside the file; a reader that returns short, and hostile files, are
// typed errors.
import { readFileSync } from 'node:fs';
import { loadParquetModule } from './parquet-module.mjs';
import { bloomHeader, parquetFile } from './thrift-writer.mjs';
import { openDuckDB } from './duckdb-parquet.mjs';

let parquet;
let file;
beforeAll(async () => {
  parquet = await loadParquetModule();
  const duck = await openDuckDB();
  try {
    const path = `${duck.directory}/range.parquet`;
    // Four row groups of 5,000 rows: a caller would skip three of them.
    await duck.connection.run(`COPY (SELECT 'k' || i AS s, i::BIGINT AS n FROM range(20000) t(i)) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 5000, DICTIONARY_SIZE_LIMIT 100000)`);
    file = new Uint8Array(readFileSync(path));
  } finally {
    duck.close();
  }
});

function recordingReader(bytes, { short = false } = {}) {
  const requests = [];
  const read = async (offset, length) => {
    requests.push([offset, length]);
    if (offset < 0 || length < 0 || offset + length > bytes.length) throw new Error(`out of the file: ${offset}+${length}`);
    return bytes.slice(offset, offset + length - (short ? 1 : 0));
  };
  return { read, requests };
}

async function codeOf(run) {
  try {
    await run();
  } catch (error) {
    if (error instanceof parquet.FilterError) return error.code;
    throw error;
  }
  return null;
}

test('the filters of the bytes, fetched with the footer and the filters only', async () => {
  const { read, requests } = recordingReader(file);
  const fetched = await parquet.fetchParquetBloomFilters(read, file.length);
  const whole = parquet.readParquetBloomFilters(file);
  expect(fetched.map((f) => [f.rowGroup, f.column, f.physicalType, Buffer.from(f.filter.bitset).toString('base64')])).toEqual(
    whole.map((f) => [f.rowGroup, f.column, f.physicalType, Buffer.from(f.filter.bitset).toString('base64')]),
  );
  expect(fetched).toHaveLength(8);
  const footerLength = new DataView(file.buffer, file.byteOffset).getUint32(file.length - 8, true);
  const filterBytes = parquet.readBloomFilterPlaces(file).reduce((sum, p) => sum + p.bloomFilterLength, 0);
  const requested = requests.reduce((sum, [, length]) => sum + length, 0);
  expect(requested).toBe(8 + 4 + footerLength + filterBytes);
  expect(requested).toBeLessThan(file.length / 2);
  // Skipping: the row group that may hold 'k12345' is the only one kept.
  const kept = fetched.filter((f) => f.column === 's' && f.filter.has('k12345')).map((f) => f.rowGroup);
  expect(kept).toEqual([2]);
});

test('a file whose footer records no filter length: the header is read, then the bitset', async () => {
  const filter = parquet.ParquetBloomFilter.empty(1024, 'BYTE_ARRAY');
  filter.add('hello');
  const body = [...bloomHeader(1024), ...filter.bitset];
  const bytes = parquetFile(body, [{ name: 's', type: 6, offset: 4 }]);
  const { read, requests } = recordingReader(bytes);
  const [read0] = await parquet.fetchParquetBloomFilters(read, bytes.length);
  expect(read0.filter.has('hello')).toBe(true);
  expect(Buffer.from(read0.filter.bitset).equals(Buffer.from(filter.bitset))).toBe(true);
  expect(requests.at(-1)).toEqual([4 + bloomHeader(1024).length, 1024]);
});

test('a reader that returns short, a wrong file length and hostile files are typed errors', async () => {
  expect(await codeOf(() => parquet.fetchParquetBloomFilters(recordingReader(file, { short: true }).read, file.length))).toBe('CORRUPT');
  expect(await codeOf(() => parquet.fetchParquetBloomFilters(recordingReader(file).read, -1))).toBe('INVALID_ARGUMENT');
  expect(await codeOf(() => parquet.fetchParquetBloomFilters(recordingReader(file).read, 1.5))).toBe('INVALID_ARGUMENT');
  expect(await codeOf(() => parquet.fetchParquetBloomFilters(recordingReader(file).read, 11))).toBe('CORRUPT');
  const body = [...bloomHeader(32), ...new Array(32).fill(0)];
  for (const [columns, code] of [
    [[{ name: 's', type: 6, offset: 4, length: 1e6 }], 'CORRUPT'],
    [[{ name: 's', type: 6, offset: 1e9 }], 'CORRUPT'],
    [[{ name: 's', type: 6, offset: 4, length: body.length - 1 }], 'CORRUPT'],
  ]) {
    const bytes = parquetFile(body, columns);
    expect(await codeOf(() => parquet.fetchParquetBloomFilters(recordingReader(bytes).read, bytes.length))).toBe(code);
  }
  const huge = parquetFile([...bloomHeader(2 ** 30), ...new Array(32).fill(0)], [{ name: 's', type: 6, offset: 4 }]);
  expect(await codeOf(() => parquet.fetchParquetBloomFilters(recordingReader(huge).read, huge.length))).toBe('CORRUPT');
  const encrypted = parquetFile(body, [{ name: 's', type: 6, offset: 4 }]);
  encrypted.set([0x50, 0x41, 0x52, 0x45], encrypted.length - 4);
  expect(await codeOf(() => parquet.fetchParquetBloomFilters(recordingReader(encrypted).read, encrypted.length))).toBe('UNSUPPORTED');
});

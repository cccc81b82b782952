// FAILS on main: read-filters.ts promises "a filter never costs more memory than the
// file's own bytes", but every column chunk's bloom_filter_offset may name the same
// region: a 70 KB file of 256 chunks pointing at one 64 KiB filter reads 16 MiB of
// bitsets (238x the file), and the range reader fetches that region 256 times. Scaled
// up (1 MiB filter, 20,000 chunks: a 1.4 MB file) the process aborts with V8's fatal
// "JavaScript heap out of memory" under a 4 GB address-space limit: a crash, not a
// FilterError. Spec filters never overlap (each is its chunk's own bytes before the
// footer): overlapping regions are CORRUPT.
import { loadParquetModule } from '../parquet/parquet-module.mjs';
import { T, struct, i32, i64, list, binary, bloomHeader } from '../parquet/thrift-writer.mjs';
import { assemble, recordingReader } from './attack-helpers.mjs';

let parquet;
beforeAll(async () => {
  parquet = await loadParquetModule();
});

// A file whose `chunks` column chunks (one row group) all point at one filter of `numBytes` at offset 4.
function sharedRegionFile(numBytes, chunks) {
  const header = bloomHeader(numBytes);
  const body = new Uint8Array(header.length + numBytes);
  body.set(header);
  const chunk = struct([[3, T.STRUCT, struct([[1, T.I32, i32(6)], [3, T.LIST, list(T.BINARY, [binary('s')])], [14, T.I64, i64(4)], [15, T.I32, i32(body.length)]])]]);
  const columns = new Array(chunks).fill(chunk);
  const metadata = struct([[4, T.LIST, list(T.STRUCT, [struct([[1, T.LIST, list(T.STRUCT, columns)]])])]]);
  return assemble(body, metadata);
}

test('256 chunks naming one 64 KiB filter: CORRUPT, or bitsets within the file\'s bytes (whole-file reader)', async () => {
  const file = sharedRegionFile(64 * 1024, 256);
  expect(file.length).toBeLessThan(80_000);
  let outcome;
  try {
    const filters = parquet.readParquetBloomFilters(file);
    outcome = filters.reduce((sum, f) => sum + f.filter.bitset.length, 0) <= file.length ? 'within the file' : `${filters.length} filters, ${filters.reduce((sum, f) => sum + f.filter.bitset.length, 0)} bitset bytes`;
  } catch (error) {
    if (!(error instanceof parquet.FilterError)) throw error;
    outcome = error.code;
  }
  expect(['CORRUPT', 'within the file']).toContain(outcome);
});

test('the same through a range reader: CORRUPT, or no more bytes fetched than the file has', async () => {
  const file = sharedRegionFile(64 * 1024, 256);
  const { read, requests } = recordingReader(file);
  let outcome;
  try {
    await parquet.fetchParquetBloomFilters(read, file.length);
    const fetched = requests.reduce((sum, [, length]) => sum + length, 0);
    outcome = fetched <= file.length ? 'within the file' : `${fetched} bytes fetched from a ${file.length}-byte file`;
  } catch (error) {
    if (!(error instanceof parquet.FilterError)) throw error;
    outcome = error.code;
  }
  expect(['CORRUPT', 'within the file']).toContain(outcome);
});

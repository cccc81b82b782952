// FAILS on main: single bit flips in a DuckDB footer that read without an error but give
// other filters. Of the 2,072 flips of a 259-byte footer, ~170 read "fine" and drop a
// column's filter (or all of them), rename the column, or change its physical type, so a
// value the file holds is no longer found (with index.ts's skipping pattern: its row
// group is skipped). The reader checks no required field (FileMetaData.row_groups,
// ColumnChunk.meta_data when there is no crypto_metadata, ...) and never compares
// path_in_schema and type with the schema, so a flip that makes a parser resync reads
// as a smaller, different footer. Bitset flips are not counted: the format has no
// checksum there, nothing can catch those.
// (parquet3: a flip that leaves a chunk with no filter at all, so `has` says true, is
// accepted below: it cannot skip a row group. The 19 left after the checks are all that.)
// Measured on a scratch copy of the reader: a STOP that must be the byte 0x00, the
// required fields of FileMetaData, RowGroup, ColumnChunk and ColumnMetaData, and no
// bytes after FileMetaData leave 34 of the 185; 22 rename or retype a column (caught by
// comparing path_in_schema and type with the schema's leaves), 12 lose the
// bloom_filter_offset field (a chunk without a filter: row-group-without-filter.test.mjs).
import { jest } from '@jest/globals';
import { loadParquetModule } from '../parquet/parquet-module.mjs';
import { T, struct, i32, i64, list, binary } from '../parquet/thrift-writer.mjs';
import { assemble, duckdbFile, fileMetaData, outcomeOf, signature } from './attack-helpers.mjs';

jest.setTimeout(180_000);

let parquet;
let original;
beforeAll(async () => {
  parquet = await loadParquetModule();
  original = await duckdbFile(`SELECT 'k' || (i % 40) AS s, (i % 40)::BIGINT AS n FROM range(400) t(i)`, 'FORMAT parquet');
});

test('every single-bit flip of the footer is a typed error or reads the very same filters', () => {
  const base = signature(parquet.readParquetBloomFilters(original));
  expect(base).toHaveLength(2);
  const footerLength = new DataView(original.buffer, original.byteOffset).getUint32(original.length - 8, true);
  const footerStart = original.length - 8 - footerLength;
  const acceptedAndDifferent = [];
  let flips = 0;
  for (let at = footerStart; at < original.length - 8; at++) {
    for (let bit = 0; bit < 8; bit++) {
      const file = original.slice();
      file[at] ^= 1 << bit;
      flips++;
      let read;
      try {
        read = parquet.readParquetBloomFilters(file);
      } catch (error) {
        if (!(error instanceof parquet.FilterError)) throw error;
        continue;
      }
      const now = signature(read);
      // A flip that only loses a chunk's filter fields (a delta moving bloom_filter_offset
      // and _length to ids this reader does not know) leaves an entry with no filter, which
      // answers true to every value: its row group is fetched, never skipped. That is the
      // safe reading row-group-without-filter.test.mjs asks for, not a different filter.
      const safe = now.length === base.length && read.every((f, i) => now[i] === base[i] || (!f.filter.known && base[i].startsWith(`${f.rowGroup}|${f.column}|${f.physicalType}|`)));
      if (!safe) {
        acceptedAndDifferent.push(`footer byte ${at - footerStart} bit ${bit}: ${read.map((f) => `${f.rowGroup}:${f.column}:${f.physicalType}`).join(', ') || 'no filters'}`);
      }
    }
  }
  expect(flips).toBe(footerLength * 8);
  // Listed in full on failure: each one a footer this reader accepted with other filters.
  expect(acceptedAndDifferent).toEqual([]);
});

test('a FileMetaData without row_groups (a required field) is CORRUPT, not a file without filters', async () => {
  const metadata = struct([[1, T.I32, i32(2)], [3, T.I64, i64(0)]]);
  const file = assemble([], metadata);
  expect(await outcomeOf(parquet, () => parquet.readParquetBloomFilters(file))).toBe('CORRUPT');
});

test("footer byte 0's bit 2 (DuckDB file): version's i32 header becomes a bool, the parser resyncs and reads no filters", async () => {
  const footerLength = new DataView(original.buffer, original.byteOffset).getUint32(original.length - 8, true);
  const file = original.slice();
  file[original.length - 8 - footerLength] ^= 0x04;
  expect(await outcomeOf(parquet, () => parquet.readParquetBloomFilters(file))).toBe('CORRUPT');
});

test('a field header byte of type STOP with a nonzero delta (0x10) is CORRUPT, not the end of the struct', async () => {
  // The compact protocol's STOP is the byte 0x00; 0x10 is no field header at all. Read as
  // STOP, it ends FileMetaData at once and the file reads as having no filters.
  const valid = fileMetaData([[]]);
  const file = assemble([], [0x10, ...valid]);
  expect(await outcomeOf(parquet, () => parquet.readParquetBloomFilters(file))).toBe('CORRUPT');
});

// From a Parquet file's bytes to one Bloom filter per (row group, column): the
// footer gives each column chunk's filter offset (and length, when recorded),
// the BloomFilterHeader there gives the bitset's size, and the bitset follows.
// Every offset and size is checked against the file before anything is read or
// allocated, so a filter never costs more memory than the file's own bytes.
import { FilterError } from '../errors.js';
import { readBloomFilterHeader } from './bloom-filter-header.js';
import { readBloomFilterPlaces, type ParquetPhysicalType } from './footer.js';
import { ParquetBloomFilter } from './split-block-filter.js';

export interface ParquetColumnBloomFilter {
  rowGroup: number;
  /** The column's path in the schema, joined with '.'. */
  column: string;
  physicalType: ParquetPhysicalType;
  filter: ParquetBloomFilter;
}

function corrupt(where: string, detail: string): FilterError {
  return new FilterError('CORRUPT', `Parquet Bloom filter of ${where}: ${detail}`);
}

/**
 * The Bloom filters of a whole Parquet file (its bytes), in footer order; a
 * column chunk without one (or stored in another file) is left out. Hostile
 * bytes are a FilterError: CORRUPT, or UNSUPPORTED for an encrypted footer or
 * a filter of another algorithm, hash or compression than the spec's.
 */
export function readParquetBloomFilters(bytes: Uint8Array): ParquetColumnBloomFilter[] {
  const filters: ParquetColumnBloomFilter[] = [];
  for (const place of readBloomFilterPlaces(bytes)) {
    if (place.bloomFilterOffset === undefined || place.filePath !== undefined) continue;
    const where = `row group ${place.rowGroup}, column ${place.column}`;
    const offset = place.bloomFilterOffset;
    let end = bytes.length;
    if (place.bloomFilterLength !== undefined) {
      end = offset + place.bloomFilterLength;
      if (end > bytes.length) throw corrupt(where, `offset ${offset} + length ${place.bloomFilterLength} is past the end of the file (${bytes.length} bytes)`);
    }
    if (offset >= end) throw corrupt(where, `offset ${offset} is outside the file (${bytes.length} bytes)`);
    const header = readBloomFilterHeader(bytes, offset, end);
    const bitsetStart = offset + header.headerLength;
    if (header.numBytes < 0 || header.numBytes > end - bitsetStart) {
      throw corrupt(where, `numBytes ${header.numBytes} is past the filter's end (${end - bitsetStart} bytes left)`);
    }
    const filter = new ParquetBloomFilter(bytes.subarray(bitsetStart, bitsetStart + header.numBytes), place.physicalType);
    filters.push({ rowGroup: place.rowGroup, column: place.column, physicalType: place.physicalType, filter });
  }
  return filters;
}

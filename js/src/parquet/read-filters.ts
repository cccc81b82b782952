// From a Parquet file to one Bloom filter per (row group, column): the footer
// gives each column chunk's filter offset (and length, when recorded), the
// BloomFilterHeader there gives the bitset's size, and the bitset follows.
// Every offset and size is checked against the file before anything is read or
// allocated, so a filter never costs more memory than the file's own bytes.
//
// Two ways in: the whole file's bytes, or a range reader (an HTTP Range
// request, a file handle) that fetches the tail, the footer and then only the
// filters, so a caller can skip row groups before fetching them.
import { FilterError } from '../errors.js';
import { readBloomFilterHeader } from './bloom-filter-header.js';
import {
  checkHeadMagic,
  footerLengthFromTail,
  parseFileMetaData,
  readBloomFilterPlaces,
  type ColumnChunkBloomPlace,
  type ParquetPhysicalType,
} from './footer.js';
import { MAX_BITSET_BYTES, ParquetBloomFilter } from './split-block-filter.js';

/** One column chunk's filter and where it is. */
export interface ParquetColumnBloomFilter {
  /** The row group's index in the footer, from 0. */
  rowGroup: number;
  /** The column's path in the schema, joined with '.'. */
  column: string;
  /** The column's physical type. */
  physicalType: ParquetPhysicalType;
  /** The filter: `filter.has(value)` false means the row group does not hold `value`. */
  filter: ParquetBloomFilter;
}

/** Reads `length` bytes at `offset` of the file (exactly that many: fewer is CORRUPT). */
export type ParquetRangeReader = (offset: number, length: number) => Promise<Uint8Array>;

/** Bytes read for a header whose filter length the footer does not give: the spec's header is ~15, at most ~20. */
const HEADER_WINDOW = 256;
/** A footer this large is not read through a range reader (real ones are KBs to a few MBs). */
export const MAX_FETCHED_FOOTER_BYTES = 64 * 1024 * 1024;

const where = (place: ColumnChunkBloomPlace) => `row group ${place.rowGroup}, column ${place.column}`;
const corrupt = (place: ColumnChunkBloomPlace, detail: string) => new FilterError('CORRUPT', `Parquet Bloom filter of ${where(place)}: ${detail}`);

/** The chunk's filter region [offset, end) in a file of `fileLength` bytes; end is the file's when the length is not recorded. */
function filterRegion(place: ColumnChunkBloomPlace, fileLength: number): { offset: number; end: number } {
  const offset = place.bloomFilterOffset!;
  const end = place.bloomFilterLength === undefined ? fileLength : offset + place.bloomFilterLength;
  if (end > fileLength) throw corrupt(place, `offset ${offset} + length ${place.bloomFilterLength} is past the end of the file (${fileLength} bytes)`);
  if (offset >= end) throw corrupt(place, `offset ${offset} is outside the file (${fileLength} bytes)`);
  return { offset, end };
}

function checkNumBytes(place: ColumnChunkBloomPlace, numBytes: number, bytesLeft: number): void {
  if (numBytes < 0 || numBytes > bytesLeft) throw corrupt(place, `numBytes ${numBytes} is past the filter's end (${bytesLeft} bytes left)`);
}

function entry(place: ColumnChunkBloomPlace, bitset: Uint8Array): ParquetColumnBloomFilter {
  return { rowGroup: place.rowGroup, column: place.column, physicalType: place.physicalType, filter: new ParquetBloomFilter(bitset, place.physicalType) };
}

const hasLocalFilter = (place: ColumnChunkBloomPlace) => place.bloomFilterOffset !== undefined && place.filePath === undefined;

/**
 * The Bloom filters of a whole Parquet file (its bytes), in footer order; a
 * column chunk without one (or stored in another file) is left out. Hostile
 * bytes are a FilterError: CORRUPT, or UNSUPPORTED for an encrypted footer or
 * a filter of another algorithm, hash or compression than the spec's.
 */
export function readParquetBloomFilters(bytes: Uint8Array): ParquetColumnBloomFilter[] {
  const filters: ParquetColumnBloomFilter[] = [];
  for (const place of readBloomFilterPlaces(bytes)) {
    if (!hasLocalFilter(place)) continue;
    const { offset, end } = filterRegion(place, bytes.length);
    const header = readBloomFilterHeader(bytes, offset, end);
    const bitsetStart = offset + header.headerLength;
    checkNumBytes(place, header.numBytes, end - bitsetStart);
    filters.push(entry(place, bytes.subarray(bitsetStart, bitsetStart + header.numBytes)));
  }
  return filters;
}

/**
 * The same filters through `read`, for a file of `fileLength` bytes: reads its
 * first 4 and last 8 bytes, the footer, then each filter (header and bitset),
 * and nothing else. A reader that returns fewer bytes than asked is CORRUPT.
 */
export async function fetchParquetBloomFilters(read: ParquetRangeReader, fileLength: number): Promise<ParquetColumnBloomFilter[]> {
  if (!Number.isSafeInteger(fileLength) || fileLength < 0) {
    throw new FilterError('INVALID_ARGUMENT', `fileLength must be a byte count, not ${fileLength}`);
  }
  const readExactly = async (offset: number, length: number, what: string): Promise<Uint8Array> => {
    const bytes = await read(offset, length);
    if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
      throw new FilterError('CORRUPT', `Parquet file: the reader gave ${bytes instanceof Uint8Array ? bytes.length : 'no'} bytes for the ${what} (${length} at ${offset})`);
    }
    return bytes;
  };
  if (fileLength < 12) throw new FilterError('CORRUPT', `Parquet file: ${fileLength} bytes is too short for a Parquet file`);
  const footerLength = footerLengthFromTail(await readExactly(fileLength - 8, 8, 'tail'), fileLength);
  if (footerLength > MAX_FETCHED_FOOTER_BYTES) {
    throw new FilterError('UNSUPPORTED', `Parquet file: a footer of ${footerLength} bytes is more than the ${MAX_FETCHED_FOOTER_BYTES} this reader fetches`);
  }
  checkHeadMagic(await readExactly(0, 4, 'magic'));
  const footer = await readExactly(fileLength - 8 - footerLength, footerLength, 'footer');
  const filters: ParquetColumnBloomFilter[] = [];
  for (const place of parseFileMetaData(footer)) {
    if (!hasLocalFilter(place)) continue;
    const { offset, end } = filterRegion(place, fileLength);
    if (place.bloomFilterLength !== undefined) {
      // Header and bitset in one read of the recorded length (bounded by the spec's maximum).
      if (place.bloomFilterLength > MAX_BITSET_BYTES + HEADER_WINDOW) throw corrupt(place, `length ${place.bloomFilterLength} is more than a filter can be`);
      const region = await readExactly(offset, end - offset, `Bloom filter of ${where(place)}`);
      const header = readBloomFilterHeader(region, 0, region.length);
      checkNumBytes(place, header.numBytes, region.length - header.headerLength);
      filters.push(entry(place, region.subarray(header.headerLength, header.headerLength + header.numBytes)));
    } else {
      const window = await readExactly(offset, Math.min(HEADER_WINDOW, end - offset), `Bloom filter header of ${where(place)}`);
      const header = readBloomFilterHeader(window, 0, window.length);
      const bitsetStart = offset + header.headerLength;
      checkNumBytes(place, header.numBytes, end - bitsetStart);
      if (header.numBytes > MAX_BITSET_BYTES) throw corrupt(place, `numBytes ${header.numBytes} is more than the spec's 128 MiB`);
      filters.push(entry(place, await readExactly(bitsetStart, header.numBytes, `Bloom filter bitset of ${where(place)}`)));
    }
  }
  return filters;
}

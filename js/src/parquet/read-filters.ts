// From a Parquet file to one Bloom filter per (row group, column): the footer
// gives each column chunk's filter offset (and length, when recorded), the
// BloomFilterHeader there gives the bitset's size, and the bitset follows.
// Every offset and size is checked against the file before anything is read or
// allocated: a filter lies between the magic and the footer, and filters never
// overlap (each is its own chunk's bytes), so all of them together never cost
// more memory, or fetches, than the file's own bytes.
//
// Two ways in: the whole file's bytes, or a range reader (an HTTP Range
// request, a file handle) that fetches the tail, the footer and then only the
// filters, so a caller can skip row groups before fetching them.
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { readBloomFilterHeader, type BloomFilterHeader } from './bloom-filter-header.js';
import { checkHeadMagic, footerLengthFromTail, footerRange, parseFileMetaData, type ColumnChunkBloomPlace, type ParquetPhysicalType } from './footer.js';
import type { ParquetLogicalType } from './footer-schema.js';
import { MAX_BITSET_BYTES, ParquetBloomFilter } from './split-block-filter.js';

/** One column chunk's filter and where it is. */
export interface ParquetColumnBloomFilter {
  /** The row group's index in the footer, from 0. */
  rowGroup: number;
  /** The column's path in the schema, joined with '.' (a name holding '.' or '"' double-quoted). */
  column: string;
  /** The column's path in the schema, one name per level. */
  path: string[];
  /** The column's physical type. */
  physicalType: ParquetPhysicalType;
  /** The column's logical type, when the schema gives one. */
  logicalType: ParquetLogicalType | undefined;
  /**
   * The filter: `filter.has(value)` false means the row group does not hold `value`.
   * A chunk without a filter (`filter.known` false) answers true to every value.
   */
  filter: ParquetBloomFilter;
}

/** Reads `length` bytes at `offset` of the file (exactly that many: fewer is CORRUPT). */
export type ParquetRangeReader = (offset: number, length: number) => Promise<Uint8Array | ArrayBuffer>;

/** Options of {@link fetchParquetBloomFilters}. */
export interface FetchParquetOptions {
  /** How long one read may take before the call fails UNAVAILABLE, in ms (default 30,000; Infinity: no limit). */
  timeoutMs?: number;
}

/** Bytes first read for a header whose filter length the footer does not give: the spec's header is ~15; a longer one is read again, larger. */
const HEADER_WINDOW = 256;
/** A footer this large is not read through a range reader (real ones are KBs to a few MBs). */
export const MAX_FETCHED_FOOTER_BYTES = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const MAGIC_BYTES = 4;

const where = (place: ColumnChunkBloomPlace) => `row group ${place.rowGroup}, column ${place.column}`;
const corrupt = (place: ColumnChunkBloomPlace, detail: string) => new FilterError('CORRUPT', `Parquet Bloom filter of ${where(place)}: ${detail}`);

const hasLocalFilter = (place: ColumnChunkBloomPlace) => place.bloomFilterOffset !== undefined && place.filePath === undefined;

/**
 * Each filter's region [offset, end): after the magic, before the footer, and
 * before the next filter's offset (filters never share bytes). `end` is where
 * the recorded length ends, else the most the filter may take.
 */
function filterRegions(places: readonly ColumnChunkBloomPlace[], footerStart: number): Map<ColumnChunkBloomPlace, { offset: number; end: number }> {
  const located = places.filter(hasLocalFilter).sort((a, b) => a.bloomFilterOffset! - b.bloomFilterOffset!);
  const regions = new Map<ColumnChunkBloomPlace, { offset: number; end: number }>();
  located.forEach((place, i) => {
    const offset = place.bloomFilterOffset!;
    const next = located[i + 1];
    if (offset < MAGIC_BYTES || offset >= footerStart) throw corrupt(place, `offset ${offset} is not between the file's magic and its footer (at ${footerStart})`);
    if (next !== undefined && next.bloomFilterOffset === offset) throw corrupt(place, `offset ${offset} is also ${where(next)}'s filter`);
    const limit = next === undefined ? footerStart : next.bloomFilterOffset!;
    if (place.bloomFilterLength !== undefined && offset + place.bloomFilterLength > limit) {
      throw corrupt(place, `offset ${offset} + length ${place.bloomFilterLength} runs past ${next === undefined ? 'the footer' : `${where(next)}'s filter`} (at ${limit})`);
    }
    regions.set(place, { offset, end: place.bloomFilterLength === undefined ? limit : offset + place.bloomFilterLength });
  });
  return regions;
}

function checkNumBytes(place: ColumnChunkBloomPlace, header: BloomFilterHeader, bytesLeft: number): void {
  if (header.numBytes < 0 || header.numBytes > bytesLeft) throw corrupt(place, `numBytes ${header.numBytes} is past the filter's end (${bytesLeft} bytes left)`);
  if (header.numBytes > MAX_BITSET_BYTES) throw corrupt(place, `numBytes ${header.numBytes} is more than the spec's 128 MiB`);
}

function entry(place: ColumnChunkBloomPlace, bitset: Uint8Array | null): ParquetColumnBloomFilter {
  const { rowGroup, column, path, physicalType, logicalType } = place;
  const filter = bitset === null ? ParquetBloomFilter.withoutFilter(physicalType, logicalType) : new ParquetBloomFilter(bitset, physicalType, logicalType);
  return { rowGroup, column, path, physicalType, logicalType, filter };
}

function asBytes(input: unknown, what: string): Uint8Array {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  throw new FilterError('INVALID_ARGUMENT', `${what} takes a Uint8Array or an ArrayBuffer, not ${describeValue(input)}`);
}

/**
 * The Bloom filters of a whole Parquet file (its bytes), one per column chunk
 * in footer order: a chunk without a filter (or stored in another file) gets
 * one that answers true, so no row group is ever skipped for want of a filter.
 * Hostile bytes are a FilterError: CORRUPT, or UNSUPPORTED for an encrypted
 * footer or column, or a filter of another algorithm, hash or compression than the spec's.
 */
export function readParquetBloomFilters(bytes: Uint8Array | ArrayBuffer): ParquetColumnBloomFilter[] {
  const file = asBytes(bytes, 'readParquetBloomFilters');
  const { start: footerStart, end } = footerRange(file);
  const places = parseFileMetaData(file.subarray(footerStart, end));
  const regions = filterRegions(places, footerStart);
  // Every header is read and checked before any filter is made.
  const bitsets = places.map((place) => {
    const region = regions.get(place);
    if (region === undefined) return null;
    const header = readBloomFilterHeader(file, region.offset, region.end);
    const bitsetStart = region.offset + header.headerLength;
    checkNumBytes(place, header, region.end - bitsetStart);
    return file.subarray(bitsetStart, bitsetStart + header.numBytes);
  });
  const filters: ParquetColumnBloomFilter[] = [];
  try {
    places.forEach((place, i) => filters.push(entry(place, bitsets[i]!)));
  } catch (error) {
    for (const made of filters) made.filter.free();
    throw error;
  }
  return filters;
}

/** `read`, bounded by `timeoutMs`: a read that never settles is UNAVAILABLE, not a hang. */
function timedReader(read: ParquetRangeReader, timeoutMs: number): (offset: number, length: number, what: string) => Promise<Uint8Array> {
  return async (offset, length, what) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      if (timeoutMs === Infinity) return;
      timer = setTimeout(() => reject(new FilterError('UNAVAILABLE', `Parquet file: the range reader did not answer for the ${what} (${length} at ${offset}) within ${timeoutMs} ms`)), timeoutMs);
    });
    let got: unknown;
    try {
      got = await Promise.race([read(offset, length), timeout]);
    } finally {
      clearTimeout(timer);
    }
    const bytes = got instanceof ArrayBuffer ? new Uint8Array(got) : got;
    if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
      throw new FilterError('CORRUPT', `Parquet file: the reader gave ${bytes instanceof Uint8Array ? bytes.length : 'no'} bytes for the ${what} (${length} at ${offset})`);
    }
    return bytes;
  };
}

/**
 * The same filters through `read`, for a file of `fileLength` bytes: reads its
 * first 4 and last 8 bytes, the footer, then each filter (header and bitset),
 * and nothing else. A reader that returns fewer bytes than asked is CORRUPT;
 * one that does not answer within `options.timeoutMs` (default 30 s) is UNAVAILABLE.
 */
export async function fetchParquetBloomFilters(read: ParquetRangeReader, fileLength: number, options: FetchParquetOptions = {}): Promise<ParquetColumnBloomFilter[]> {
  if (typeof read !== 'function') throw new FilterError('INVALID_ARGUMENT', `fetchParquetBloomFilters takes a range reader function, not ${describeValue(read)}`);
  if (!Number.isSafeInteger(fileLength) || fileLength < 0) {
    throw new FilterError('INVALID_ARGUMENT', `fileLength must be a byte count, not ${fileLength}`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new FilterError('INVALID_ARGUMENT', `timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`);
  const readExactly = timedReader(read, timeoutMs);
  if (fileLength < 12) throw new FilterError('CORRUPT', `Parquet file: ${fileLength} bytes is too short for a Parquet file`);
  const footerLength = footerLengthFromTail(await readExactly(fileLength - 8, 8, 'tail'), fileLength);
  if (footerLength > MAX_FETCHED_FOOTER_BYTES) {
    throw new FilterError('UNSUPPORTED', `Parquet file: a footer of ${footerLength} bytes is more than the ${MAX_FETCHED_FOOTER_BYTES} this reader fetches`);
  }
  checkHeadMagic(await readExactly(0, 4, 'magic'));
  const footerStart = fileLength - 8 - footerLength;
  const places = parseFileMetaData(await readExactly(footerStart, footerLength, 'footer'));
  const regions = filterRegions(places, footerStart);
  const filters: ParquetColumnBloomFilter[] = [];
  try {
    for (const place of places) {
      const region = regions.get(place);
      if (region === undefined) {
        filters.push(entry(place, null));
      } else if (place.bloomFilterLength !== undefined) {
        // Header and bitset in one read of the recorded length (within the file, checked above).
        const bytes = await readExactly(region.offset, region.end - region.offset, `Bloom filter of ${where(place)}`);
        const header = readBloomFilterHeader(bytes, 0, bytes.length);
        checkNumBytes(place, header, bytes.length - header.headerLength);
        filters.push(entry(place, bytes.subarray(header.headerLength, header.headerLength + header.numBytes)));
      } else {
        const header = await fetchHeader(readExactly, place, region);
        const bitsetStart = region.offset + header.headerLength;
        checkNumBytes(place, header, region.end - bitsetStart);
        filters.push(entry(place, await readExactly(bitsetStart, header.numBytes, `Bloom filter bitset of ${where(place)}`)));
      }
    }
  } catch (error) {
    for (const made of filters) made.filter.free();
    throw error;
  }
  return filters;
}

/**
 * The header of a filter whose length is not recorded: a window of HEADER_WINDOW
 * bytes, read again twice as large while the header runs past it (a later
 * writer's extra fields), up to the region's end: the same header the
 * whole-file reader reads.
 */
async function fetchHeader(
  readExactly: (offset: number, length: number, what: string) => Promise<Uint8Array>,
  place: ColumnChunkBloomPlace,
  region: { offset: number; end: number },
): Promise<BloomFilterHeader> {
  for (let window = Math.min(HEADER_WINDOW, region.end - region.offset); ; window = Math.min(window * 2, region.end - region.offset)) {
    const bytes = await readExactly(region.offset, window, `Bloom filter header of ${where(place)}`);
    try {
      return readBloomFilterHeader(bytes, 0, bytes.length);
    } catch (error) {
      const truncated = window < region.end - region.offset;
      if (!(truncated && error instanceof FilterError && error.code === 'CORRUPT')) throw error;
    }
  }
}

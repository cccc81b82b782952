// A Parquet column chunk's split-block Bloom filter (BloomFilter.md) with the
// column's physical type: the library's SplitBlockBloomFilter (wasm, hashing
// with XXH64 seed 0 there, bit for bit the spec's), asked with JS values
// encoded as Parquet's PLAIN encoding writes them, which is what the spec hashes.
import { SplitBlockBloomFilter } from '../index.js';
import type { ParquetPhysicalType } from './footer.js';
import { encodeForHash, type ParquetValue } from './plain-encoding.js';

/** The spec's bounds on a bitset: one 32-byte block at least, 128 MiB at most, a power of two. */
export const MIN_BITSET_BYTES = 32;
/** The spec's largest bitset: 128 MiB. */
export const MAX_BITSET_BYTES = 128 * 1024 * 1024;

/**
 * One column chunk's Bloom filter, as readParquetBloomFilters returns it: `has(value)`
 * answers as the engine's own probe does (false: the row group does not hold the value).
 */
export class ParquetBloomFilter {
  /** The filter itself: its bitset is the column chunk's, its bytes the spec's. */
  readonly filter: SplitBlockBloomFilter;
  /** The column's physical type: how `has` and `add` encode a JS value. */
  readonly physicalType: ParquetPhysicalType;

  /**
   * @param bitset the spec's bitset (copied into wasm memory), or a filter to wrap.
   * @param physicalType how `has` encodes a JS value (the column's physical type).
   * @throws FilterError `CORRUPT` unless a bitset is a power of two bytes from 32 to 128 MiB.
   */
  constructor(bitset: Uint8Array | SplitBlockBloomFilter, physicalType: ParquetPhysicalType) {
    this.physicalType = physicalType;
    this.filter = bitset instanceof SplitBlockBloomFilter ? bitset : SplitBlockBloomFilter.fromBitset(bitset);
  }

  /**
   * An empty filter of `numBytes` bytes (a power of two from 32 to 128 MiB), to
   * build one an engine reads: the same values at the same size give the same bytes.
   * @throws FilterError `INVALID_ARGUMENT` for another size.
   */
  static empty(numBytes: number, physicalType: ParquetPhysicalType): ParquetBloomFilter {
    return new ParquetBloomFilter(SplitBlockBloomFilter.withByteCount(numBytes), physicalType);
  }

  /** The bitset's bytes, as the spec lays them out (a fresh copy). */
  get bitset(): Uint8Array {
    return this.filter.toBitset();
  }

  /** False: the row group does not hold `value`. True: it may. @throws FilterError `INVALID_ARGUMENT` for a value the type cannot hold. */
  has(value: ParquetValue): boolean {
    return this.filter.has(this.keyOf(value));
  }

  /** Adds `value` (encoded as `has` does). @throws FilterError `INVALID_ARGUMENT` for a value the type cannot hold. */
  add(value: ParquetValue): this {
    this.filter.add(this.keyOf(value));
    return this;
  }

  /** Releases the filter's wasm memory now (else when it is garbage collected). */
  free(): void {
    this.filter.free();
  }

  /** What the filter hashes: a string or bytes of a byte array column as they are (the library hashes a string's UTF-8), else the plain bytes. */
  private keyOf(value: ParquetValue): string | Uint8Array {
    const byteArray = this.physicalType === 'BYTE_ARRAY' || this.physicalType === 'FIXED_LEN_BYTE_ARRAY';
    if (byteArray && (typeof value === 'string' || value instanceof Uint8Array)) return value;
    return encodeForHash(value, this.physicalType);
  }
}

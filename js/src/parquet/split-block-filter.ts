// A Parquet column chunk's split-block Bloom filter (BloomFilter.md) with the
// column's physical and logical type: the library's SplitBlockBloomFilter (wasm,
// hashing with XXH64 seed 0 there, bit for bit the spec's), asked with JS values
// encoded as the engine stores them (logical-encoding.ts) and then as Parquet's
// PLAIN encoding writes them, which is what the spec hashes.
import { FilterError } from '../errors.js';
import { SplitBlockBloomFilter } from '../index.js';
import { requireAttached, describeValue } from '../keys/keys.js';
import { PHYSICAL_TYPES, type ParquetPhysicalType } from './footer-fields.js';
import type { ParquetLogicalType } from './footer-schema.js';
import { toPhysicalValue } from './logical-encoding.js';
import { encodeForHash, type ParquetValue } from './plain-encoding.js';

/** The spec's bounds on a bitset: one 32-byte block at least, 128 MiB at most, a power of two. */
export const MIN_BITSET_BYTES = 32;
/** The spec's largest bitset: 128 MiB. */
export const MAX_BITSET_BYTES = 128 * 1024 * 1024;

// +0 and -0 as a FLOAT and a DOUBLE: SQL's `v = 0` holds for both, the filter
// holds the one written, so a zero is asked as both.
const ZEROS: Record<string, [Uint8Array, Uint8Array]> = {
  FLOAT: [new Uint8Array(4), Uint8Array.of(0, 0, 0, 0x80)],
  DOUBLE: [new Uint8Array(8), Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0x80)],
};

function checkPhysicalType(physicalType: ParquetPhysicalType): void {
  if (!(PHYSICAL_TYPES as readonly string[]).includes(physicalType)) {
    throw new FilterError('INVALID_ARGUMENT', `physicalType must be one of ${PHYSICAL_TYPES.join(', ')}, not ${describeValue(physicalType)}`);
  }
}

/**
 * One column chunk's Bloom filter, as readParquetBloomFilters returns it: `has(value)`
 * answers as the engine's own probe does (false: the row group does not hold the value).
 * A chunk the writer gave no filter (DuckDB writes none for a chunk that fell back to
 * PLAIN encoding) is one too: its `filter` is undefined and `has` is always true.
 */
export class ParquetBloomFilter {
  /** The filter itself (its bitset is the column chunk's, its bytes the spec's); undefined for a chunk without one. */
  readonly filter: SplitBlockBloomFilter | undefined;
  /** The column's physical type: how `has` and `add` encode a JS value. */
  readonly physicalType: ParquetPhysicalType;
  /** The column's logical type (UUID, TIMESTAMP, DECIMAL...), when the schema gives one. */
  readonly logicalType: ParquetLogicalType | undefined;

  /**
   * @param bitset the spec's bitset (a Uint8Array or ArrayBuffer, copied into wasm memory), or a filter to wrap.
   * @param physicalType how `has` encodes a JS value (the column's physical type).
   * @param logicalType the column's logical type, if any (how a UUID string or a Date is stored).
   * @throws FilterError `CORRUPT` unless a bitset is a power of two bytes from 32 to 128 MiB;
   *   `INVALID_ARGUMENT` for another kind of bitset or an unknown physical type.
   */
  constructor(bitset: Uint8Array | ArrayBuffer | SplitBlockBloomFilter, physicalType: ParquetPhysicalType, logicalType?: ParquetLogicalType) {
    checkPhysicalType(physicalType);
    this.physicalType = physicalType;
    this.logicalType = logicalType;
    if (bitset instanceof SplitBlockBloomFilter) {
      this.filter = bitset;
    } else if (bitset instanceof Uint8Array || bitset instanceof ArrayBuffer) {
      const bytes = bitset instanceof ArrayBuffer ? new Uint8Array(bitset) : bitset;
      requireAttached(bytes, 'the bitset');
      this.filter = SplitBlockBloomFilter.fromBitset(bytes);
    } else {
      // A DataView or Uint32Array has a length that is not its byte count: a filter of the wrong bits.
      throw new FilterError('INVALID_ARGUMENT', `a ParquetBloomFilter's bitset is a Uint8Array or an ArrayBuffer, not ${describeValue(bitset)}`);
    }
  }

  /**
   * An empty filter of `numBytes` bytes (a power of two from 32 to 128 MiB), to
   * build one an engine reads: the same values at the same size give the same bytes.
   * @throws FilterError `INVALID_ARGUMENT` for another size.
   */
  static empty(numBytes: number, physicalType: ParquetPhysicalType, logicalType?: ParquetLogicalType): ParquetBloomFilter {
    return new ParquetBloomFilter(SplitBlockBloomFilter.withByteCount(numBytes), physicalType, logicalType);
  }

  /** The stand-in for a column chunk without a filter: `has` is always true, so its row group is never skipped. */
  static withoutFilter(physicalType: ParquetPhysicalType, logicalType?: ParquetLogicalType): ParquetBloomFilter {
    checkPhysicalType(physicalType);
    const stand: { -readonly [K in keyof ParquetBloomFilter]: ParquetBloomFilter[K] } = Object.create(ParquetBloomFilter.prototype);
    stand.filter = undefined;
    stand.physicalType = physicalType;
    stand.logicalType = logicalType;
    return stand as ParquetBloomFilter;
  }

  /** Whether the column chunk has a filter (false: `has` cannot rule anything out). */
  get known(): boolean {
    return this.filter !== undefined;
  }

  /** The bitset's bytes, as the spec lays them out (a fresh copy); empty for a chunk without a filter. */
  get bitset(): Uint8Array {
    return this.filter === undefined ? new Uint8Array(0) : this.filter.toBitset();
  }

  /**
   * False: the row group does not hold `value`. True: it may (always, for a chunk without a filter).
   * @throws FilterError `INVALID_ARGUMENT` for a value the column cannot hold or whose stored form is ambiguous.
   */
  has(value: ParquetValue): boolean {
    const key = this.keyOf(value);
    if (this.filter === undefined) return true;
    const zeros = value === 0 ? ZEROS[this.physicalType] : undefined;
    if (zeros !== undefined) return this.filter.has(zeros[0]) || this.filter.has(zeros[1]);
    return this.filter.has(key);
  }

  /** Adds `value` (encoded as `has` does). @throws FilterError `INVALID_ARGUMENT` as `has`; `UNSUPPORTED` for a chunk without a filter. */
  add(value: ParquetValue): this {
    this.requireFilter('add').add(this.keyOf(value));
    return this;
  }

  /** Adds a value by its spec hash (XXH64 seed 0 of its plain bytes: `xxhash64`), unsigned or signed 64-bit. */
  addHash(hash: bigint): this {
    this.requireFilter('addHash').addHash(hash);
    return this;
  }

  /** Whether a value with this spec hash may be in the row group. */
  hasHash(hash: bigint): boolean {
    return this.filter === undefined ? true : this.filter.hasHash(hash);
  }

  /** Releases the filter's wasm memory now (else when it is garbage collected). */
  free(): void {
    this.filter?.free();
  }

  private requireFilter(method: string): SplitBlockBloomFilter {
    if (this.filter === undefined) throw new FilterError('UNSUPPORTED', `${method}: this column chunk has no Bloom filter`);
    return this.filter;
  }

  /** What the filter hashes: a string or bytes of a byte array column as they are (the library hashes a string's UTF-8), else the plain bytes. */
  private keyOf(value: ParquetValue): string | Uint8Array {
    if (value instanceof Uint8Array) requireAttached(value, 'the value');
    const physical = this.logicalType === undefined ? value : toPhysicalValue(value, this.physicalType, this.logicalType);
    const byteArray = this.physicalType === 'BYTE_ARRAY' || this.physicalType === 'FIXED_LEN_BYTE_ARRAY';
    if (byteArray && (typeof physical === 'string' || physical instanceof Uint8Array)) return physical;
    return encodeForHash(physical, this.physicalType);
  }
}

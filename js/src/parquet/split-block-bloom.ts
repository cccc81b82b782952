import { MergeableBloomFilter } from '../bloom/bloom-family.js';
import type { FilterClassInfo } from '../core/filter-base.js';
import { coreError, FilterError, statusName } from '../errors.js';
import type { FilterOptions } from '../options.js';
import type { CoreModule } from '../runtime/core-module.js';

/** Options of {@link SplitBlockBloomFilter}: the {@link FilterOptions} every filter takes, and its own. */
export interface SplitBlockBloomFilterOptions extends FilterOptions {
  /**
   * The bitset's exact size in bytes (Parquet's `numBytes`): a power of two
   * from 32 to 128 MiB. Default: the Parquet spec's size for `capacity` and
   * `falsePositiveRate`, the one DuckDB, Spark and arrow-rs pick.
   */
  byteCount?: number | undefined;
}

/** The one export beyond the registry's calls (bindings/parquet_bitset.cpp). */
interface BitsetExports {
  _cbw_sbbf_load_bitset(handle: number, data: number, length: number): number;
}

/**
 * The spec's rule-of-thumb rate at 8 bits per value, (1 - e^-1)^8: what a
 * filter of a given byte count is recorded as sized for (capacity: byteCount
 * values) when nothing says otherwise, as in the C++ withByteCount.
 */
const RATE_AT_8_BITS_PER_VALUE = (1 - Math.exp(-1)) ** 8;

/**
 * Parquet's split-block Bloom filter, bit for bit (apache/parquet-format
 * BloomFilter.md): the filter DuckDB, Spark, arrow-rs and parquet-go write per
 * column chunk. A key is hashed with XXH64, seed 0 (the spec's: keep the default
 * seed for Parquet), into one 256-bit block of eight 32-bit words, one bit per
 * word. Its raw bitset ({@link toBitset}, {@link fromBitset}) is what a Parquet
 * file stores after the filter's header; `serialize()` gives the library's
 * envelope as for every type. No false negatives, no removal.
 */
export class SplitBlockBloomFilter extends MergeableBloomFilter<'split-block-bloom', SplitBlockBloomFilterOptions> {
  protected static override readonly info: FilterClassInfo<'split-block-bloom'> = {
    typeName: 'split-block-bloom',
    className: 'SplitBlockBloomFilter',
  };

  /** Number of 256-bit blocks. */
  declare readonly blockCount: number;
  /** Bits in the bitset (blockCount * 256). */
  declare readonly bitCount: number;

  static {
    this.defineSizingGetters('blockCount', 'bitCount');
  }

  /**
   * An empty filter of exactly `byteCount` bytes, seed 0: the same values at the
   * same size give the same bytes as an engine's filter.
   * @throws FilterError `INVALID_ARGUMENT` unless byteCount is a power of two from 32 to 128 MiB.
   */
  static withByteCount(byteCount: number): SplitBlockBloomFilter {
    return new SplitBlockBloomFilter({ capacity: byteCount, falsePositiveRate: RATE_AT_8_BITS_PER_VALUE, byteCount });
  }

  /**
   * A filter over a spec bitset (a Parquet file's filter bytes after its
   * BloomFilterHeader), copied, seed 0.
   * @throws FilterError `CORRUPT` unless its length is a power of two from 32 to 128 MiB.
   */
  static fromBitset(bitset: Uint8Array): SplitBlockBloomFilter {
    if (!(bitset instanceof Uint8Array)) throw new FilterError('INVALID_ARGUMENT', 'fromBitset takes a Uint8Array');
    let filter: SplitBlockBloomFilter;
    try {
      filter = SplitBlockBloomFilter.withByteCount(bitset.length);
    } catch (error) {
      if (error instanceof FilterError && error.code === 'INVALID_ARGUMENT') {
        throw new FilterError('CORRUPT', `split-block Bloom bitset: ${error.message}`, { cause: error });
      }
      throw error;
    }
    filter.loadBitset(bitset);
    return filter;
  }

  /** The spec bitset (numBytes long, the bytes a Parquet file stores after the header): a fresh copy. */
  toBitset(): Uint8Array {
    const handle = this.handle;
    const parts = handle.serializeParts();
    if (parts === null) throw coreError(handle.errorCode(), handle.lastMessage());
    try {
      // The library's payload is the spec bitset itself (docs/FORMAT.md, type 8).
      return this.module.HEAPU8.slice(parts.payload, parts.payload + parts.payloadLength);
    } finally {
      handle.releaseSerialized();
    }
  }

  private loadBitset(bitset: Uint8Array): void {
    const module = this.module as CoreModule & BitsetExports;
    const pointer = module._malloc(bitset.length);
    if (pointer === 0) {
      this.free();
      throw new FilterError('OUT_OF_MEMORY', `cannot reserve ${bitset.length} bytes of wasm memory for a bitset`);
    }
    try {
      module.HEAPU8.set(bitset, pointer);
      const status = module._cbw_sbbf_load_bitset(this.address, pointer, bitset.length);
      if (status !== 0) throw coreError(statusName(module, -status), `split-block Bloom bitset of ${bitset.length} bytes refused`);
    } finally {
      module._free(pointer);
    }
  }
}

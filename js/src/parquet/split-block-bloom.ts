import { MergeableBloomFilter } from '../bloom/bloom-family.js';
import type { FilterClassInfo } from '../core/filter-base.js';
import { coreError, FilterError, statusName } from '../errors.js';
import type { FilterOptions } from '../options.js';
import type { CoreModule } from '../runtime/core-module.js';
import { getRuntime } from '../runtime/init.js';
import { describeValue, requireAttached } from '../keys/keys.js';

/** Options of {@link SplitBlockBloomFilter}: the {@link FilterOptions} every filter takes, and its own. */
export interface SplitBlockBloomFilterOptions extends FilterOptions {
  /**
   * The bitset's exact size in bytes (Parquet's `numBytes`): a power of two
   * from 32 to 128 MiB. Default: the Parquet spec's size for `capacity` and
   * `falsePositiveRate`, the one DuckDB, Spark and arrow-rs pick.
   */
  byteCount?: number | undefined;
}

/** The exports beyond the registry's calls (bindings/parquet_bitset.cpp). */
interface BitsetExports {
  _cbw_sbbf_load_bitset(handle: number, data: number, length: number): number;
  _cbw_sbbf_add_hash(handle: number, low: number, high: number): number;
  _cbw_sbbf_has_hash(handle: number, low: number, high: number): number;
  _cbw_sbbf_xxh64(data: number, length: number, out: number): void;
}

const TWO_64 = 1n << 64n;

/**
 * A 64-bit hash as the two 32-bit halves wasm takes. The signed form of a hash
 * (BigInt.asIntN(64, h), how Java and Spark hand one out) is the same 64 bits;
 * anything else (a number, a bigint outside [-2^63, 2^64)) is refused, never
 * reduced to other bits.
 */
function hashHalves(hash: bigint, method: string): [number, number] {
  if (typeof hash !== 'bigint' || hash < -(1n << 63n) || hash >= TWO_64) {
    const shown = typeof hash === 'bigint' ? `${hash}n` : typeof hash;
    throw new FilterError('INVALID_ARGUMENT', `${method} takes a 64-bit hash as a bigint in [-2^63, 2^64), not ${shown}`);
  }
  const bits = BigInt.asUintN(64, hash);
  return [Number(bits & 0xffffffffn), Number(bits >> 32n)];
}


/**
 * The spec's rule-of-thumb rate at 8 bits per value, (1 - e^-1)^8: what a
 * filter of a given byte count is recorded as sized for (capacity: byteCount
 * values) when nothing says otherwise, as in the C++ withByteCount.
 */
const RATE_AT_8_BITS_PER_VALUE = (1 - Math.exp(-1)) ** 8;

/**
 * Parquet's split-block Bloom filter, bit for bit
 * (https://github.com/apache/parquet-format/blob/master/BloomFilter.md): the filter DuckDB, Spark, arrow-rs and parquet-go write per
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
   * The spec's hash of a value's plain-encoded bytes: XXH64 with seed 0, in wasm
   * (call `init()` first). What {@link addHash} takes.
   * @throws FilterError `INVALID_ARGUMENT` unless `bytes` is an attached Uint8Array.
   */
  static xxhash64(bytes: Uint8Array): bigint {
    if (!(bytes instanceof Uint8Array)) throw new FilterError('INVALID_ARGUMENT', `xxhash64 takes a Uint8Array, not ${describeValue(bytes)}`);
    requireAttached(bytes, "xxhash64's value");
    const module = getRuntime().module as CoreModule & BitsetExports;
    const pointer = module._malloc(bytes.length + 8);
    if (pointer === 0) throw new FilterError('OUT_OF_MEMORY', `cannot reserve ${bytes.length + 8} bytes of wasm memory to hash`);
    try {
      // The hash's 8 bytes first (malloc's alignment), the value after them.
      module.HEAPU8.set(bytes, pointer + 8);
      module._cbw_sbbf_xxh64(pointer + 8, bytes.length, pointer);
      const view = new DataView(module.HEAPU8.buffer, pointer, 8);
      return BigInt(view.getUint32(0, true)) | (BigInt(view.getUint32(4, true)) << 32n);
    } finally {
      module._free(pointer);
    }
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

  /**
   * Adds a value by its spec hash (XXH64 seed 0 of its plain bytes, {@link SplitBlockBloomFilter.xxhash64}),
   * unsigned or in its signed 64-bit form.
   * @throws FilterError `INVALID_ARGUMENT` for a number or a bigint outside [-2^63, 2^64).
   */
  addHash(hash: bigint): this {
    const [low, high] = hashHalves(hash, 'addHash');
    const status = (this.module as CoreModule & BitsetExports)._cbw_sbbf_add_hash(this.address, low, high);
    if (status < 0) throw coreError(statusName(this.module, -status), 'addHash refused');
    return this;
  }

  /**
   * Whether a value with this spec hash may have been added (false: it was not).
   * @throws FilterError `INVALID_ARGUMENT` as {@link addHash}.
   */
  hasHash(hash: bigint): boolean {
    const [low, high] = hashHalves(hash, 'hasHash');
    const status = (this.module as CoreModule & BitsetExports)._cbw_sbbf_has_hash(this.address, low, high);
    if (status < 0) throw coreError(statusName(this.module, -status), 'hasHash refused');
    return status === 1;
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

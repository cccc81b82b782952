import { BloomFamilyFilter } from './bloom-family.js';
import { type FilterClassInfo, readAs, type SerializedBytes } from '../core/filter-base.js';
import type { OwnedBytes } from '../keys/keys.js';
import type { FilterOptions } from '../options.js';

/** Options of {@link BloomFilter}: the {@link FilterOptions} every filter takes, nothing more. */
export type BloomFilterOptions = FilterOptions;

const INFO: FilterClassInfo = { typeName: 'bloom', className: 'BloomFilter' };

/**
 * Classic Bloom filter: no false negatives, no removal; about 9.6 bits per key
 * at 1% and 14.4 at 0.1% (m = -n ln ε / (ln 2)², k = (m/n) ln 2).
 *
 * ```ts
 * await init();
 * const seen = new BloomFilter({ capacity: 1_000_000, falsePositiveRate: 0.001 });
 * seen.add('https://example.com/a');
 * seen.has('https://example.com/a'); // true
 * ```
 */
export class BloomFilter extends BloomFamilyFilter {
  /**
   * @throws FilterError `INVALID_ARGUMENT` for bad options (capacity not a
   *   positive integer, rate outside (0, 1), unknown option, too large);
   *   `OUT_OF_MEMORY`; `NOT_INITIALIZED` before `init()` resolved.
   */
  constructor(options: BloomFilterOptions) {
    super(INFO, options);
  }

  /**
   * Reads bytes produced by `serialize()` (here or by the C++ library).
   * @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE` (bytes of another filter type), `INVALID_ARGUMENT` (not a Uint8Array).
   */
  static deserialize(bytes: SerializedBytes): BloomFilter {
    return readAs(bytes, INFO, (existing) => new BloomFilter(existing as never));
  }

  get type(): 'bloom' {
    return 'bloom';
  }

  /**
   * Makes this filter the union of itself and `other`: afterwards it finds
   * the keys of both. @throws FilterError `INVALID_ARGUMENT` unless both have
   * the same size, hash count and seed (build them with the same options).
   */
  union(other: BloomFilter): this {
    return this.unionWith(other);
  }

  /** Size of the bit array (m). */
  get bitCount(): number {
    return this.sizing('bitCount');
  }
  /** Probes per key (k). */
  get hashCount(): number {
    return this.sizing('hashCount');
  }
  /** Bits set to 1. */
  get setBitCount(): number {
    return this.parameters.setBitCount!;
  }
  /** A copy of the bit array: bit i is `(bits[i >> 3] >> (i & 7)) & 1`. */
  bits(): OwnedBytes {
    return this.handle.bloomBits().slice();
  }
}

import { MergeableBloomFilter } from './bloom-family.js';
import type { FilterClassInfo } from '../core/filter-base.js';
import type { OwnedBytes } from '../keys/keys.js';
import type { FilterOptions } from '../options.js';

/** Options of {@link BloomFilter}: the {@link FilterOptions} every filter takes, nothing more. */
export type BloomFilterOptions = FilterOptions;

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
export class BloomFilter extends MergeableBloomFilter<'bloom', BloomFilterOptions> {
  protected static override readonly info: FilterClassInfo<'bloom'> = { typeName: 'bloom', className: 'BloomFilter' };

  /** Size of the bit array (m). */
  declare readonly bitCount: number;
  /** Probes per key (k). */
  declare readonly hashCount: number;

  static {
    this.defineSizingGetters('bitCount', 'hashCount');
  }

  /** Bits set to 1. */
  get setBitCount(): number {
    return this.parameters.setBitCount!;
  }
  /** A copy of the bit array: bit i is `(bits[i >> 3] >> (i & 7)) & 1`. */
  bits(): OwnedBytes {
    return this.module.inspectBloomBits(this.address).slice();
  }
}

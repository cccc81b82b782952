import { BloomFamilyFilter } from './bloom-family.js';
import type { FilterClassInfo } from '../core/filter-base.js';
import type { KeyBatch } from '../keys/key-batch.js';
import type { Key } from '../keys/keys.js';
import { type FilterOptions, requireInteger } from '../options.js';

/** Options of {@link CountingBloomFilter}: the {@link FilterOptions} every filter takes, nothing more. */
export type CountingBloomFilterOptions = FilterOptions;

/**
 * Counting Bloom filter: 4-bit counters instead of bits (4x the memory of
 * the classic filter), so keys can be removed. A counter that reached 15
 * stays there, so removing added keys never causes a false negative.
 * Removing a key that was never added can (it takes other keys' counts):
 * remove only what you added.
 */
export class CountingBloomFilter extends BloomFamilyFilter<'counting-bloom', CountingBloomFilterOptions> {
  protected static override readonly info: FilterClassInfo<'counting-bloom'> = { typeName: 'counting-bloom', className: 'CountingBloomFilter' };

  /** Removes one occurrence; false (and no change) when the key is not present. */
  remove(key: Key): boolean {
    return this.removeKey(key);
  }

  /**
   * Removes each key once (an array, any iterable, or a KeyBatch); returns
   * how many were found and removed. Same caution as `remove`.
   */
  removeMany(keys: Iterable<Key> | KeyBatch): number {
    return this.removeKeys(keys);
  }

  /** Number of counters (m). */
  declare readonly counterCount: number;
  /** Probes per key (k). */
  declare readonly hashCount: number;

  static {
    this.defineSizingGetters('counterCount', 'hashCount');
  }

  /** The value (0..15) of counter `index`. @throws FilterError `INVALID_ARGUMENT` outside 0..counterCount-1. */
  counterAt(index: number): number {
    requireInteger(index, 'index', 'CountingBloomFilter.counterAt', 0, this.counterCount - 1);
    return this.module.inspectCounterAt(this.address, index);
  }
}

import { BloomFamilyFilter, createFromOptions } from './bloom-family.js';
import type { BloomHandle } from './core-module.js';
import { deserializeInto, takePendingHandle } from './filter-base.js';
import type { FilterOptions } from './options.js';

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
export class BloomFilter extends BloomFamilyFilter<BloomHandle> {
  /**
   * @throws FilterError `INVALID_ARGUMENT` for bad options (capacity not a
   *   positive integer, rate outside (0, 1), unknown option, too large);
   *   `NOT_INITIALIZED` before `init()` resolved.
   */
  constructor(options: BloomFilterOptions) {
    super(
      takePendingHandle<BloomHandle>() ??
        createFromOptions(options, 'BloomFilter', (module, capacity, rate, seed) => module.createBloom(capacity, rate, seed)),
    );
  }

  /**
   * Reads bytes produced by `serialize()` (here or by the C++ library).
   * @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE` (bytes of another filter type), `INVALID_ARGUMENT` (not a Uint8Array).
   */
  static deserialize(bytes: Uint8Array): BloomFilter {
    return deserializeInto(
      bytes,
      (module, pointer, length) => module.deserializeBloom(pointer, length),
      () => new BloomFilter(undefined as unknown as BloomFilterOptions),
    );
  }

  get type(): 'bloom' {
    return 'bloom';
  }

  protected fastAdd(address: number, key: number, length: number): void {
    this.module._cbw_bloom_add(address, key, length);
  }
  protected fastHas(address: number, key: number, length: number): number {
    return this.module._cbw_bloom_has(address, key, length);
  }

  /**
   * Makes this filter the union of itself and `other`: afterwards it finds
   * the keys of both. @throws FilterError `INVALID_ARGUMENT` unless both have
   * the same size, hash count and seed (build them with the same options).
   */
  union(other: BloomFilter): this {
    return this.unionWith(other, (self, that) => self.unionWith(that));
  }

  /** Size of the bit array (m). */
  get bitCount(): number {
    return this.handle.bitCount();
  }
  /** Probes per key (k). */
  get hashCount(): number {
    return this.handle.hashCount();
  }
  /** Bits set to 1. */
  get setBitCount(): number {
    return this.handle.setBitCount();
  }
  /** A copy of the bit array: bit i is `(bits[i >> 3] >> (i & 7)) & 1`. */
  bits(): Uint8Array {
    return this.handle.words().slice();
  }
}

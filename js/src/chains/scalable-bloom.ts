import { coreError, statusName } from '../errors.js';
import { ExistingHandle, type FilterClassInfo, unionMismatch } from '../core/filter-base.js';
import { GrowingFilter } from './growing-filter.js';
import { growthOptionsForCore, type GrowthOptions } from './scalable-options.js';

/** Options of `ScalableBloomFilter`; `tightening` defaults to 0.9. */
export type ScalableBloomFilterOptions = GrowthOptions;

/**
 * A Bloom filter that grows (Almeida et al. 2007): a chain of Bloom filters,
 * each `growth` times larger than the one before, with rates tightened so
 * that the whole chain stays under `falsePositiveRate` however many keys
 * arrive. Use it when the number of keys is not known in advance; when it
 * is, a `BloomFilter` of that size takes 2-3x fewer bytes
 * (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/SCALABLE.md).
 *
 * `count` is the keys stored. `add` asks only the newest link whether it
 * holds the key already (asking every link would make each add a lookup of
 * the whole chain): a repeat is not stored or counted again unless the chain
 * grew since the key was first added; then the newest link stores it and
 * counts it again. `addIfNew` asks every link, and stores and counts only
 * keys new to the chain. `capacity` is the keys the chain holds before it
 * makes its next link.
 *
 * ```ts
 * const seen = new ScalableBloomFilter({ initialCapacity: 1000, falsePositiveRate: 0.001 });
 * for (const url of stream) if (!seen.has(url)) seen.add(url);
 * seen.links; // grows as keys arrive
 * ```
 */
export class ScalableBloomFilter extends GrowingFilter<'scalable-bloom'> {
  protected static override readonly info: FilterClassInfo<'scalable-bloom'> = { typeName: 'scalable-bloom', className: 'ScalableBloomFilter' };

  /** @throws FilterError `INVALID_ARGUMENT` for bad or contradictory options; `OUT_OF_MEMORY`; `NOT_INITIALIZED`. */
  constructor(options?: ScalableBloomFilterOptions) {
    super(options instanceof ExistingHandle ? options : growthOptionsForCore(options, ScalableBloomFilter.info));
  }

  /**
   * Makes this filter the union of itself and `other`, link by link.
   * @throws FilterError `INVALID_ARGUMENT` unless both were built with the same
   *   options and seed and have the same number of links.
   */
  union(other: ScalableBloomFilter): this {
    if (!(other instanceof ScalableBloomFilter)) throw unionMismatch(this.type, other);
    const handle = this.handle;
    const status = handle.unionWith(other.handle);
    if (status !== 0) throw coreError(statusName(this.module, status), handle.lastMessage());
    return this;
  }
}

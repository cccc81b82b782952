import { coreError, FilterError } from '../errors.js';
import { Filter, type FilterTypeName } from '../core/filter-base.js';
import type { Key } from '../keys/keys.js';

/**
 * What the growing filters (`ScalableBloomFilter`, `ScalableCuckooFilter`)
 * share over `Filter`: an add that says why the chain could not take a key,
 * the schedule's getters, and a batch add stopped where a link could not be made.
 */
export abstract class GrowingFilter<Name extends FilterTypeName = FilterTypeName> extends Filter<Name> {
  /**
   * Adds a key; a new link is made when the newest cannot take it. (A
   * scalable Bloom filter does not store a key it already reports present; a
   * scalable cuckoo filter stores a key added twice twice.)
   * @throws FilterError `FULL` (the chain reached its 32 links, a cuckoo
   *   link would need fingerprints over 32 bits, or a scalable Bloom filter
   *   read from bytes already counts 2^64 − 1 keys) or `OUT_OF_MEMORY` (the next
   *   link does not fit): nothing changed, every key added before is still
   *   found. `INVALID_ARGUMENT`; `FREED`.
   */
  add(key: Key): this {
    const status = this.addKey(key);
    if (status !== 'OK') {
      throw coreError(status, `${this.type} filter cannot grow further (${status}): the key was not added; every key added before is still found`);
    }
    return this;
  }

  /** Number of filters (links) in the chain. */
  get links(): number {
    return this.parameters.links!;
  }
  /** Keys the first link is sized for. */
  declare readonly initialCapacity: number;
  /** Each link holds `growth` times the keys of the one before. */
  declare readonly growth: number;
  /** Each link's rate budget is `tightening` times the one before. */
  declare readonly tightening: number;

  static {
    this.defineSizingGetters('initialCapacity', 'growth', 'tightening');
  }

  protected override onBatchFull(index: number): never {
    throw new FilterError('FULL', `${this.type} filter cannot grow further: stored keys 0..${index - 1}; key ${index} and later were not added`, { index });
  }
}
